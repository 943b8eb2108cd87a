// Usage errors of `vouch run` through the real binary (docs/architecture.md §5, §10): exit 2,
// nothing on stdout even with --json, one `vouch: ...` line on stderr naming
// what is wrong (plus a `hint:` line where there is something to do, and the
// graph's own problems as file:line:col lines), never a stack trace — and no
// run is started or recorded.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgsMessage } from "../../src/cli/args.ts";
import { E2E_GRAPHS, FINDING_VERIFIER, STACK_LINE, ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("usage");
});
afterAll(() => dir.cleanup());

const FV = FINDING_VERIFIER;
const AGENT = join(E2E_GRAPHS, "agent-budget.yaml");
const OK = ["-i", "findings=x"];

interface Case {
  name: string;
  args: string[];
  /** The `vouch:` line. */
  error: RegExp;
  hint?: RegExp;
  /** Lines before the `vouch:` line (a graph's problems). */
  before?: RegExp[];
}

const CASES: Case[] = [
  { name: "no graph", args: [], error: /^vouch: run needs a graph file$/, hint: /^hint: usage: vouch run GRAPH/ },
  {
    name: "two graphs",
    args: [FV, AGENT],
    error: /^vouch: run takes one graph file \(got 2: .+finding-verifier\.yaml, .+agent-budget\.yaml\)$/,
  },
  { name: "unknown flag", args: [FV, "--frob"], error: /^vouch: run: Unknown option '--frob'$/, hint: /^hint: see: vouch run --help$/ },
  { name: "unknown short flag", args: ["-X", FV], error: /^vouch: run: Unknown option '-X'$/, hint: /^hint: see: vouch run --help$/ },
  {
    name: "a flag without its value",
    args: [FV, "--wall"],
    error: /^vouch: run: --wall needs a value$/,
    hint: /^hint: see: vouch run --help$/,
  },
  {
    name: "a value that looks like a flag",
    args: [FV, ...OK, "--budget", "-1"],
    error: /^vouch: run: --budget -1: a value that starts with "-" is written --budget=-1$/,
    hint: /^hint: see: vouch run --help$/,
  },
  {
    name: "--input without =",
    args: [FV, "-i", "nonsense"],
    error: /^vouch: --input "nonsense" is not NAME=VALUE$/,
    hint: /^hint: write --input name=value/,
  },
  {
    name: "--input of a missing file",
    args: [FV, "-i", "findings=@no-such-review.md"],
    error: /^vouch: cannot read --input findings=@no-such-review\.md: no such file$/,
    hint: /@@/,
  },
  { name: "--input given twice", args: [FV, "-i", "findings=a", "-i", "findings=b"], error: /^vouch: --input findings is given twice$/ },
  {
    name: "unknown input name",
    args: [FV, ...OK, "-i", "nope=1"],
    error: /^vouch: unknown input "nope": graph finding-verifier declares findings, project_dir$/,
    hint: /^hint: pass one of: --input findings=VALUE/,
  },
  {
    name: "missing required input",
    args: [FV],
    error: /^vouch: missing required input: findings \(the review text with its findings\)$/,
    hint: /^hint: pass --input findings=VALUE$/,
  },
  {
    name: "--wall without a unit",
    args: [FV, ...OK, "--wall", "10"],
    error: /^vouch: --wall takes a duration with a unit, like 90s, 30m or 1h \(not "10"\)$/,
  },
  {
    name: "--wall of zero",
    args: [FV, ...OK, "--wall", "0s"],
    error: /^vouch: --wall takes a duration greater than zero, like 90s, 30m or 1h \(not "0s"\)$/,
  },
  {
    name: "--budget not a number",
    args: [FV, ...OK, "--budget", "abc"],
    error: /^vouch: --budget takes a number greater than zero, not "abc"$/,
  },
  { name: "--budget of zero", args: [FV, ...OK, "--budget=0"], error: /^vouch: --budget takes a number greater than zero, not "0"$/ },
  {
    name: "--concurrency not whole",
    args: [FV, ...OK, "--concurrency", "1.5"],
    error: /^vouch: --concurrency takes a whole number greater than zero, not "1\.5"$/,
  },
  {
    name: "--concurrency of zero",
    args: [FV, ...OK, "--concurrency", "0"],
    error: /^vouch: --concurrency takes a whole number greater than zero, not "0"$/,
  },
  {
    name: "unknown --harness",
    args: [FV, ...OK, "--harness", "gpt"],
    error: /^vouch: --harness "gpt" is not a harness \(harnesses: claude, codex, gemini, acp, replay, command\)$/,
    hint: /^hint: see: vouch harnesses$/,
  },
  { name: "--json with --plain", args: [FV, ...OK, "--plain"], error: /^vouch: --json and --plain exclude each other$/ },
  {
    name: "--replay-dir that is not there",
    args: [FV, ...OK, "--replay-dir", "nope"],
    error: /^vouch: --replay-dir nope: no such folder$/,
  },
  {
    name: "--pass-env not a name",
    args: [FV, ...OK, "--pass-env", "A B"],
    error: /^vouch: --pass-env "A B" is not an environment variable name$/,
  },
  { name: "graph file missing", args: ["no-such-graph.yaml"], error: /^vouch: cannot read graph file no-such-graph\.yaml: no such file$/ },
  {
    name: "a graph that does not validate",
    args: [join(E2E_GRAPHS, "invalid.yaml")],
    before: [
      /invalid\.yaml:5:22: unknown field "rnu" in node "a" \(did you mean run\?\)$/,
      /invalid\.yaml:6:27: unknown node "zz" in needs$/,
    ],
    error: /^vouch: 2 problems in graph$/,
  },
  {
    name: "a cap the harness refuses (codex + budget_usd)",
    args: [AGENT, "--harness", "codex"],
    error:
      /^vouch: node ask: harness "codex": cannot keep caps\.budget_usd: .*remove the cap or choose another harness \(harnesses that keep it: claude\)$/,
    hint: /^hint: see: vouch harnesses \(what each harness keeps\); vouch run GRAPH --dry-run \(every refusal\)$/,
  },
];

describe("vouch run: usage errors exit 2 with one clear line", () => {
  // Each case is its own process: run them side by side (a usage error exits early).
  test.concurrent.for(CASES)("$name", async (c, { expect }) => {
    const home = join(dir.path, "home");
    const r = await vouch(["run", "--json", ...c.args], { home, cwd: dir.path });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stderr).not.toMatch(/internal error|Error:|\n\n/);
    const lines = r.stderr.replace(/\n$/, "").split("\n");
    const before = c.before ?? [];
    expect(lines.length).toBe(before.length + 1 + (c.hint ? 1 : 0));
    before.forEach((re, i) => expect(lines[i]).toMatch(re));
    expect(lines[before.length]).toMatch(c.error);
    if (c.hint) expect(lines[before.length + 1]).toMatch(c.hint);
    // No run was started: nothing was recorded, not even an empty ledger.
    expect(existsSync(home)).toBe(false);
  });
});

describe("parseArgsMessage (node:util's errors in one line)", () => {
  test("ambiguous values name the flag, the value and how to write it; short flags get the long form", () => {
    const raw = (flag: string, long: string) =>
      `Option '${flag}' argument is ambiguous.\nDid you forget to specify the option argument for '${flag}'?\nTo specify an option argument starting with a dash use '${long}=-XYZ'${flag.startsWith("--") ? "" : ` or '${flag}-XYZ'`}.`;
    expect(parseArgsMessage(raw("-i", "--input"), ["g.yaml", "-i", "-x=1"])).toBe(
      '-i -x=1: a value that starts with "-" is written --input=-x=1',
    );
    expect(parseArgsMessage(raw("--wall", "--wall"), ["--wall", "-1s"])).toBe(
      '--wall -1s: a value that starts with "-" is written --wall=-1s',
    );
  });

  test("a missing value, and any other message, stay on one line", () => {
    expect(parseArgsMessage("Option '-i, --input <value>' argument missing", ["-i"])).toBe("--input needs a value");
    expect(parseArgsMessage("first\n  second", [])).toBe("first second");
  });
});
