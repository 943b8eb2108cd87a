// Deep JSON through the binary (issue 12 item 6). Before the fix an agent that
// answered JSON nested 50,000 levels (100 KB) ended `internal error: Maximum
// call stack size exceeded`, exit 3, its run left abandoned and every resume
// crashing again. Now every such output ends in a verdict and the ledger reads.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EventOf } from "../../src/engine/events.ts";
import { ensureBinary, parseNdjson, STACK_LINE, tempDir, vouch, type Ran, type TempDir } from "./helpers.ts";

const DEEP = 50_000;
const deepArray = (n: number) => "[".repeat(n) + "]".repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
const TOO_DEEP = "nested deeper than 256 levels";

let dir: TempDir;
let home: string;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("deep");
  home = join(dir.path, "home");
  writeFileSync(join(dir.path, "deep-array.json"), deepArray(DEEP));
  writeFileSync(join(dir.path, "deep-object.json"), deepObject(DEEP));
});
afterAll(() => dir.cleanup());

function graph(name: string, body: string): string {
  const file = join(dir.path, `${name}.yaml`);
  writeFileSync(file, `version: 1\nname: ${name}\nnodes:\n${body}`);
  return file;
}

function clean(r: Ran): void {
  expect(r.stderr + r.stdout).not.toMatch(/internal error/);
  expect(r.stderr).not.toMatch(STACK_LINE);
}

function finished(r: Ran, node: string): EventOf<"node.finished"> {
  const e = parseNdjson(r.stdout).find((x): x is EventOf<"node.finished"> => x.type === "node.finished" && x.node === node);
  if (!e) throw new Error(`no node.finished for ${node}: ${r.stderr}`);
  return e;
}

async function ledgerReads(): Promise<void> {
  const shown = await vouch(["show", "last", "--json"], { home });
  expect(shown.code).toBe(0);
  expect(() => JSON.parse(shown.stdout)).not.toThrow();
  const text = await vouch(["show", "last"], { home });
  expect(text.code).toBe(0);
  clean(text);
}

describe("JSON nested 50,000 levels deep", () => {
  test("an agent's answer fails output_invalid naming the bound; the ledger reads; resume ends in a verdict again", async () => {
    const g = graph("agent-deep", "  a:\n    kind: agent\n    harness: command\n    prompt: answer\n    output: { format: json }\n");
    const env = { VOUCH_COMMAND: JSON.stringify(["cat", join(dir.path, "deep-array.json")]) };
    const r = await vouch(["run", g, "--json"], { home, env });
    clean(r);
    expect(r.code).toBe(1);
    expect(finished(r, "a")).toMatchObject({ status: "failed", cause: "output_invalid" });
    expect(finished(r, "a").error).toContain(TOO_DEEP);
    await ledgerReads();
    const again = await vouch(["resume", "last", "--json"], { home, env });
    clean(again);
    expect(again.code).toBe(1);
    expect(finished(again, "a").cause).toBe("output_invalid");
  });

  test("a script with output format json fails output_invalid; without a format its output is text", async () => {
    const file = join(dir.path, "deep-object.json");
    const g = graph(
      "script-deep",
      `  j:\n    kind: script\n    argv: [cat, ${file}]\n    output: { format: json }\n  t:\n    kind: script\n    argv: [cat, ${file}]\n`,
    );
    const r = await vouch(["run", g, "--json"], { home });
    clean(r);
    expect(r.code).toBe(1);
    expect(finished(r, "j")).toMatchObject({ status: "failed", cause: "output_invalid" });
    expect(finished(r, "j").error).toContain(TOO_DEEP);
    expect(finished(r, "t")).toMatchObject({ status: "passed" });
    expect(typeof finished(r, "t").output).toBe("string");
    await ledgerReads();
  });

  test("a harness's structured output over the bound fails output_invalid (replay)", async () => {
    const g = graph("replay-deep", "  r:\n    kind: agent\n    prompt: answer\n    output: { format: json }\n");
    mkdirSync(join(dir.path, "replay-deep.replay"));
    const result = `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"see structured","structured_output":${deepArray(260)}}`;
    writeFileSync(join(dir.path, "replay-deep.replay", "r.jsonl"), `${result}\n`);
    const r = await vouch(["run", g, "--harness", "replay", "--json"], { home });
    clean(r);
    expect(r.code).toBe(1);
    expect(finished(r, "r")).toMatchObject({ status: "failed", cause: "output_invalid" });
    expect(finished(r, "r").error).toContain(TOO_DEEP);
  });

  test("a graph value over the bound is refused at load, at the bracket that crosses it", async () => {
    const g = graph("graph-deep", `  e:\n    kind: end\n    output: ${deepArray(300)}\n`);
    for (const cmd of ["validate", "run"]) {
      const r = await vouch([cmd, g], { home });
      clean(r);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toContain(`graph-deep.yaml:6:269: output is ${TOO_DEEP}`);
    }
  });

  // Found in review: 50,000 levels overflowed the YAML parser itself, and the
  // message said so ("YAML: maximum call stack size exceeded") at a column
  // that was not the bound: the user saw an internal limit, not theirs.
  test("a graph value 50,000 levels deep is refused naming the bound, never the parser's stack", async () => {
    const g = graph("graph-very-deep", `  e:\n    kind: end\n    output: ${deepArray(DEEP)}\n`);
    const r = await vouch(["validate", g], { home });
    clean(r);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toMatch(/call stack/i);
    expect(r.stdout + r.stderr).toContain(TOO_DEEP);
  });
});
