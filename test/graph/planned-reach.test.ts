// A planned graph cannot get a shell by the back door (issue 18): an agent that
// pre-approves a command-running tool, a mode that approves everything (or lets
// commands write), a cwd outside the run's folder — each refused at load with
// file:line:col and why. The same fields in a user's graph are allowed.
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { commandTool, plannedCwdProblem, PLANNED_REFUSED_MODES } from "../../src/engine/graph/validate-planned.ts";
import { UNGUARDED_MODES } from "../../src/engine/graph/validate-commands.ts";
import { CLAUDE_PERMISSION_MODES } from "../../src/spawn/harness/claude/adapter.ts";
import { CODEX_SANDBOX_MODES } from "../../src/spawn/harness/codex/adapter.ts";
import { GEMINI_APPROVAL_MODES } from "../../src/spawn/harness/gemini/adapter.ts";
import { ACP_PERMISSION_MODES } from "../../src/spawn/harness/acp/permissions.ts";
import { lines } from "./helpers.ts";

const planned = (node: string, head = "") =>
  `version: 1\nname: p\norigin: planned\n${head}nodes:\n  a:\n    kind: agent\n    prompt: do it\n${node}`;

describe("refused in a planned graph, at the field", () => {
  test("the issue's back door: tools [Bash], acceptEdits, cwd /", () => {
    expect(lines(planned("    tools: [Read, Bash]\n    permission_mode: acceptEdits\n    cwd: /\n"))).toEqual([
      "8:19 tool Bash is refused in a planned graph (origin: planned): it runs commands",
      '10:10 cwd "/" is refused in a planned graph (origin: planned): not a path relative to the folder the run starts in',
    ]);
  });

  test("sandbox: off, on a node and under defaults (ADR 0040); auto and required are fine", () => {
    expect(lines(planned("    sandbox: off\n"))).toEqual([
      "8:14 sandbox: off is refused in a planned graph (origin: planned): its sittings would run unsealed, able to write outside their tree",
    ]);
    expect(lines(planned("", "defaults:\n  sandbox: off\n"))).toEqual([
      "5:12 sandbox: off is refused in a planned graph (origin: planned): its sittings would run unsealed, able to write outside their tree",
    ]);
    expect(lines(planned("    sandbox: required\n    network: false\n"))).toEqual([]);
    expect(lines(planned("    sandbox: off\n").replace("origin: planned\n", ""))).toEqual([]);
  });

  test("command tools in any spelling, with rules, and MCP tools", () => {
    const got = lines(planned('    tools: ["Bash(git diff:*)", bash, PowerShell, run_shell_command, mcp__shell__exec, Read, Edit]\n'));
    expect(got).toEqual([
      "8:13 tool Bash(git diff:*) is refused in a planned graph (origin: planned): it runs commands",
      "8:33 tool bash is refused in a planned graph (origin: planned): it runs commands",
      "8:39 tool PowerShell is refused in a planned graph (origin: planned): it runs commands",
      "8:51 tool run_shell_command is refused in a planned graph (origin: planned): it runs commands",
      "8:70 tool mcp__shell__exec is refused in a planned graph (origin: planned): it reaches an MCP server, which may run anything",
    ]);
  });

  test("modes that approve everything or let commands write, on a node and under defaults", () => {
    for (const [mode, why] of Object.entries(PLANNED_REFUSED_MODES)) {
      expect(lines(planned(`    permission_mode: ${mode}\n`))).toEqual([
        `8:22 permission_mode ${mode} is refused in a planned graph (origin: planned): ${why}`,
      ]);
    }
    expect(lines(planned("", "defaults:\n  permission_mode: auto\n"))).toEqual([
      `5:20 permission_mode auto is refused in a planned graph (origin: planned): ${PLANNED_REFUSED_MODES.auto}`,
    ]);
  });

  // ADR 0050: every sitting has a wall and an idle cap unless its graph lifts them; a model may not.
  test("caps wall: none or idle: none, on a node and under defaults; a duration is fine", () => {
    expect(lines(planned("    caps: { wall: none, idle: none }\n"))).toEqual([
      "8:19 caps.wall: none is refused in a planned graph (origin: planned): a model may not lift the limit on its own sittings",
      "8:31 caps.idle: none is refused in a planned graph (origin: planned): a model may not lift the limit on its own sittings",
    ]);
    expect(lines(planned("", "defaults:\n  caps: { idle: none }\n"))).toEqual([
      "5:17 caps.idle: none is refused in a planned graph (origin: planned): a model may not lift the limit on its own sittings",
    ]);
    expect(lines(planned("    caps: { wall: 2h, idle: 30m }\n"))).toEqual([]);
    // The user's own graph may.
    expect(lines("version: 1\nname: p\nnodes:\n  a: { kind: agent, prompt: x, caps: { wall: none, idle: none } }\n")).toEqual([]);
  });

  test("folders: absolute, ~, a template, .. out of the run's folder; in a map branch too", () => {
    for (const [cwd, why] of [
      ["/tmp", "not a path relative"],
      ["~/x", "not a path relative"],
      ['"{{ inputs.d }}"', "a template"],
      ["a/../../b", "leads out of the folder"],
      ["..", "leads out of the folder"],
    ]) {
      const got = lines(planned(`    cwd: ${cwd}\n`, "inputs:\n  d: { default: / }\n"));
      expect(got.length, cwd).toBe(1);
      expect(got[0]).toContain(why);
    }
    const branch =
      "version: 1\nname: p\norigin: planned\nnodes:\n  m:\n    kind: map\n    over: inputs.xs\n    branch:\n      b: { kind: agent, prompt: x, cwd: /etc }\ninputs:\n  xs: { default: [1] }\n";
    expect(lines(branch)).toEqual([
      '9:41 cwd "/etc" is refused in a planned graph (origin: planned): not a path relative to the folder the run starts in',
    ]);
  });

  test("allowed: edit tools, acceptEdits, dontAsk, plan, read-only, relative folders inside", () => {
    for (const node of [
      "    tools: [Read, Edit, Write, Glob, Grep]\n    permission_mode: acceptEdits\n",
      "    permission_mode: read-only\n",
      "    permission_mode: plan\n",
      "    cwd: src\n",
      "    cwd: a/../b\n",
      "    cwd: ./x/./y\n",
    ]) {
      expect(lines(planned(node)), node).toEqual([]);
    }
  });

  test("the same fields in a user's graph are the user's business", () => {
    expect(lines(planned("    tools: [Bash]\n    permission_mode: auto\n    cwd: /\n").replace("origin: planned", "origin: user"))).toEqual(
      [],
    );
  });
});

test("every refused mode is a real mode of some harness, and the unguarded ones are among them", () => {
  const all: readonly string[] = [...CLAUDE_PERMISSION_MODES, ...CODEX_SANDBOX_MODES, ...GEMINI_APPROVAL_MODES, ...ACP_PERMISSION_MODES];
  for (const m of Object.keys(PLANNED_REFUSED_MODES)) expect(all).toContain(m);
  for (const m of UNGUARDED_MODES) expect(Object.keys(PLANNED_REFUSED_MODES)).toContain(m);
});

test("property: a cwd the rule accepts resolves inside the run's folder", () => {
  const seg = fc.constantFrom("..", ".", "a", "b", "", "..a", "a..");
  fc.assert(
    fc.property(fc.array(seg, { maxLength: 8 }), fc.boolean(), (segs, lead) => {
      const cwd = `${lead ? "/" : ""}${segs.join("/")}`;
      if (cwd === "" || plannedCwdProblem(cwd) !== null) return;
      const base = "/work/run";
      const at = resolve(base, cwd);
      expect(at === base || at.startsWith(`${base}/`), cwd).toBe(true);
    }),
    { numRuns: 2000 },
  );
});

test("commandTool reads the base name only", () => {
  expect(commandTool("Bash(rm -rf /)")).toBe(true);
  expect(commandTool(" bash ")).toBe(true);
  expect(commandTool("BashOutput")).toBe(false);
  expect(commandTool("Read(Bash)")).toBe(false);
});

// ADR 0051: an ACP agent's command line is a command like a script's argv.
describe("acp.command", () => {
  const acpNode = (cmd: string, extra = "") =>
    `version: 1\nname: a\n${extra}nodes:\n  a:\n    kind: agent\n    harness: acp\n    acp: { command: ${cmd} }\n    prompt: do it\n`;
  test("a template in it is refused, as in argv:", () => {
    expect(lines(acpNode('[gemini, "--model={{ inputs.m }}"]', "inputs: { m: {} }\n"))).toEqual([
      expect.stringMatching(/a template in a acp\.command command is refused/),
    ]);
  });
  test("refused in a planned graph (a command of its own), and allow-all there too", () => {
    const planned = acpNode("[gemini, --acp]").replace("name: a\n", "name: a\norigin: planned\n");
    expect(lines(planned)).toEqual([expect.stringMatching(/acp\.command: commands are refused in a planned graph/)]);
    expect(lines(planned.replace("prompt: do it", "prompt: do it\n    permission_mode: allow-all"))).toEqual(
      expect.arrayContaining([expect.stringMatching(/permission_mode allow-all is refused in a planned graph/)]),
    );
  });
  test("acp: on a node of another harness is refused; under defaults it is fine", () => {
    expect(lines(acpNode("[gemini, --acp]").replace("harness: acp", "harness: claude"))).toEqual([
      expect.stringMatching(/acp: is for harness: acp, but node "a" runs on claude/),
    ]);
    expect(
      lines("version: 1\nname: a\ndefaults: { acp: { command: [gemini, --acp] } }\nnodes:\n  a: { kind: agent, prompt: x }\n"),
    ).toEqual([]);
  });
});
