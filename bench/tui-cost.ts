// The TUI's cost: CPU time (user + sys, from the kernel's rusage via
// /usr/bin/time) of one run rendered by the live UI inside tmux, against the
// same run with --json (NDJSON to a file). The run: a map of N replayed agent
// sittings (graphs/sched.yaml) — many events in a short time, the UI's worst case.
// The live UI keeps the final screen until `q`: the bench watches the ledger
// for run.finished, lets the last frame draw, then sends `q` at once (the idle
// wait costs next to no CPU).
import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ratios, summarize, tempFolder, VOUCH, vouchEnv, type Summary } from "./lib/measure.ts";

export interface TuiCostResult {
  items: number;
  tuiCpuMs: Summary;
  jsonCpuMs: Summary;
  ratio: Summary;
}

/** "user sys" seconds written by /usr/bin/time -f '%U %S' → ms. */
function cpuFromTimeFile(file: string): number {
  const [user, sys] = readFileSync(file, "utf8").trim().split(/\s+/).slice(-2).map(Number);
  return (user! + sys!) * 1000;
}

function tmux(socket: string, ...args: string[]) {
  return Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "pipe" });
}

function runFinished(ledgerFile: string): boolean {
  if (!existsSync(ledgerFile)) return false;
  let db: Database | undefined;
  try {
    db = new Database(ledgerFile, { readonly: true });
    return db.query("SELECT 1 FROM events WHERE type = 'run.finished' LIMIT 1").get() !== null;
  } catch {
    return false; // not created yet
  } finally {
    db?.close();
  }
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

export function tmuxAvailable(): boolean {
  return Bun.spawnSync(["tmux", "-V"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

export async function tuiCost(items: number, reps: number): Promise<TuiCostResult> {
  const dir = tempFolder("vouch-bench-tui-");
  const socket = `vouch-bench-${process.pid}`;
  try {
    const graph = join(import.meta.dirname, "graphs", "sched.yaml");
    const itemsFile = join(dir.path, "items.txt");
    await Bun.write(itemsFile, Array.from({ length: items }, (_, i) => `item-${i}`).join("\n") + "\n");
    let n = 0;
    const tui = async (): Promise<number> => {
      const home = join(dir.path, `tui-${++n}`);
      const timeFile = join(dir.path, `tui-${n}.time`);
      const errFile = join(dir.path, `tui-${n}.err`);
      const env = vouchEnv(home, { TERM: "xterm-256color" });
      const assignments = Object.entries(env)
        .map(([k, v]) => `${k}='${v}'`)
        .join(" ");
      const cmd = `cd '${dir.path}' && exec env -i ${assignments} /usr/bin/time -o '${timeFile}' -f '%U %S' '${VOUCH}' run '${graph}' -i 'items=@${itemsFile}' 2>'${errFile}'`;
      const started = tmux(socket, "new-session", "-d", "-s", `b${n}`, "-x", "120", "-y", "40", cmd);
      if (started.exitCode !== 0) throw new Error(`tmux: ${started.stderr.toString()}`);
      try {
        await until(() => runFinished(join(home, "ledger", "ledger.sqlite")), 120_000, "the TUI run to finish");
        await Bun.sleep(100); // the last frame
        tmux(socket, "send-keys", "-t", `b${n}`, "q");
        // time(1) writes its file when vouch has exited.
        await until(() => existsSync(timeFile) && readFileSync(timeFile, "utf8").trim() !== "", 20_000, "the TUI to quit on q");
        // Only the live UI prints this closing line (on stderr): the run was drawn by the TUI.
        const err = readFileSync(errFile, "utf8");
        if (!/: passed \(exit 0\) — vouch show /.test(err)) throw new Error(`the run under tmux did not end in the live UI:\n${err}`);
        return cpuFromTimeFile(timeFile);
      } finally {
        tmux(socket, "kill-session", "-t", `b${n}`);
      }
    };
    const json = async (): Promise<number> => {
      const home = join(dir.path, `json-${++n}`);
      const timeFile = join(dir.path, `json-${n}.time`);
      const p = Bun.spawn(["/usr/bin/time", "-o", timeFile, "-f", "%U %S", VOUCH, "run", graph, "--json", "-i", `items=@${itemsFile}`], {
        cwd: dir.path,
        env: vouchEnv(home),
        stdout: Bun.file(join(dir.path, "out.ndjson")),
        stderr: "pipe",
      });
      if ((await p.exited) !== 0) throw new Error(`vouch run --json (tui cost) failed: ${await new Response(p.stderr).text()}`);
      return cpuFromTimeFile(timeFile);
    };
    await tui(); // warm-up
    await json();
    const t: number[] = [];
    const j: number[] = [];
    for (let r = 0; r < reps; r++) {
      if (r % 2 === 0) {
        t.push(await tui());
        j.push(await json());
      } else {
        j.push(await json());
        t.push(await tui());
      }
    }
    return { items, tuiCpuMs: summarize(t), jsonCpuMs: summarize(j), ratio: ratios(t, j) };
  } finally {
    tmux(socket, "kill-server");
    dir.remove();
  }
}
