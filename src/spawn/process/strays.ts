// The processes of a child that left its process group (issue 28 item 1). gemini
// runs each shell command through a detached shell — a session of its own — so a
// kill of the child's group missed it: after a wall stop the command ran on and
// wrote into the kept worktree 14 s later. Two cgroup-free ways find them on
// Linux, from one scan of /proc:
//   - descent: every process whose parent chain leads to the child. Taken before
//     the child is killed: once it is gone, its orphans belong to init and the
//     chain is lost.
//   - the marker: a sitting's child gets VOUCH_SITTING=<id> in its environment
//     (the sitting's buildChildEnv), inherited by whatever it starts unless that
//     clears its environment; a process carrying it is the sitting's wherever it
//     went — its own session, reparented, started after the snapshot.
// What either finds is killed with its whole session (a detached shell's pipeline
// shares its session). What neither finds — a process that left the tree before
// the snapshot and dropped the marker — only a pid namespace reaches (the sandbox,
// when sealing is on); docs/LIMITATIONS.md says so. Elsewhere than Linux nothing
// is found. Never throws; never signals vouch, its own group or its own session.
import { readdirSync, readFileSync } from "node:fs";

/** The variable that marks a sitting's processes (its value is the sitting's own random id). */
export const SITTING_MARKER = "VOUCH_SITTING";

interface Proc {
  ppid: number;
  pgrp: number;
  sid: number;
}

/** One scan of /proc: each process's parent, group and session. */
function processTable(): Map<number, Proc> {
  const table = new Map<number, Proc>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return table;
  }
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after "(comm) ": state ppid pgrp session ...
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 4);
      table.set(Number(name), { ppid: Number(f[1]), pgrp: Number(f[2]), sid: Number(f[3]) });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

function descendants(root: number, table: Map<number, Proc>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, p] of table) {
    const list = children.get(p.ppid);
    if (list) list.push(pid);
    else children.set(p.ppid, [pid]);
  }
  // Breadth first over one array read by an index (a shift per step is quadratic in a big tree).
  const out = [...(children.get(root) ?? [])];
  for (let i = 0; i < out.length && out.length < 100_000; i++) {
    for (const child of children.get(out[i]!) ?? []) out.push(child);
  }
  return out.slice(0, 100_000);
}

/** Whether process `pid`'s environment holds exactly the entry `entry` (NAME=value). */
function carries(pid: number, entry: string): boolean {
  try {
    return `\0${readFileSync(`/proc/${pid}/environ`, "latin1")}`.includes(`\0${entry}\0`);
  } catch {
    return false; // gone, or not ours to read
  }
}

/** Processes of the child `pgid` outside its group, and their sessions. */
export interface Strays {
  pids: Set<number>;
  sessions: Set<number>;
}

/** Finds the child's processes outside its group: its descendants, and (given its marker) every process carrying it. */
export function findStrays(pgid: number, marker?: string): Strays {
  const table = processTable();
  const self = table.get(process.pid);
  const found: Strays = { pids: new Set(), sessions: new Set() };
  const entry = marker ? `${SITTING_MARKER}=${marker}` : null;
  const take = (pid: number) => {
    const p = table.get(pid);
    if (!p || pid === process.pid || p.pgrp === pgid) return; // the group's own die with the group
    if (self && (p.sid === self.sid || p.pgrp === self.pgrp)) return; // never vouch's own
    found.pids.add(pid);
    if (p.sid !== pgid) found.sessions.add(p.sid);
  };
  for (const pid of descendants(pgid, table)) take(pid);
  if (entry) for (const pid of table.keys()) if (!found.pids.has(pid) && carries(pid, entry)) take(pid);
  return found;
}

/** Adds `more` into `into`. */
export function mergeStrays(into: Strays, more: Strays): Strays {
  more.pids.forEach((p) => into.pids.add(p));
  more.sessions.forEach((s) => into.sessions.add(s));
  return into;
}

/** Signals every stray and every process left in their sessions; returns the processes signalled. */
export function signalStrays(strays: Strays, signal: NodeJS.Signals): Set<number> {
  const signalled = new Set<number>();
  const table = strays.sessions.size > 0 ? processTable() : new Map<number, Proc>();
  const targets = new Set(strays.pids);
  for (const [pid, p] of table) if (strays.sessions.has(p.sid) && pid !== process.pid) targets.add(pid);
  for (const pid of targets) {
    try {
      process.kill(pid, signal);
      signalled.add(pid);
    } catch {
      // gone meanwhile
    }
  }
  return signalled;
}
