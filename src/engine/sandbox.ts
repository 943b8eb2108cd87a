// Sealing (issue 26, ADR 0040): whether an agent's or a script's process runs
// in the sandbox the spawn seam builds (src/spawn/sandbox/) — its tree writable,
// everything else read-only or absent, a pid namespace of its own. The engine's
// side: the modes a graph and the run may ask for, what the seam's probe found
// (handed in by the composition root; the engine probes nothing), and the pure
// decision per node. A decision the engine cannot keep (`required` where nothing
// can seal) is a refusal before anything starts (exit 2).

export const SANDBOX_MODES = ["auto", "required", "off"] as const;
/** auto: seal where the sandbox works, else run unsealed with one warning; required: refuse
 *  where it cannot seal; off: never seal. */
export type SandboxMode = (typeof SANDBOX_MODES)[number];
export const DEFAULT_SANDBOX: SandboxMode = "auto";

/** Whether this machine can seal, as the spawn seam's probe found once per session. */
export type SandboxAvailability = { available: true } | { available: false; reason: string };

/** The availability when no probe was given (engine tests, ports without a sandbox). */
export const NOT_PROBED: SandboxAvailability = { available: false, reason: "no sandbox probe was run" };

/**
 * What the engine asks of the spawn seam for one sealed process; the seam adds the rest
 * (the harness's own state folders, a scratch TMPDIR, the ledger hidden, the pid namespace).
 */
export interface SealRequest {
  /** The folder the process may write: the node's worktree, or its working folder in the shared folder. */
  tree: string;
  /** The top folder of the user's repository when the tree is a worktree of it (ADR 0041): its
   *  git records are out of reach (only its objects readable) and vouch's folder in it is hidden. */
  repository?: string;
  /** false: no network (an empty network namespace of its own, loopback only). */
  network: boolean;
}

/** One node's sittings, sealed or not; when not, why (recorded on its events). */
export type SealDecision = { sealed: true } | { sealed: false; reason: string /** worth the run's one warning */; warn: boolean };

/** The node facts the decision reads. */
export interface SealSubject {
  kind: "agent" | "script";
  /** The node works in a worktree of its own. */
  workspace: boolean;
}

export type SealOutcome = SealDecision | { refused: string };

/**
 * The decision for one node: `mode` is its resolved setting (node, else defaults, else the
 * run's --sandbox, else auto). A script without a workspace is the graph's own step in the
 * user's folder (ADR 0020): `auto` leaves it unconfined, `required` seals it.
 */
export function decideSeal(mode: SandboxMode, availability: SandboxAvailability, subject: SealSubject): SealOutcome {
  if (mode === "off") return { sealed: false, reason: "sandbox: off", warn: false };
  if (mode === "auto" && subject.kind === "script" && !subject.workspace)
    return { sealed: false, reason: "a script without a workspace runs unconfined in the shared folder", warn: false };
  if (availability.available) return { sealed: true };
  if (mode === "required") return { refused: `sandbox: required, but this machine cannot seal: ${availability.reason}` };
  return { sealed: false, reason: `the sandbox is not available here: ${availability.reason}`, warn: true };
}

/** The node's setting: its own, else the graph's defaults, else the run's, else auto. */
export function sandboxModeOf(own: SandboxMode | undefined, defaults: SandboxMode | undefined, run: SandboxMode | undefined): SandboxMode {
  return own ?? defaults ?? run ?? DEFAULT_SANDBOX;
}
