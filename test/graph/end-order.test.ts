// `vouch validate` warns (exit 0) when an end node can run before other work of
// its scope ends (issue 12 item 1): pure checks of the analysis on small graphs,
// and the warning through dist/vouch on the graph from the issue.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { END_ORDER_BUDGET, endOrderWarnings } from "../../src/engine/graph/end-order.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import { BINARY, ensureBinary } from "./binary.ts";

function warnings(nodes: string, head = ""): string[] {
  const r = loadGraph("g.yaml", `version: 1\nname: g\n${head}nodes:\n${nodes}`);
  if (!r.graph) throw new Error(`invalid: ${JSON.stringify(r.problems)}`);
  return r.warnings.map((w) => `${w.line}:${w.col} ${w.message}`);
}

const ISSUE = `  tests: { kind: script, run: "exit 1" }\n  done: { kind: end }\n`;

describe("end-order warnings", () => {
  // Found by the verdict-integrity property once routers ran over failed needs (issue 27 item 15):
  // the router's need w may fail, its fallback f then runs while the router's end has already run.
  test("a router over a node with a fallback: its end can run before the fallback ends", () => {
    const nodes = [
      `  w: { kind: script, run: w, fallback: f }`,
      `  f: { kind: script, run: f }`,
      `  r: { kind: router, needs: [w], routes: [{ when: { inputs.flag: true }, to: [t] }], default: [done] }`,
      `  t: { kind: script, run: t }`,
      `  done: { kind: end, status: success }`,
    ].join("\n");
    expect(warnings(`${nodes}\n`, "inputs: { flag: { default: false } }\n").join("\n")).toContain(
      `end node "done" can run before "f" ends`,
    );
  });

  // Found by the same property (seed -774280002): w0's fallback is an end; a router that needs w0
  // still runs when w0 fails (it reads statuses), so its target t1 can be running when end f1 runs.
  test("an end that is a fallback, beside a router over the failing owner: the router's targets are unordered", () => {
    const nodes = [
      `  w0: { kind: script, run: w0, fallback: f1 }`,
      `  f1: { kind: end, status: success }`,
      `  r0: { kind: router, needs: [w0], routes: [{ when: { inputs.flag: true }, to: [t0] }], default: [t1] }`,
      `  t0: { kind: script, run: t0 }`,
      `  t1: { kind: script, run: t1 }`,
    ].join("\n");
    expect(warnings(`${nodes}\n`, "inputs: { flag: { default: false } }\n").join("\n")).toContain(
      `end node "f1" can run before "t0", "t1" end`,
    );
  });

  test("the issue's graph: done can run before tests ends; the warning points at done", () => {
    expect(warnings(ISSUE)).toEqual([
      `5:3 warning: end node "done" can run before "tests" ends: it is not upstream of "done" (through needs, routes or fallbacks)`,
    ]);
  });

  test("an end that needs the work, or sits after it through a router or a fallback: no warning", () => {
    expect(warnings(`  tests: { kind: script, run: t }\n  done: { kind: end, needs: [tests] }\n`)).toEqual([]);
    expect(
      warnings(
        `  tests: { kind: script, run: t }\n  r: { kind: router, needs: [tests], routes: [{ when: { nodes.tests.status: passed }, to: [done] }] }\n  done: { kind: end }\n`,
      ),
    ).toEqual([]);
    expect(warnings(`  tests: { kind: script, run: t, fallback: told }\n  told: { kind: end, status: failure }\n`)).toEqual([]);
  });

  test("work a path excludes is not reported: after a fallback its owner's dependents, after a route the routes not taken", () => {
    // told runs only when build did not pass, so ship (which needs build) never runs with it.
    expect(
      warnings(
        `  build: { kind: script, run: b, fallback: told }\n  ship: { kind: script, needs: [build], run: s }\n  told: { kind: end, status: failure }\n  done: { kind: end, needs: [ship] }\n`,
      ),
    ).toEqual([]);
    expect(
      warnings(
        `  review: { kind: script, run: r }\n  pick: { kind: router, needs: [review], routes: [{ when: { nodes.review.output: ok }, to: [ok] }], default: [fix] }\n  ok: { kind: end }\n  fix: { kind: script, run: f }\n  fixed: { kind: end, needs: [fix] }\n`,
      ),
    ).toEqual([]);
  });

  test("parallel work an end does not need is reported, several names at once", () => {
    const w = warnings(
      `  a: { kind: script, run: a }\n  b: { kind: script, run: b }\n  c: { kind: agent, prompt: c }\n  done: { kind: end, needs: [a] }\n`,
    );
    expect(w).toEqual([
      `7:3 warning: end node "done" can run before "b", "c" end: they are not upstream of "done" (through needs, routes or fallbacks)`,
    ]);
  });

  test("inside a map branch: the branch's own end, at its place in the branch", () => {
    const w = warnings(
      `  each:\n    kind: map\n    over: inputs.items\n    branch:\n      check: { kind: script, run: c }\n      ok: { kind: end }\n`,
      "inputs:\n  items: { default: [1] }\n",
    );
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^11:7 warning: end node "ok" can run before "check" ends/);
  });
});

describe("end-order analysis stays bounded", () => {
  const graphWith = (ends: number) => {
    const nodes: Record<string, unknown> = { work: { kind: "script", run: "w" } };
    for (let i = 0; i < ends; i++) nodes[`e${i}`] = { kind: "end" };
    return graphSchema.parse({ version: 1, name: "big", nodes });
  };
  test(`a scope within ${END_ORDER_BUDGET} steps is analysed; one past it is skipped (no warning rather than a slow validate)`, () => {
    expect(endOrderWarnings(graphWith(300))).toHaveLength(300); // 300 ends × 301 nodes
    expect(endOrderWarnings(graphWith(600))).toEqual([]); // 600 × 601 > 250,000
  });
});

describe("through dist/vouch", () => {
  let dir: string;
  beforeAll(() => {
    ensureBinary();
    dir = mkdtempSync(join(tmpdir(), "vouch-end-order-"));
    writeFileSync(join(dir, "issue.yaml"), `version: 1\nname: issue\nnodes:\n${ISSUE}`);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const vouch = async (args: string[]) => {
    const p = Bun.spawn([BINARY, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", VOUCH_HOME: join(dir, "home"), TZ: "UTC" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, stdout, stderr };
  };

  test("validate: the warning with its hint on stdout, exit 0, the summary counts it; --json marks it a warning", async () => {
    const r = await vouch(["validate", "issue.yaml"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `issue.yaml:5:3: warning: end node "done" can run before "tests" ends: it is not upstream of "done" (through needs, routes or fallbacks)\n` +
        `    hint: if "done" means the work is done, add needs: [tests] to it; as written, the run still waits for that work, and a failure there overrules "done"\n`,
    );
    expect(r.stderr).toBe("1 file valid, 1 warning\n");
    const json = JSON.parse((await vouch(["validate", "--json", "issue.yaml"])).stdout);
    expect(json).toMatchObject([{ file: "issue.yaml", line: 5, col: 3, severity: "warning" }]);
  }, 30_000);

  test("run: tests exits 1 and done passes at once → the run failed, exit 1 (it was passed · exit 0)", async () => {
    const r = await vouch(["run", "issue.yaml", "--plain"]);
    expect(r.stdout).toMatch(/■ run failed · exit 1/);
    expect(r.code).toBe(1);
    // The warning validate gives is said by run too, on stderr (stdout stays the run's).
    expect(r.stderr).toContain(`issue.yaml:5:3: warning: end node "done" can run before "tests" ends`);
    expect(r.stdout).not.toContain("warning:");
    const json = await vouch(["run", "issue.yaml", "--json"]);
    const fin = JSON.parse(json.stdout.trim().split("\n").at(-1)!);
    expect(fin).toMatchObject({ type: "run.finished", status: "failed", exit_code: 1, counts: { passed: 1, failed: 1 } });
    expect(json.code).toBe(1);
  }, 30_000);
});
