// docs/graph-language.md (checks_from, Planned graphs) and docs/plan.md held to the
// code: the checks_from example validates with its checks file; the refused tools
// and modes the doc names are the validator's; the planner's caps and read-only
// settings are what docs/plan.md says; every plan option has help.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { COMMAND_TOOLS, PLANNED_REFUSED_MODES } from "../../src/engine/graph/validate-planned.ts";
import { COMMAND_HELP } from "../../src/cli/help.ts";
import { PLAN_OPTIONS } from "../../src/cli/plan-command.ts";
import { readOnlySettings } from "../../src/cli/plan/planner.ts";
import { ROOT } from "../graph/binary.ts";

const LANG = readFileSync(join(ROOT, "docs", "graph-language.md"), "utf8");
const PLAN = readFileSync(join(ROOT, "docs", "plan.md"), "utf8");
const titled = (doc: string) => Object.fromEntries([...doc.matchAll(/```yaml title="([^"]+)"\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));

describe("graph-language.md", () => {
  test("the checks_from example validates with its checks file, and the node's checks come from it", () => {
    const blocks = titled(LANG);
    const r = loadGraph("graph.yaml", blocks["graph.yaml"]!, {
      readChecks: (p) => (p === "vouch.checks.yaml" ? { text: blocks["vouch.checks.yaml"]! } : { error: "no" }),
    });
    expect(r.problems).toEqual([]);
    expect(Object.keys(r.graph!.checks!)).toEqual(["tests", "fmt"]);
  });

  test("Planned graphs names every refused tool and mode", () => {
    const section = LANG.slice(LANG.indexOf("## Planned graphs"));
    for (const t of ["Bash", "PowerShell", "run_shell_command", "shell", "local_shell", "exec_command", "mcp__"])
      expect(section).toContain(`\`${t}`);
    expect(COMMAND_TOOLS.every((t) => section.toLowerCase().includes(`\`${t}`))).toBe(true);
    for (const m of Object.keys(PLANNED_REFUSED_MODES)) expect(section).toContain(`\`${m}\``);
  });
});

describe("plan.md", () => {
  test("the planner's caps and read-only settings are as written", () => {
    const planner = parse(readFileSync(join(ROOT, "graphs", "plan.yaml"), "utf8")) as {
      nodes: { plan: { caps: { turns: number; wall: string } } };
    };
    expect(planner.nodes.plan.caps).toEqual({ turns: 16, wall: "10m" });
    expect(PLAN).toContain("16 turns, 10\n   minutes a sitting");
    expect(readOnlySettings("claude")).toEqual({ tools: ["Read", "Glob", "Grep"], permission_mode: "dontAsk" });
    expect(readOnlySettings("replay")).toEqual(readOnlySettings("claude"));
    expect(readOnlySettings("codex")).toEqual({ permission_mode: "read-only" });
    expect(readOnlySettings("gemini")).toEqual({ permission_mode: "plan" });
    expect(PLAN).toContain("`tools: [Read, Glob, Grep]` and `permission_mode:\n     dontAsk`; codex `read-only`; gemini `plan`");
  });

  test("every option of vouch plan is in its help and in the doc's synopsis", () => {
    for (const o of Object.keys(PLAN_OPTIONS)) {
      expect(COMMAND_HELP.plan, o).toContain(`--${o}`);
      if (o !== "check-answer" && o !== "input" && o !== "output") expect(PLAN, o).toContain(`--${o}`);
    }
  });
});
