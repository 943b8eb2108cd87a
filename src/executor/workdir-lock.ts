// One worker process per --workdir for worktree jobs (ADR 0029). The queue that keeps git's
// locks from clashing (`WorkerRepos.queued`) lives in one process: a second worker on the same
// folder would run `git fetch` / `git worktree add` on the same clone at once and fail on
// git's own lock files. So the first worktree job takes <workdir>/repos/.worker, naming its
// host and pid; another live process finds it and the branch ends `error` saying so. A lock
// left by a process that is gone (same host) is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

export class WorkdirTaken extends Error {
  override readonly name = "WorkdirTaken";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Who holds the lock now, when not this process and not gone. */
function holder(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const [host, pidText] = text.trim().split(" ");
  const pid = Number(pidText);
  if (host === hostname() && (pid === process.pid || !Number.isInteger(pid) || !alive(pid))) return null;
  return `${host ?? "?"} pid ${pidText ?? "?"}`;
}

/** Takes the workdir's lock (idempotent in one process); throws WorkdirTaken naming the holder. */
export function lockWorkdir(workdir: string): () => void {
  const dir = join(workdir, "repos");
  const file = join(dir, ".worker");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const me = `${hostname()} ${process.pid}\n`;
  for (let tries = 0; tries < 3; tries++) {
    try {
      writeFileSync(file, me, { flag: "wx", mode: 0o600 });
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const who = holder(file);
    if (who !== null)
      throw new WorkdirTaken(
        `${workdir} is in use by another worker (${who}); each worker needs its own --workdir (if that worker is gone, delete ${file})`,
      );
    if (readFileSync(file, "utf8") === me) return () => rmSync(file, { force: true });
    rmSync(file, { force: true }); // left by a process that is gone
  }
  throw new WorkdirTaken(`could not take ${file}`);
}
