// vouch.graph.yaml as `vouch init` writes it: one agent node in a git worktree
// of its own (the tests and the files that define the checks protected), the
// project's checks as its success, retried with the failures quoted, then a
// merge node that puts the work on a branch of its own and checks it again.
// Every line carries a comment saying what it does.
import type { HarnessName } from "../../engine/ports.ts";
import type { ProtectedPath } from "./detected.ts";
import { harnessSettings } from "./harness-settings.ts";
import { comments, rows, scalar } from "./yaml-rows.ts";

export const GRAPH_FILE = "vouch.graph.yaml";

export interface GraphSpec {
  /** The graph's name (letters, digits, - and _). */
  name: string;
  harness: HarnessName;
  checks: readonly string[];
  /** Globs relative to the repository root, each with why. */
  protect: readonly ProtectedPath[];
  checksFile: string;
}

/** Example command lines, their comments in one column. */
function examples(list: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...list.map(([c]) => c.length));
  return list.map(([c, why]) => (why === "" ? `  ${c}` : `  ${c.padEnd(width)}  # ${why}`));
}

function header(spec: GraphSpec): string[] {
  return comments(0, [
    "A starter graph written by vouch init: one agent makes a change in a git worktree of its",
    "own, this project's checks decide whether it is done, and the work is merged onto a",
    "branch of its own. Your checkout (its files, index and HEAD) is never touched.",
    "",
    ...examples([
      [`vouch run ${GRAPH_FILE} -i task=x --dry-run`, "what would run, under which caps; starts nothing"],
      [`vouch run ${GRAPH_FILE} -i task="Make the parser accept empty lines"`, "the run"],
      ["vouch show last", "then: what happened, node by node"],
      ["vouch report last -o report.html", "the same as one web page"],
    ]),
    "",
    "Run it from this folder: its nodes work in the folder vouch runs in. Commit this file",
    `and ${spec.checksFile} first: a worktree starts from your last commit.`,
    "The language: docs/graph-language.md in vouch's repository; vouch schema for editors.",
  ]);
}

function agentNode(spec: GraphSpec): string[] {
  const s = harnessSettings(spec.harness);
  const list = `[${spec.checks.join(", ")}]`;
  const protect = rows(
    8,
    spec.protect.map((p) => [`- ${scalar(p.glob)}`, p.why]),
  );
  return [
    ...rows(2, [["implement:", "the agent's node: its id names its branch and is how vouch show calls it"]]),
    ...rows(4, [
      ["kind: agent", "one sitting of a coding agent"],
      [`harness: ${spec.harness}`, s.harnessComment],
      ["description: Implements the task in a worktree of its own; the project's checks decide.", "shown in vouch show and reports"],
      ...s.rows,
      s.caps,
    ]),
    ...rows(4, [["workspace:", "where it works (docs/graph-language.md, Workspaces)"]]),
    ...rows(6, [
      ["mode: worktree", "a git worktree of its own, on the branch vouch/<run>/implement"],
      ["base: HEAD", "starting at your last commit (uncommitted changes are not in it)"],
      [
        spec.protect.length > 0 ? "protect:" : "protect: []",
        "paths it may not change: an attempt that changes one fails as tampered, and they are put back before the checks run",
      ],
    ]),
    ...protect,
    ...rows(4, [["prompt: |", "what the agent is asked; {{ inputs.task | quote }} is the task, quoted"]]),
    "      Make this change to the project in the current directory:",
    "      {{ inputs.task | quote }}",
    "",
    `      When you are done, vouch runs this project's checks itself (${spec.checks.join(", ")}); you may`,
    "      run them too. The tests and the files that define the checks are protected: changing",
    "      one fails your attempt. Keep the change as small as the task allows, and end by saying",
    "      in one sentence what you changed.",
    ...rows(4, [
      [`success: { checks: ${list} }`, "done only when every check passes on its worktree (the agent's word is not enough)"],
      ["retry: { max: 2, on: [check_failed, tampered] }", "up to 2 more attempts, each told what failed (the checks' output, the paths)"],
    ]),
  ];
}

function mergeAndEnd(spec: GraphSpec): string[] {
  const list = `[${spec.checks.join(", ")}]`;
  return [
    ...rows(2, [["integrate:", "the merge node"]]),
    ...rows(4, [
      ["kind: merge", "merges the branches of worktree nodes onto a new branch (git merge-tree: no checkout touched)"],
      ["needs: [implement]", "after implement"],
      ["from: [implement]", "whose branches, in order (a map of several agents merges them all; one that conflicts is left out, named)"],
      ['into: "vouch/{{ run.id }}/merged"', "the new branch: git log it, merge it, or delete it"],
      [`success: { checks: ${list} }`, "the checks again, on the merged tree"],
    ]),
    ...rows(2, [["done:", "the end node"]]),
    ...rows(4, [
      ["kind: end", "the run's result"],
      ["needs: [integrate]", "after the merge"],
      ["output:", "the run's output (vouch show last)"],
    ]),
    ...rows(6, [['branch: "{{ nodes.integrate.output.branch }}"', "where the work is"]]),
  ];
}

export function graphText(spec: GraphSpec): string {
  const s = harnessSettings(spec.harness);
  const lines = [
    ...header(spec),
    ...rows(0, [
      ["version: 1", "the graph language's version"],
      [`name: ${scalar(spec.name)}`, "shown by vouch runs and in reports"],
      ["description: One agent implements a task in a worktree; the project's checks decide; the branch is merged.", "free text"],
      ["inputs:", "what a run is given: -i task=..."],
    ]),
    ...rows(2, [['task: { description: "what to change, in a sentence or a paragraph", required: true }', "a run without it is refused"]]),
    ...rows(0, [
      [`checks_from: [${scalar(`./${spec.checksFile}`)}]`, "the checks, in a file of their own beside this one (vouch checks lists them)"],
      s.runCaps,
      ["nodes:", "the work, by id"],
    ]),
    ...agentNode(spec),
    ...mergeAndEnd(spec),
  ];
  return `${lines.join("\n")}\n`;
}
