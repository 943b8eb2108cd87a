// Completion reads the command line's shape from the help texts (help.ts), so
// the help must say what the parsers accept. Checked against the real binary:
// every option completion offers is one the command's own parser knows, and it
// takes a value exactly when completion thinks it does. And the other way, for
// the commands whose option tables are exported: no option is missing from help.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { commandFacts } from "../../src/cli/completion/help-facts.ts";
import { COMMAND_HELP } from "../../src/cli/help.ts";
import { INIT_OPTIONS } from "../../src/cli/init-command.ts";
import { PLAN_OPTIONS } from "../../src/cli/plan-command.ts";
import { RUN_OPTIONS } from "../../src/cli/run-command.ts";
import { ensureBinary, vouch } from "../e2e/helpers.ts";

let dir: string;
beforeAll(() => {
  ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "vouch-help-facts-"));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const facts = commandFacts();
const longs = (name: string) =>
  facts
    .find((c) => c.name === name)!
    .options.map((o) => o.long)
    .filter((o) => o !== "--help")
    .sort();

describe("the commands", () => {
  test("every command with a help text, each with the one-line description of vouch --help", () => {
    expect(facts.map((c) => c.name).sort()).toEqual(Object.keys(COMMAND_HELP).sort());
    for (const c of facts) expect([c.name, c.description.length > 10]).toEqual([c.name, true]);
  });

  test("positionals from the usage lines", () => {
    const pos = (name: string) => facts.find((c) => c.name === name)!.positionals.map((p) => `${p.placeholder}${p.repeats ? "..." : ""}`);
    expect(pos("run")).toEqual(["GRAPH"]);
    expect(pos("validate")).toEqual(["GRAPH..."]);
    expect(pos("show")).toEqual(["RUN"]);
    expect(pos("report")).toEqual(["RUN"]);
    expect(pos("clean")).toEqual(["RUN"]);
    expect(pos("completion")).toEqual(["bash|zsh|fish"]);
    expect(pos("export")).toEqual(["k8s|otlp", "RUN"]);
    expect(pos("init")).toEqual([]);
  });

  test("the options of run, plan and init are exactly their parsers' tables", () => {
    expect(longs("run")).toEqual(
      Object.keys(RUN_OPTIONS)
        .map((k) => `--${k}`)
        .sort(),
    );
    expect(longs("plan")).toEqual(
      Object.keys(PLAN_OPTIONS)
        .map((k) => `--${k}`)
        .sort(),
    );
    expect(longs("init")).toEqual(
      Object.keys(INIT_OPTIONS)
        .map((k) => `--${k}`)
        .sort(),
    );
  });
});

describe("every option completion offers, asked of the command's own parser", () => {
  const cases = facts.flatMap((c) => c.options.filter((o) => o.long !== "--help").map((o) => [c.name, o.long, o.value ?? null] as const));

  test("there are options for every command that has any", () => {
    expect(cases.length).toBeGreaterThan(50);
  });

  // The option last and without a value: the parser says "needs a value" exactly when it takes one;
  // the positionals before it make every command stop with a usage error before it does anything.
  test.each(cases)("vouch %s %s (value: %s)", async (command, option, value) => {
    const r = await vouch([command, "zz1", "zz2", "zz3", option], { home: join(dir, "home"), cwd: dir });
    expect(r.stderr).not.toMatch(/Unknown option/);
    expect([option, r.stderr.includes(`${option} needs a value`)]).toEqual([option, value !== null]);
  });
});
