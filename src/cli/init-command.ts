// `vouch init`: a check library and a starter graph for the project in the
// current folder, from the evidence commands it already has (ADR 0069). Detects,
// builds both texts, loads them with vouch's own loader, then prints them
// (--dry-run) or writes them (asking before it replaces a file), and runs each
// check once so the user learns which already fail before any agent ran.
import { basename } from "node:path";
import { EXIT, UsageError } from "../engine/errors.ts";
import { realGit } from "../workspace/git.ts";
import { ProcessSupervisor } from "../spawn/process-registry.ts";
import { parseCommandArgs } from "./args.ts";
import { detect } from "./init/detect.ts";
import { initHarness } from "./init/harness-settings.ts";
import { projectFiles } from "./init/project-files.ts";
import { foundLines, nextLines, runSummary, startLine, verdictLines } from "./init/report.ts";
import { runEachOnce } from "./init/run-once.ts";
import { existing, mayReplace, writeAll } from "./init/write-files.ts";
import { refuseInvalid, writePlan, type WritePlan } from "./init/write-plan.ts";
import type { CliIO, Command } from "./io.ts";
import { SessionSignals } from "./session-signals.ts";
import { sanitize } from "../text/sanitize.ts";

export const INIT_OPTIONS = {
  yes: { type: "boolean", short: "y" },
  harness: { type: "string" },
  "dry-run": { type: "boolean" },
  "no-run-checks": { type: "boolean" },
} as const;

const say = (io: CliIO, lines: string[], to: "out" | "err" = "out") => io[to](sanitize(`${lines.join("\n")}\n`));

/** The repository holding the folder, with a commit: the starter graph's worktree starts there. */
async function repository(cwd: string): Promise<string> {
  const root = await realGit.repoRoot(cwd);
  if (root === null)
    throw new UsageError(
      `${cwd} is not in a git repository: the starter graph's agent works in a git worktree of its own`,
      'make it one first: git init && git add -A && git commit -m "initial commit"',
    );
  if ((await realGit.resolveCommit(root, "HEAD")) === null)
    throw new UsageError(
      `the git repository ${root} has no commit yet: a worktree starts from one`,
      'commit something first: git add -A && git commit -m "initial commit"',
    );
  const prefix = await realGit.cwdPrefix(cwd);
  if (prefix.startsWith("!") || prefix.includes("\\"))
    throw new UsageError(
      `this folder's path in the repository (${prefix}) cannot be written as a protect glob (it starts with ! or holds \\)`,
      "run vouch init in the repository's top folder",
    );
  return prefix;
}

async function runChecks(io: CliIO, plan: WritePlan, root: string): Promise<number> {
  const supervisor = new ProcessSupervisor();
  const signals = new SessionSignals(io, () => {
    supervisor.killAll("SIGKILL");
    process.exit(EXIT.interrupted);
  });
  try {
    say(io, ["running each check once on the current tree (--no-run-checks skips this):"]);
    const verdicts = await runEachOnce(plan.checks, {
      root,
      env: io.env,
      signal: signals.signal,
      supervisor,
      onStart: (c) => say(io, [startLine(c, plan.checks)]),
      onVerdict: (v) => say(io, verdictLines(v)),
    });
    if (signals.cancelled) {
      io.err("vouch: interrupted; the files are written, the remaining checks did not run\n");
      return EXIT.interrupted;
    }
    say(io, runSummary(verdicts, plan.files[1]!.name, plan.files[0]!.name));
    return EXIT.passed;
  } finally {
    signals.dispose();
  }
}

const initCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("init", args, INIT_OPTIONS);
  if (positionals.length > 0)
    throw new UsageError(`init takes no arguments (got "${positionals[0]}"): it works in the current folder`, "cd to the project first");
  const harness = initHarness(values.harness);
  const repoPrefix = await repository(io.cwd);
  const finding = detect(projectFiles(io.cwd));
  const plan = writePlan(finding, { root: io.cwd, repoPrefix, folderName: basename(io.cwd), harness });
  await refuseInvalid(plan, io.cwd, realGit);
  if (values["dry-run"]) {
    for (const f of plan.files) io.out(`# --- ${f.name} (not written: --dry-run) ---\n${f.text}`);
    say(io, [...foundLines(finding), "nothing written (--dry-run); no check was run"], "err");
    return EXIT.passed;
  }
  if (!(await mayReplace(io, existing(plan.files), values.yes === true))) {
    io.err("vouch: nothing written\n");
    return EXIT.passed;
  }
  writeAll(plan.files);
  const [checks, graph] = plan.files as [WritePlan["files"][0], WritePlan["files"][0]];
  say(io, [
    ...foundLines(finding),
    `wrote ${checks.name} (${plan.checks.length} check${plan.checks.length === 1 ? "" : "s"}: ${plan.checks.map((c) => c.name).join(", ")})`,
    `wrote ${graph.name} (agent implement on ${harness} in a worktree, then merge integrate)`,
  ]);
  const code = values["no-run-checks"] ? EXIT.passed : await runChecks(io, plan, io.cwd);
  if (code === EXIT.passed) say(io, nextLines(graph.name, checks.name));
  return code;
};
export default initCommand;
