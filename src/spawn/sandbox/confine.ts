// From what the engine asks (a SealRequest: the tree, the user's repository, the
// network) to what one sealed process may reach (a SandboxSpec, ADR 0040/0041):
// the tree writable, the CLI's own state folders and a scratch TMPDIR writable,
// the ledger hidden; for a worktree (a private clone) the user's git records
// hidden but their objects readable, for a shared folder its repository's
// records read-only; vouch's folder in the repository (other trees, vouch's own
// git dirs) hidden. Everything else stays read-only: the root is bound so, but
// /tmp is the process's own (the scratch folder, writable, gone after it): what
// it needs of the host's /tmp (its tree, the repository, the folders its
// environment names: handover files, HOME, PATH entries) is bound back
// read-only (ADR 0073).
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SealRequest } from "../../engine/sandbox.ts";
import type { ProcessSupervisor } from "../process-registry.ts";
import { gitRecordsAround, gitRecordsOf, type GitRecords } from "./git-records.ts";
import type { SandboxProbe } from "./probe.ts";
import { namedUnderTmp, PRIVATE_TMP, toBindBack, underTmp } from "./private-tmp.ts";
import type { SandboxSpec } from "./spec.ts";

/** vouch's folder in a repository (ledger by default, worktrees, vouch's git dirs). */
export const VOUCH_DIR = ".vouch";

/** Unix sockets stay connectable through a read-only bind (measured: a sealed process with
 *  network: false still reached a socket in /tmp). These are the well-known ones that hand out
 *  the machine or the user's session: the container daemons' (root on the host) and the
 *  per-user runtime folders (the session bus, which starts services; ssh and gpg agents). Hidden
 *  from every sealed process; others it can see stay reachable (docs/LIMITATIONS.md). */
export const SOCKETS_HIDDEN: readonly string[] = [
  "/run/docker.sock",
  "/var/run/docker.sock",
  "/run/containerd",
  "/run/podman",
  "/run/user",
  "/var/run/user",
];

export interface ConfineFacts {
  program: string;
  /** The tree, as the file system has it. */
  tree: string;
  network: boolean;
  /** More folders the process may write: the CLI's state folders, the scratch TMPDIR. */
  writable: readonly string[];
  /** Paths no sealed process may see: the ledger's home, SOCKETS_HIDDEN. */
  hide: readonly string[];
  /** The user's repository when the tree is a private clone of it (ADR 0041). */
  repository: GitRecords | null;
  /** Otherwise every repository holding the tree (a shared folder), nearest first. */
  around: readonly GitRecords[];
  /** The scratch folder mounted as the process's /tmp, and the host's paths under /tmp it still
   *  reads (bound back read-only). Absent: /tmp is the host's, read-only. */
  tmp?: { scratch: string; keep: readonly string[] };
}

/** The spec for one sealed process (pure). */
export function confinementSpec(f: ConfineFacts): SandboxSpec {
  const readOnly: string[] = [];
  const hidden: string[] = [...f.hide];
  if (f.repository !== null) {
    // The clone borrows the objects (objects/info/alternates); config, hooks, refs, index stay out of sight.
    hidden.push(join(f.repository.top, VOUCH_DIR), f.repository.commonDir, f.repository.gitDir);
    readOnly.push(join(f.repository.commonDir, "objects"));
  } else {
    // The agent works in the user's folder: it may read its git records (status, log, diff), not
    // write them. Every enclosing repository's: the nearest may be one the sitting planted.
    const records: string[] = [];
    for (const around of f.around) {
      records.push(around.dotGit, around.gitDir, around.commonDir);
      hidden.push(join(around.top, VOUCH_DIR));
    }
    // A `.git` file names its git dir (`gitdir: PATH`), and a sitting can write one: a path it names
    // at or inside a hidden one (the ledger, /run/user's sockets) would be bound back into sight.
    readOnly.push(...records.filter((r) => !hidden.some((h) => r === h || r.startsWith(`${h}/`))));
  }
  const spec: SandboxSpec = { program: f.program, writable: [f.tree, ...f.writable], readOnly, hidden, network: f.network };
  if (f.tmp === undefined) return spec;
  const tops = [f.repository?.top, ...f.around.map((a) => a.top)].filter((t): t is string => t !== undefined);
  readOnly.push(...toBindBack([...tops, ...f.tmp.keep].filter(underTmp), spec));
  return { ...spec, tmp: f.tmp.scratch };
}

/** A file a sealed program rewrites in place, and what it holds when the program has never run. */
export interface StateFile {
  path: string;
  initial: string;
}

export interface ConfinerOptions {
  probe: SandboxProbe;
  /** The ledger's home (VOUCH_HOME or ./.vouch): hidden from every sealed process. */
  hide: readonly string[];
  /** Where scratch TMPDIRs are made. Default: the system temp dir. */
  tmpRoot?: string;
  /** Removes a scratch folder left by a sitting if vouch exits first. */
  supervisor: ProcessSupervisor;
}

/** One sealed process's confinement: its spec, its environment, and what removes its scratch folder. */
export interface Confined {
  spec: SandboxSpec;
  env: Record<string, string>;
  release(): Promise<void>;
  /** The host's folder that is the process's /tmp (and its TMPDIR), removed by release. */
  scratch: string;
}

/** Builds confinements for a session's sealed processes (the agent and command runners share one). */
export class Confiner {
  constructor(private readonly o: ConfinerOptions) {}

  /** @param stateDirs folders the process's program writes (a harness's), made when missing
   *  @param stateFiles files it rewrites in place beside them (claude's ~/.claude.json), made with
   *  their initial content when missing: the folder that holds them stays read-only */
  async open(
    req: SealRequest,
    env: Record<string, string>,
    stateDirs: readonly string[] = [],
    stateFiles: readonly StateFile[] = [],
  ): Promise<Confined | { error: string }> {
    const probe = await this.o.probe.check();
    if (!probe.available) return { error: `the sandbox does not work here: ${probe.reason}` };
    let tree: string;
    try {
      tree = realpathSync(req.tree);
      for (const d of stateDirs) mkdirSync(d, { recursive: true, mode: 0o700 });
      for (const f of stateFiles) if (!existsSync(f.path)) writeFileSync(f.path, f.initial, { mode: 0o600, flag: "wx" });
    } catch (e) {
      return { error: `cannot seal: ${(e as Error).message}` };
    }
    const scratch = realpathSync(mkdtempSync(join(this.o.tmpRoot ?? tmpdir(), "vouch-tmp-")));
    const release = this.o.supervisor.trackFolder(scratch);
    const repository = req.repository !== undefined ? gitRecordsOf(req.repository) : null;
    const spec = confinementSpec({
      program: probe.program,
      tree,
      network: req.network,
      writable: [...stateDirs.map((d) => realpathSync(d)), ...stateFiles.map((f) => realpathSync(f.path))],
      hide: [...new Set([...this.o.hide, ...SOCKETS_HIDDEN].map(real))],
      repository,
      around: repository === null ? gitRecordsAround(tree) : [],
      tmp: { scratch, keep: namedUnderTmp(Object.values(env)) },
    });
    // The scratch folder is the process's /tmp: TMPDIR names it where the process sees it.
    return { spec, env: { ...env, TMPDIR: PRIVATE_TMP }, release, scratch };
  }
}

/** A path as the file system has it when it exists; as given when not (then nothing is there to hide). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
