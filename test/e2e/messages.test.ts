// Messages a person reads, through dist/vouch: each says what is wrong and
// where, with the documented exit code (issue 12, item 14).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureBinary, runVouch } from "../graph/binary.ts";
import { tempDir, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("messages");
}, 120_000);
afterAll(() => dir?.cleanup());

const GOOD = 'version: 1\nname: good\nnodes:\n  a: { kind: script, argv: ["true"] }\n';

describe("validate with nothing to validate", () => {
  test("an empty folder: exit 2, naming the folder it looked in", () => {
    mkdirSync(join(dir.path, "empty"), { recursive: true });
    writeFileSync(join(dir.path, "empty", "notes.txt"), "not a graph");
    const r = runVouch(["validate", "empty"], dir.path);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `vouch: nothing to validate: the folder empty (${join(dir.path, "empty")}) holds no graph file (*.yaml or *.yml; folders inside it are not read)\nhint: name graph files, or a folder that holds some\n`,
    );
  });

  test("an empty folder among good files still exits 2", () => {
    writeFileSync(join(dir.path, "good.yaml"), GOOD);
    expect(runVouch(["validate", "good.yaml"], dir.path).exitCode).toBe(0);
    const r = runVouch(["validate", "good.yaml", join(dir.path, "empty")], dir.path);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`nothing to validate: the folder ${join(dir.path, "empty")} holds no graph file`);
  });
});

describe("type messages say what the value is", () => {
  test.each([
    [
      "caps: { budget_usd: .inf }",
      "nodes:\n  a: { kind: agent, prompt: hi, caps: { budget_usd: .inf } }\n",
      "g.yaml:4:53: caps.budget_usd must be a finite number, not .inf (infinite, or a number too large to hold)\n",
    ],
    ["nodes: !!set", "nodes: !!set { a }\n", "g.yaml:3:14: nodes must be a mapping, not a set (!!set)\n"],
    ["nodes: !!omap", "nodes: !!omap [a: 1]\n", "g.yaml:3:15: nodes must be a mapping, not an ordered map (!!omap)\n"],
  ])("%s", (_name, body, said) => {
    writeFileSync(join(dir.path, "g.yaml"), `version: 1\nname: t\n${body}`);
    const r = runVouch(["validate", "g.yaml"], dir.path);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe(said);
  });
});

describe("an unclosed quote is reported where it opens", () => {
  test.each([
    [
      'a " in a flow list, more nodes after',
      'version: 1\nname: t\nnodes:\n  a: { kind: script, argv: ["true] }\n  b: { kind: script, argv: ["true"] }\n  c: { kind: end, needs: [a] }\n',
      'g.yaml:4:29: YAML: this " quote is never closed',
    ],
    [
      "a ' in a flow list",
      'version: 1\nname: t\nnodes:\n  a: { kind: script, argv: [\'true] }\n  b: { kind: script, argv: ["true"] }\n',
      "g.yaml:4:29: YAML: this ' quote is never closed",
    ],
    [
      'a " in a block value',
      'version: 1\nname: t\nnodes:\n  a:\n    kind: script\n    run: "echo hi\n  b: { kind: script, argv: ["true"] }\n',
      'g.yaml:6:10: YAML: this " quote is never closed',
    ],
  ])("%s", (_name, text, first) => {
    writeFileSync(join(dir.path, "g.yaml"), text);
    const r = runVouch(["validate", "g.yaml"], dir.path);
    expect(r.exitCode).toBe(2);
    expect(r.stdout.split("\n")[0]).toMatch(new RegExp(`^${first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    expect(r.stdout).toContain("    hint: close it on its line (a value that holds this quote can be written in the other kind: ");
    // The syntax errors the open quote caused further down are not reported as causes of their own.
    expect(r.stderr).toBe("1 file, 1 invalid file, 1 problem\n");
  });
});
