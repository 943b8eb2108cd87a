// A graph name (or any text from a graph file) with a NUL, a bell, escape
// sequences, C1 controls or bidi overrides reaches no terminal raw: through
// dist/vouch, every human output of validate, graph, run --plain, --dry-run,
// runs and show is free of them, and the printable rest of the name survives.
// (--json keeps the name exact: JSON escapes control characters.)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ensureBinary, vouch as runBinary, tempDir, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("control-chars");
}, 120_000);
afterAll(() => dir?.cleanup());

// NUL, BEL, an SGR, a screen clear, an OSC title, C1 CSI, RLO (bidi override), LS.
const HOSTILE = "n\\0u\\al\\e[31mred\\e[2J\\e]0;title\\a\\x9b1m\\u202eevil\\u2028end";
const SEEN = "nulredevilend";
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const GRAPH = `version: 1\nname: "${HOSTILE}"\nnodes:\n  a: { kind: script, argv: ["true"] }\n`;

function clean(what: string, text: string): void {
  const bad = FORBIDDEN.exec(text);
  expect(bad && `${what}: U+${bad[0].codePointAt(0)!.toString(16).padStart(4, "0")} at ${bad.index} in ${JSON.stringify(text)}`).toBeNull();
}

test("every human output of a hostile graph name is free of control characters", async () => {
  writeFileSync(join(dir.path, "g.yaml"), GRAPH);
  const o = { cwd: dir.path, home: join(dir.path, ".vouch") };
  const outputs: [string, string[]][] = [
    ["graph", ["graph", "g.yaml"]],
    ["graph mermaid", ["graph", "g.yaml", "--format", "mermaid"]],
    ["graph dot", ["graph", "g.yaml", "--format", "dot"]],
    ["dry-run", ["run", "g.yaml", "--dry-run"]],
    ["run --plain", ["run", "g.yaml", "--plain"]],
    ["runs", ["runs"]],
    ["show", ["show", "last"]],
  ];
  for (const [what, args] of outputs) {
    const r = await runBinary(args, o);
    expect(r.code, `${what}: ${r.stderr}`).toBe(0);
    clean(`${what} stdout`, r.stdout);
    clean(`${what} stderr`, r.stderr);
    if (what !== "graph mermaid" && what !== "graph dot") expect(r.stdout, what).toContain(SEEN);
  }
  // --json keeps the exact name, escaped by JSON.
  const json = await runBinary(["runs", "--json"], o);
  expect(JSON.parse(json.stdout)[0].graph).toBe(
    JSON.parse(
      `"${HOSTILE.replace(/\\e/g, "\\u001b").replace(/\\a/g, "\\u0007").replace(/\\x9b/g, "\\u009b").replace(/\\0/g, "\\u0000")}"`,
    ),
  );
});

test("validate: a problem quoting a hostile key or value prints it without its control characters", async () => {
  writeFileSync(
    join(dir.path, "bad.yaml"),
    `version: 1\nname: t\nnodes:\n  a: { kind: script, argv: ["true"], "x\\e[2J\\0y": 1 }\n  b: { kind: "sc\\e]0;t\\aript" }\n`,
  );
  const r = await runBinary(["validate", "bad.yaml"], { cwd: dir.path, home: join(dir.path, ".vouch") });
  expect(r.code).toBe(2);
  clean("validate stdout", r.stdout);
  clean("validate stderr", r.stderr);
  expect(r.stdout).toContain('unknown field "xy"');
  const bad = await runBinary(["run", "bad.yaml", "--plain"], { cwd: dir.path, home: join(dir.path, ".vouch") });
  expect(bad.code).toBe(2);
  clean("run (invalid) stderr", bad.stderr);
});
