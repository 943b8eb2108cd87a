// Runs a shipped graph through the real binary on the replay harness, with a
// private ledger, and reads back what a script or a CI job would: the NDJSON
// events and the exit code.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventSchema, type VouchEvent, type EventOf } from "../../src/engine/events.ts";
import { BINARY, ROOT } from "../graph/binary.ts";
import { commitFolder } from "../workspace/git-repo.ts";

export const SAMPLE_REPO = join(ROOT, "examples", "sample-repo");
export const GRAPHS = join(ROOT, "graphs");

export interface ShippedRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  events: VouchEvent[];
  home: string;
}

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), "vouch-shipped-"));
}

/** A private copy of the sample repository, to break on purpose. */
export function sampleCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "vouch-sample-"));
  cpSync(SAMPLE_REPO, dir, { recursive: true });
  return dir;
}

/** A private copy of the sample repository as a git repository (step-runner works in a worktree of it). */
export function sampleRepoCopy(): string {
  return commitFolder(sampleCopy());
}

export function vouch(args: string[], opts: { cwd?: string; home?: string; env?: Record<string, string> } = {}): ShippedRun {
  const home = opts.home ?? tempHome();
  const r = Bun.spawnSync([BINARY, ...args], {
    cwd: opts.cwd ?? ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", VOUCH_HOME: home, ...opts.env },
  });
  const stdout = r.stdout.toString();
  const events =
    args.includes("--json") && (args[0] === "run" || args[0] === "resume")
      ? stdout
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => eventSchema.parse(JSON.parse(l)))
      : [];
  return { exitCode: r.exitCode ?? -1, stdout, stderr: r.stderr.toString(), events, home };
}

export function ofType<T extends VouchEvent["type"]>(events: VouchEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

export function finished(events: VouchEvent[]): EventOf<"run.finished"> {
  const all = ofType(events, "run.finished");
  if (all.length !== 1) throw new Error(`expected one run.finished, got ${all.length}`);
  return all[0]!;
}
