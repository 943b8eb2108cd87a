// A SandboxSpec as a bubblewrap command line (ADR 0040). Mounts are made in
// argv order and a later one covers an earlier one, so the paths are sorted
// outermost first: a folder hidden inside a writable tree is hidden, a tree
// bound back inside a hidden folder is seen. At one path the most restrictive
// wins (hidden, then read-only, then writable). The hidden folders are made
// read-only last, once what is bound back inside them has its mount point.
//
// The namespace's init is a shell of ours (`--as-pid-1`, SANDBOX_INIT), not
// bubblewrap's: bubblewrap's own monitor exits as soon as the command exits and
// leaves its init to kill the rest a moment later, so a daemon the command left
// could still be running when runProcess returned. Our init waits for the command
// only; when it exits, the kernel kills every other process of the namespace and
// bubblewrap's wait for our init returns only after that (counted in
// test/spawn/sandbox-process.test.ts). As the namespace's pid 1 it ignores the
// group's SIGTERM (no handler), which reaches the command with its grace period.
import { statSync } from "node:fs";
import { namedUnderTmp, PRIVATE_TMP, toBindBack } from "./private-tmp.ts";
import type { SandboxSpec } from "./spec.ts";

export type PathKind = "dir" | "file" | null;

/** The uid and gid a sealed process has inside its user namespace when vouch runs as root. */
export const SEALED_UID = "1000";

/** What is at `path`, following links; null when nothing is. */
export function kindOnDisk(path: string): PathKind {
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return null;
  }
}

type Entry = { path: string; as: "hidden" | "readOnly" | "writable" };
const RANK: Record<Entry["as"], number> = { writable: 0, readOnly: 1, hidden: 2 };

/** The spec's paths, one entry each (the most restrictive at a path), outermost first. */
export function mountOrder(spec: Pick<SandboxSpec, "writable" | "readOnly" | "hidden">): Entry[] {
  const byPath = new Map<string, Entry>();
  const put = (path: string, as: Entry["as"]) => {
    const p = normal(path);
    const had = byPath.get(p);
    if (had === undefined || RANK[as] > RANK[had.as]) byPath.set(p, { path: p, as });
  };
  for (const p of spec.writable) put(p, "writable");
  for (const p of spec.readOnly) put(p, "readOnly");
  for (const p of spec.hidden) put(p, "hidden");
  return [...byPath.values()].sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** bwrap's arguments for `spec`, to be followed by "--" and the command. Throws on a path
 *  that is not absolute (a caller's mistake: bubblewrap would read it against its own cwd). */
export function bwrapArgs(
  spec: SandboxSpec,
  cwd: string,
  kindOf: (path: string) => PathKind = kindOnDisk,
  asRoot: boolean = process.getuid?.() === 0,
): string[] {
  const args = ["--die-with-parent", "--unshare-pid", "--as-pid-1", "--unshare-ipc", "--cap-drop", "ALL"];
  // As root, bubblewrap makes no user namespace of its own, and with every capability dropped a
  // sandbox the sealed program makes for itself (codex's, on bubblewrap too) cannot map uid 0:
  // the kernel asks for CAP_SETFCAP for that. Never grant it: a file capability set from a
  // namespace whose root is the host's root holds on the host (a setuid escape that outlives the
  // seal). As root the sealed process runs as SEALED_UID in a user namespace of ours instead,
  // mapped to root outside (its files are root's), with no capability; a nested sandbox maps that
  // uid as any user's does (ADR 0040).
  if (asRoot) args.push("--unshare-user", "--uid", SEALED_UID, "--gid", SEALED_UID);
  if (!spec.network) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  // Its own /tmp before the spec's paths: those under /tmp (a tree, a repository there) are bound
  // over it next, outermost first, as everywhere else.
  if (spec.tmp !== undefined) args.push("--bind", normal(spec.tmp), PRIVATE_TMP);
  const remount: string[] = [];
  for (const e of mountOrder(spec)) {
    if (e.as === "writable") args.push("--bind", e.path, e.path);
    else if (e.as === "readOnly") {
      if (kindOf(e.path) !== null) args.push("--ro-bind", e.path, e.path);
    } else {
      const kind = kindOf(e.path);
      if (kind === "dir") {
        args.push("--tmpfs", e.path);
        remount.push("--remount-ro", e.path);
      } else if (kind === "file") args.push("--ro-bind", "/dev/null", e.path);
    }
  }
  args.push(...remount, "--chdir", normal(cwd));
  return args;
}

/** The namespace's pid 1: starts the command with stdin as it is (an asynchronous command of a
 *  non-interactive shell would get /dev/null) and exits with its status. */
export const SANDBOX_INIT = ["/bin/sh", "-c", 'exec 3<&0; "$@" <&3 3<&- & wait $!', "vouch-sandbox-init"] as const;

/** The whole command line: bwrap, its arguments, our init, then the command. */
export function sealedArgv(
  spec: SandboxSpec,
  cwd: string,
  argv: readonly string[],
  kindOf?: (path: string) => PathKind,
  asRoot?: boolean,
): string[] {
  // With a /tmp of its own, what the command line names under the host's /tmp (the script a
  // node runs) is bound back read-only: the process still finds it.
  const seen = spec.tmp === undefined ? spec : { ...spec, readOnly: [...spec.readOnly, ...toBindBack(namedUnderTmp(argv), spec)] };
  return [spec.program, ...bwrapArgs(seen, cwd, kindOf, asRoot), "--", ...SANDBOX_INIT, ...argv];
}

function normal(path: string): string {
  if (!path.startsWith("/")) throw new Error(`sandbox path is not absolute: ${JSON.stringify(path)}`);
  if (path.split("/").some((s) => s === "." || s === ".."))
    throw new Error(`sandbox path holds "." or "..": ${JSON.stringify(path)} (give it as the file system has it)`);
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed.replace(/\/{2,}/g, "/");
}

function depth(path: string): number {
  return path === "/" ? 0 : path.split("/").length - 1;
}
