// The real binary as a child process for the resume suite: a temp project
// folder (graphs, side-effect files) with its own VOUCH_HOME, vouch started
// asynchronously so a test can signal it mid-run, and the ledger read back.
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { VouchEvent } from "../../src/engine/events.ts";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { BINARY, ensureBinary } from "../graph/binary.ts";

export { ensureBinary };

export interface Project {
  dir: string;
  home: string;
  /** Writes a file under dir (creating folders); returns its path. */
  write(name: string, text: string): string;
  cleanup(): void;
}

export function tempProject(prefix = "vouch-resume-"): Project {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const home = join(dir, ".vouch");
  // vouch's handover folders go here (vouchEnv sets TMPDIR): a session killed -9
  // leaves its live commands' folders behind, and cleanup() must take them too.
  mkdirSync(join(dir, "tmp"));
  return {
    dir,
    home,
    write(name, text) {
      const p = join(dir, name);
      mkdirSync(join(p, ".."), { recursive: true });
      writeFileSync(p, text);
      return p;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Ran {
  code: number;
  /** The signal that ended vouch itself (SIGKILL when the test killed it). */
  signal: string | null;
  stdout: string;
  stderr: string;
}

export interface Started {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** Resolves when stdout (or stderr) has contained `match`; rejects if vouch ends first. */
  waitFor(match: string | RegExp, stream?: "stdout" | "stderr"): Promise<void>;
  /** What vouch printed so far. */
  printed(): { stdout: string; stderr: string };
  done: Promise<Ran>;
}

export function vouchEnv(p: Project, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", VOUCH_HOME: p.home, TZ: "UTC", TMPDIR: join(p.dir, "tmp"), ...extra };
}

interface Waiter {
  match: string | RegExp;
  stream: "stdout" | "stderr";
  resolve: () => void;
  reject: (e: Error) => void;
}

/** Starts dist/vouch in the project folder (stdin closed, stdout/stderr piped). */
export function startVouch(p: Project, args: string[], env: Record<string, string> = {}, cwd = p.dir): Started {
  const proc = Bun.spawn([BINARY, ...args], { cwd, env: vouchEnv(p, env), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const text = { stdout: "", stderr: "" };
  let ended = false;
  const waiters: Waiter[] = [];
  const seen = (w: Pick<Waiter, "match" | "stream">) =>
    typeof w.match === "string" ? text[w.stream].includes(w.match) : w.match.test(text[w.stream]);
  const wake = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i]!;
      if (seen(w)) waiters.splice(i, 1)[0]!.resolve();
      else if (ended)
        waiters.splice(i, 1)[0]!.reject(new Error(`vouch ended before printing ${w.match} on ${w.stream}:\n${text[w.stream]}`));
    }
  };
  const read = async (stream: "stdout" | "stderr") => {
    const decoder = new TextDecoder();
    for await (const chunk of proc[stream]) {
      text[stream] += decoder.decode(chunk, { stream: true });
      wake();
    }
  };
  const done = (async () => {
    await Promise.all([read("stdout"), read("stderr"), proc.exited]);
    ended = true;
    wake();
    return {
      code: proc.exitCode ?? -1,
      signal: proc.signalCode === null ? null : String(proc.signalCode),
      stdout: text.stdout,
      stderr: text.stderr,
    };
  })();
  return {
    proc,
    done,
    printed: () => ({ ...text }),
    waitFor: (match, stream = "stdout") =>
      new Promise((resolve, reject) => {
        waiters.push({ match, stream, resolve, reject });
        wake();
      }),
  };
}

/** Runs dist/vouch to its end. */
export function vouch(p: Project, args: string[], env: Record<string, string> = {}, cwd = p.dir): Promise<Ran> {
  return startVouch(p, args, env, cwd).done;
}

/** Every event of the run, read through the ledger's own API. */
export function ledgerEvents(p: Project, runId: string): VouchEvent[] {
  const ledger = openLedger({ home: p.home });
  try {
    return ledger.runEvents(runId);
  } finally {
    ledger.close();
  }
}

export function integrityCheck(p: Project): string {
  const db = new Database(ledgerFile(p.home), { readonly: true });
  try {
    return (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
  } finally {
    db.close();
  }
}

/** The NDJSON lines of a --json run, parsed. */
export function ndjson(stdout: string): VouchEvent[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as VouchEvent);
}
