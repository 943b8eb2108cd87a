// Whether this machine can seal (ADR 0040): a real `bwrap … -- true` with the
// arguments every sealed process gets (pid, IPC and network namespaces, a
// read-only root, a hidden and a bound-back folder), once per session. When it
// fails, the reason in words a user can act on: no bubblewrap, user namespaces
// switched off, another platform, or bwrap's own message.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxAvailability } from "../../engine/sandbox.ts";
import { runProcess } from "../process.ts";
import { sealedArgv } from "./bwrap-argv.ts";
import type { SandboxSpec } from "./spec.ts";

/** The program the sandbox runs: bubblewrap (Debian/Ubuntu package `bubblewrap`). */
export const SANDBOX_PROGRAM = "bwrap";

export type SandboxProbeResult =
  | { available: true; program: string; version: string }
  | { available: false; reason: string; hint: string; program?: string };

/** The engine's view of a probe (no paths, no hints). */
export function availability(r: SandboxProbeResult): SandboxAvailability {
  return r.available ? { available: true } : { available: false, reason: r.reason };
}

/** Once per session: the composition root makes one and hands it where it is needed. */
export class SandboxProbe {
  private result: Promise<SandboxProbeResult> | null = null;

  constructor(
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  check(): Promise<SandboxProbeResult> {
    this.result ??= probe(this.env, this.platform);
    return this.result;
  }
}

async function probe(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): Promise<SandboxProbeResult> {
  if (platform !== "linux")
    return {
      available: false,
      reason: `sealing needs Linux (bubblewrap); this is ${platform}`,
      hint: "sittings run unsealed here (sandbox: auto), or refuse to start (sandbox: required); see docs/LIMITATIONS.md",
    };
  const path = env.PATH ?? "";
  const program = Bun.which(SANDBOX_PROGRAM, { PATH: path });
  if (!program)
    return {
      available: false,
      reason: `bubblewrap (${SANDBOX_PROGRAM}) is not installed (searched PATH=${path === "" ? "(empty)" : path})`,
      hint: "install it: apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora), pacman -S bubblewrap (Arch)",
    };
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "vouch-sandbox-probe-")));
  try {
    return await tryOnce(program, scratch, env);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function tryOnce(program: string, scratch: string, env: Readonly<Record<string, string | undefined>>): Promise<SandboxProbeResult> {
  const childEnv = { PATH: env.PATH ?? "/usr/bin:/bin" };
  const version = await runProcess({ argv: [program, "--version"] }, { cwd: scratch, env: childEnv, wallMs: 10_000 });
  // The layout of a sitting: a folder hidden, a tree inside it bound back writable.
  const hidden = join(scratch, "hidden");
  const tree = join(hidden, "tree");
  mkdirSync(tree, { recursive: true });
  const spec: SandboxSpec = { program, writable: [tree], readOnly: [], hidden: [hidden], network: false };
  const r = await runProcess({ argv: sealedArgv(spec, tree, ["/bin/sh", "-c", "true"]) }, { cwd: tree, env: childEnv, wallMs: 10_000 });
  if (r.exit === 0) return { available: true, program, version: version.stdoutTail.trim() };
  const said = (r.stderrTail.trim().split("\n")[0] ?? "").trim() || r.spawnError || `exit ${r.exit ?? r.signal}`;
  return { available: false, program, ...explain(said) };
}

/** bwrap's own message, read for its cause. */
export function explain(said: string): { reason: string; hint: string } {
  if (/namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(said))
    return {
      reason: `bubblewrap cannot create the namespaces it needs (user namespaces disabled?): ${said}`,
      hint: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0, or the AppArmor rule of your distribution for bwrap), or run with --sandbox off",
    };
  return { reason: `bubblewrap failed: ${said}`, hint: "run `bwrap --ro-bind / / true` to see bubblewrap's own message" };
}
