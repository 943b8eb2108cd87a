// The demo run's three reports say what `vouch show --json` says for the same
// run: the same status of every node (top-level and in every branch), the same
// costs, the same run status, exit code and total cost.
import { money } from "../../src/text/money.ts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, type TestSuite } from "junit2json";
import { BINARY, ensureBinary, ROOT, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import type { RunSummary } from "../../src/ledger/types.ts";
import { demoRun, reportOf } from "./helpers.ts";

let home: TempDir;
let show: RunSummary;
const reports: Record<"html" | "junit" | "markdown", string> = { html: "", junit: "", markdown: "" };

beforeAll(async () => {
  ensureBinary();
  home = tempDir("demo-reports");
  expect((await demoRun(home.path)).code).toBe(0);
  show = JSON.parse((await vouch(["show", "last", "--json"], { home: home.path })).stdout) as RunSummary;
  for (const f of ["html", "junit", "markdown"] as const) reports[f] = await reportOf(home.path, f);
}, 60_000);
afterAll(() => home.cleanup());

/** Every node of the run as show --json has it: path, status, cost, and whether `exhausted:` recovered it. */
function fromShow() {
  const fact = (n: RunSummary["nodes"][number], path: string) => ({
    path,
    status: n.status,
    cost: n.cost_usd,
    qualifier: n.qualifier,
    recovered: n.status !== "passed" && n.attempts.at(-1)?.recovered === true,
  });
  const top = show.nodes.map((n) => fact(n, n.node));
  const branch = show.branches.flatMap((b) => b.nodes.map((n) => fact(n, `${b.map}[${b.index}].${n.node}`)));
  return [...top, ...branch];
}
// Costs read as `vouch show` and the TUI print them: one formatter, src/text/money.ts (it was
// `$0.2949` here, `$0.29` in show and `$0.295` on the TUI for one cost).
const usd = (n: number | null) => money(n);
const JUNIT: Record<string, string> = { failed: "failure", error: "error", skipped: "skipped", cancelled: "skipped" };

describe("the demo run's reports agree with vouch show --json", () => {
  test("the run has what the demo shows: a failed and an error branch, costs known", () => {
    expect(show.run).toMatchObject({ status: "passed", exit_code: 0 });
    expect(fromShow().map((n) => n.status)).toContain("failed");
    expect(fromShow().map((n) => n.status)).toContain("error");
    expect(show.run.cost_usd).toBeGreaterThan(0);
  });

  test("JUnit: one testcase per node path with the same outcome, cost and qualifier", async () => {
    const parsed = (await parse(reports.junit)) as { testsuite: TestSuite[] };
    const cases = parsed.testsuite.flatMap((s) => s.testcase ?? []);
    const props = new Map(parsed.testsuite.flatMap((s) => s.properties ?? []).map((p) => [p.name, String(p.value)]));
    expect(cases.map((c) => c.name)).toEqual(fromShow().map((n) => n.path));
    for (const n of fromShow()) {
      const c = cases.find((x) => x.name === n.path)!;
      const outcome = c.failure ? "failure" : c.error ? "error" : c.skipped ? "skipped" : "passed";
      // A recovered node counts for its graph: no failure in JUnit (issue 27 item 18).
      expect(outcome, n.path).toBe(n.recovered ? "skipped" : (JUNIT[n.status] ?? "passed"));
      expect(props.get(`${n.path}.cost_usd`), n.path).toBe(n.cost === null ? "unknown" : String(n.cost));
      expect(props.get(`${n.path}.qualifier`), n.path).toBe(n.qualifier ?? "none");
    }
    expect(props.get("cost_usd")).toBe(String(show.run.cost_usd));
    expect(props.get("status")).toBe(show.run.status);
    // Suite times are the run's and the map's own wall, not sums of side-by-side testcases.
    expect(parsed.testsuite[0]!.time).toBeCloseTo(show.run.wall_ms / 1000, 2);
    expect(parsed.testsuite[1]!.time).toBeCloseTo(show.nodes.find((n) => n.node === "verify_each")!.wall_ms! / 1000, 2);
  });

  test("Markdown: the status line's cost, and a row for every top-level and every non-passed node", () => {
    expect(reports.markdown).toContain(`\`finding-verifier\` ${show.run.status} (exit ${show.run.exit_code})`);
    expect(reports.markdown).toContain(`cost ${usd(show.run.cost_usd)}`);
    for (const n of fromShow().filter((x) => !x.path.includes("[") || x.status !== "passed")) {
      const cell = n.path.replace(/[_[\]]/g, (c) => `\\${c}`);
      expect(reports.markdown, n.path).toMatch(
        new RegExp(
          `^\\| ${cell.replace(/[\\[\].$]/g, "\\$&")} \\| \\S+ ${n.status} \\| [^|]+ \\| ${usd(n.cost).replace("$", "\\$")} \\|`,
          "m",
        ),
      );
    }
  });

  test("HTML: every node's section or branch row with its status and cost; the run's total", () => {
    const page = reports.html;
    expect(page).toContain(`<span class="badge s-${show.run.status}">${show.run.status}</span>`);
    expect(page).toContain(`<th>cost</th><td>${usd(show.run.cost_usd)}`);
    const section = (id: string) => page.slice(page.indexOf(`<details class="node" id="node-${id}"`)).split("</details>")[0]!;
    for (const n of show.nodes) {
      expect(section(n.node), n.node).toContain(`<summary><span class="badge s-${n.status}">${n.status}</span> <b>${n.node}</b>`);
      expect(section(n.node), n.node).toContain(`cost <b>${usd(n.cost_usd)}</b>`);
    }
    const rows = page.split('<tr class="branch"').slice(1);
    expect(rows).toHaveLength(show.branches.length);
    show.branches.forEach((b, i) => {
      expect(rows[i]!.startsWith(` data-status="${b.status}"`), `branch ${b.index}`).toBe(true);
      expect(rows[i]).toContain(`<td>${b.index}</td><td>${b.label}</td>`);
      for (const n of b.nodes) {
        expect(rows[i]).toContain(`<span class="badge s-${n.status}">${n.status}</span> ${n.node}`);
        expect(rows[i]).toContain(`cost <b>${usd(n.cost_usd)}</b>`);
      }
    });
  });
});

describe("npm run demo", () => {
  test("ends by writing demo-report.html and says where it is", async () => {
    const script = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { demo: string } }).scripts.demo;
    const [build, run] = script.split(" && ");
    expect(build).toBe("bun run build.ts");
    const argv = run!.split(" ");
    expect(argv[0]).toBe("./dist/vouch");
    expect(argv.slice(-2)).toEqual(["--report", "html:demo-report.html"]);
    // The run as the script gives it (the binary already built), in the repository, in a pipe.
    const r = await vouch(["run", ...argv.slice(2).filter((a, i, all) => a !== "--replay-delay" && all[i - 1] !== "--replay-delay")], {
      home: home.path,
      cwd: ROOT,
    });
    expect(r.code).toBe(0);
    const file = join(ROOT, "demo-report.html");
    expect(r.stderr).toContain(`vouch: wrote the html report to ${file}\n`);
    expect(readFileSync(file, "utf8")).toContain("<title>vouch: finding-verifier passed");
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain("demo-report.html");
  }, 60_000);
});
