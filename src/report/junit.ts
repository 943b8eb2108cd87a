// `vouch report --format junit`: JUnit XML as Jenkins, GitLab and GitHub test
// reporters read it, valid against the common junit-10.xsd (test/fixtures/junit).
// One testsuite for the run's top-level nodes and one per map; a testcase per
// node path. That schema has no properties on a testcase, so each node's cost
// and qualifier are suite properties named `<path>.cost_usd` / `<path>.qualifier`
// (ADR 0014).
import { sealText } from "../read/seal.ts";
import { money } from "../text/money.ts";
import { xml, xmlBody } from "./escape.ts";
import { allOverruns, checkTail, failedChecks, recovered, type ReportModel, type ReportNode } from "./model.ts";
import { qualifierText } from "../read/qualifier.ts";

const secs = (ms: number | null | undefined) => ((ms ?? 0) / 1000).toFixed(3);

function attrs(pairs: Record<string, string | number>): string {
  return Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${xml(v)}"`)
    .join("");
}

type Outcome = "passed" | "failure" | "error" | "skipped";

/** How a node's shown status reads in JUnit; a node that never finished is an error. */
export function outcomeOf(status: string): Outcome {
  if (status === "passed") return "passed";
  if (status === "failed") return "failure";
  if (status === "skipped" || status === "cancelled" || status === "not started") return "skipped";
  return "error";
}

/** How a node reads in JUnit: a recovered one is skipped (its facts say what happened). */
function nodeOutcome(n: ReportNode): Outcome {
  return recovered(n) ? "skipped" : outcomeOf(n.view.status);
}

function failureBody(n: ReportNode): { message: string; body: string } {
  const failed = failedChecks(n.view);
  const first = failed[0];
  const message = first
    ? `check ${first.name} ${first.could_not_run ? "could not run" : "failed"}: ${first.reason ?? `expected ${first.expect}`}`
    : `${n.view.cause ?? "failed"}${n.view.error ? `: ${n.view.error}` : ""}`;
  const parts = failed.map((c) => `check ${c.name}: expected ${c.expect}${c.reason ? ` (${c.reason})` : ""}\n${checkTail(c)}`);
  if (parts.length === 0 && n.view.error) parts.push(n.view.error);
  return { message, body: parts.join("\n\n") };
}

function testcase(n: ReportNode, classname: string, overruns: string[]): string {
  const open = `<testcase${attrs({ classname, name: n.path, time: secs(n.view.wall_ms) })}`;
  const outcome = nodeOutcome(n);
  const facts = [
    `status ${n.view.status}${recovered(n) ? " (recovered by exhausted:)" : ""}`,
    `qualifier ${qualifierText(n.view) ?? "none"}`,
    `cost ${money(n.view.cost_usd)}`,
    `attempts ${n.view.attempts.length}`,
    ...(sealText(n.view) !== null ? [`sandbox ${sealText(n.view)}`] : []),
  ];
  const out = `<system-out>${xmlBody(facts.join("; "))}</system-out>`;
  if (outcome === "passed") return `    ${open}>${out}</testcase>`;
  if (outcome === "skipped") {
    const why = `${n.view.status}${n.view.cause ? `: ${n.view.cause}` : ""}${recovered(n) ? ", recovered by exhausted: (counts as its recorded output)" : ""}`;
    return `    ${open}><skipped${attrs({ message: why })}/>${out}</testcase>`;
  }
  if (outcome === "failure") {
    const { message, body } = failureBody(n);
    return `    ${open}><failure${attrs({ type: n.view.cause ?? "failed", message })}>${xmlBody(body)}</failure>${out}</testcase>`;
  }
  const reason = [n.view.stop_reason ? `stop reason ${n.view.stop_reason}` : null, n.view.error, ...overruns].filter(Boolean).join("; ");
  const message = `${n.view.status}${n.view.cause ? ` (${n.view.cause})` : ""}${reason ? `: ${reason}` : ""}`;
  return `    ${open}><error${attrs({ type: n.view.cause ?? n.view.status, message })}>${xmlBody(reason)}</error>${out}</testcase>`;
}

/** `wallMs`: the suite's own wall time (the run's, or its map node's), not the sum of
 *  its testcases', which ran side by side. */
function suite(
  name: string,
  classname: string,
  nodes: ReportNode[],
  model: ReportModel,
  wallMs: number | null,
  extra: Record<string, string>,
): string {
  const overrunsOf = new Map<string, string[]>();
  for (const o of allOverruns(model)) {
    const k = o.path ?? "";
    overrunsOf.set(k, [...(overrunsOf.get(k) ?? []), `overran ${o.cap}: ${o.actual} > ${o.limit}`]);
  }
  const count = (o: Outcome) => nodes.filter((n) => nodeOutcome(n) === o).length;
  const props = { ...extra };
  for (const n of nodes) {
    props[`${n.path}.cost_usd`] = n.view.cost_usd === null ? "unknown" : String(n.view.cost_usd);
    props[`${n.path}.qualifier`] = n.view.qualifier ?? "none";
    if (n.view.sealed !== undefined) props[`${n.path}.sealed`] = String(n.view.sealed);
  }
  const head = attrs({
    name,
    tests: nodes.length,
    failures: count("failure"),
    errors: count("error"),
    skipped: count("skipped"),
    time: secs(wallMs),
    timestamp: model.summary.run.started_at.replace(/Z$/, ""),
    id: model.summary.run.id,
  });
  const properties = Object.entries(props).map(([k, v]) => `      <property${attrs({ name: k, value: v })}/>`);
  const cases = nodes.map((n) => testcase(n, classname, overrunsOf.get(n.path) ?? []));
  return [`  <testsuite${head}>`, "    <properties>", ...properties, "    </properties>", ...cases, "  </testsuite>"].join("\n");
}

export function renderJunit(model: ReportModel): string {
  const r = model.summary.run;
  const runProps: Record<string, string> = {
    run: r.id,
    status: r.status,
    exit_code: String(r.exit_code ?? ""),
    cost_usd: String(r.cost_usd),
    cost_unknown: String(r.cost_unknown),
  };
  for (const o of model.summary.overruns) runProps[`overrun.${o.cap}`] = `${o.actual} > ${o.limit}`;
  const top = model.nodes.filter((n) => !n.branch);
  const suites = [suite(r.graph, r.graph, top, model, r.wall_ms, runProps)];
  for (const map of [...new Set(model.nodes.filter((n) => n.branch).map((n) => n.branch!.map))]) {
    const wall = top.find((n) => n.path === map)?.view.wall_ms ?? null;
    suites.push(
      suite(
        `${r.graph}.${map}`,
        r.graph,
        model.nodes.filter((n) => n.branch?.map === map),
        model,
        wall,
        {},
      ),
    );
  }
  const all = model.nodes;
  const count = (o: Outcome) => all.filter((n) => nodeOutcome(n) === o).length;
  const head = attrs({
    name: `vouch ${r.graph} ${r.id}`,
    tests: all.length,
    failures: count("failure"),
    errors: count("error"),
    time: secs(r.wall_ms),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${head}>\n${suites.join("\n")}\n</testsuites>\n`;
}
