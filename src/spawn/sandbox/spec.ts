// What one sealed process may reach (ADR 0040): the spawn seam turns it into a
// bubblewrap command line (bwrap-argv.ts) in runProcess's resolve stage, so the
// one process start in src/spawn/process.ts launches bwrap instead of the command.
// Every path is absolute and as the file system has it (realpath): bubblewrap
// binds a path at the same place inside, and a symbolic link inside a path
// would bind what it points at.

export interface SandboxSpec {
  /** bubblewrap's absolute path (the probe found it: probe.ts). */
  program: string;
  /** Bound read-write at the same path (the node's tree, the CLI's state folders, a scratch TMPDIR). Each must exist. */
  writable: readonly string[];
  /** Bound read-only at the same path, over whatever holds them (a repository's .git inside a writable
   *  tree; an object store inside a hidden folder). Each must exist. */
  readOnly: readonly string[];
  /** Absent to the process: a folder becomes an empty read-only tmpfs, a file an empty file. A
   *  writable or read-only path inside one is bound back. Paths that do not exist are skipped. */
  hidden: readonly string[];
  /** false: an empty network namespace of its own (loopback only). */
  network: boolean;
  /** A folder of the host bound writable at /tmp (private-tmp.ts): the process's own /tmp, so nothing
   *  it writes there reaches the host's /tmp, and the host's /tmp is not seen. The spec's paths under
   *  /tmp are bound over it as usual. Absent: /tmp is the host's, read-only. */
  tmp?: string;
}

/** Everything outside the spec's paths is read-only: the root is bound read-only, then
 *  /dev (a minimal one: null, zero, random, tty, pts, shm) and a /proc of the process's own pid
 *  namespace are mounted over it. */
export const ALWAYS = "read-only root, own /dev, own /proc, own pid and IPC namespaces, no capabilities";
