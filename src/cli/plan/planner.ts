// The planner run of `vouch plan`: graphs/plan.yaml (built into the binary) with
// retry.max from --attempts and the read-only settings of the chosen harness, and
// the inputs the prompt reads — the graph language generated from the schema
// `vouch schema` prints, the planned-graph rules from the validator's own lists,
// the library's names and descriptions, the inputs the plan will be given.
import { parseDocument } from "yaml";
import plannerText from "../../../graphs/plan.yaml" with { type: "text" };
import { graphJsonSchema } from "../../engine/graph/schema.ts";
import { UNGUARDED_MODES } from "../../engine/graph/validate-commands.ts";
import { COMMAND_TOOLS, PLANNED_REFUSED_MODES } from "../../engine/graph/validate-planned.ts";
import type { HarnessName } from "../../engine/ports.ts";
import type { ListedCheck } from "../checks-command.ts";
import { harnessNamed } from "../../spawn/harness/registry.ts";

export const PLANNER_NODE = "plan";
export const PLANNER_SOURCE = plannerText as unknown as string;

/** What keeps the planner sitting read-only: the harness's own `readOnly` settings (its adapter's;
 *  none for the command harness, whose program is the user's). */
export function readOnlySettings(harness: HarnessName): Record<string, unknown> {
  return { ...harnessNamed(harness).readOnly };
}

/** graphs/plan.yaml with these settings, as YAML text (written where the ledger can find it for resume). */
export function plannerGraphText(harness: HarnessName, attempts: number): string {
  const doc = parseDocument(PLANNER_SOURCE);
  const node = ["nodes", PLANNER_NODE];
  doc.setIn(["defaults", "harness"], harness);
  for (const [k, v] of Object.entries(readOnlySettings(harness))) doc.setIn([...node, k], doc.createNode(v, { flow: true }));
  // A harness that counts no turns (the command harness) would refuse the cap.
  if (harnessNamed(harness).guarantees.caps.turns === "none") doc.deleteIn([...node, "caps", "turns"]);
  if (attempts > 1) doc.setIn([...node, "retry", "max"], attempts - 1);
  else doc.deleteIn([...node, "retry"]);
  return doc.toString({ lineWidth: 0 });
}

export function plannedRules(): string {
  const modes = Object.entries(PLANNED_REFUSED_MODES).map(([m, why]) => `  - permission_mode ${m}: ${why}`);
  return [
    "  - run: and argv: anywhere (no script node that runs a command, no check with its own run:); use the library's checks by name",
    "  - env: lists (no credentials)",
    `  - tools that run commands: ${COMMAND_TOOLS.join(", ")} (any case, with or without a rule in parentheses), and MCP tools (mcp__...)`,
    ...modes,
    `  (${UNGUARDED_MODES.join(", ")} switch every prompt off)`,
    "  - a cwd that is absolute, starts with ~, holds a template, or leads out of the folder with ..",
    "  - an agent node outside a worktree: give every agent workspace: { mode: worktree } (on the node or under defaults);",
    "    the files the library's checks run are protected there, and an attempt that changes one fails as tampered",
    "  - base: (under workspace or on a merge node): the plan starts from the user's HEAD",
    '  - a merge node\'s into: that does not start with "vouch/{{ run.id }}/" (leave it out for vouch/<run>/<node>)',
    "  - vouch sets origin: planned and checks_from itself; whatever you write there is replaced",
  ].join("\n");
}

export function libraryText(list: ListedCheck[]): string {
  if (list.length === 0) return "  (the library is empty)";
  return list.map((c) => `  - ${c.name}: ${c.description ?? "(no description)"}`).join("\n");
}

function short(value: string): string {
  return value.length > 200 || value.includes("\n") ? `(a text of ${value.length} characters)` : JSON.stringify(value);
}

export function givenText(inputs: Record<string, string>): string {
  const names = Object.keys(inputs);
  if (names.length === 0) return "  (none)";
  return names.map((n) => `  - ${n} = ${short(inputs[n]!)}`).join("\n");
}

export function languageText(): string {
  return JSON.stringify(graphJsonSchema());
}
