// When vouch lets the JavaScript JIT compile (ADR 0031). The binary starts with
// JavaScriptCore's tier-up thresholds scaled up (build.ts STARTUP_JIT_POLICY):
// a one-shot command on a small file (`vouch validate`, `graph`, `schema`,
// `checks`) runs its YAML parse and zod schema construction once, and compiling
// that code cost more CPU than it saved. Work that can run long gets the normal
// policy back before it starts: every other command, and a one-shot command
// once it has read more than LARGE_INPUT_BYTES of files.

/** Commands whose work is bounded by the files they read (the size rule below covers a big one). */
const ONE_SHOT = new Set(["validate", "graph", "schema", "checks"]);

/** Past this many bytes of graph and checks files read, compiling pays again
 *  (a 71 KB graph still validated faster with the startup policy, a 239 KB one 8% slower). */
export const LARGE_INPUT_BYTES = 128 * 1024;

let inputBytes = 0;

/** At the start of a command: one that may run long gets the normal policy now. */
export function jitForCommand(command: string): void {
  inputBytes = 0;
  if (!ONE_SHOT.has(command)) normalJit();
}

/** Counts the bytes of a file a command read; past LARGE_INPUT_BYTES in all, the normal policy. */
export function noteInput(bytes: number): void {
  inputBytes += bytes;
  if (inputBytes > LARGE_INPUT_BYTES) normalJit();
}

type Unsafe = { setJITPolicy?: (scale: number) => void };

/** Back to JavaScriptCore's normal tier-up thresholds. Without the API (an older Bun, or a
 *  runtime that is not Bun) nothing changes: the policy is a cost, never a behaviour. */
export function normalJit(): void {
  const unsafe = (globalThis as { Bun?: { unsafe?: Unsafe } }).Bun?.unsafe;
  unsafe?.setJITPolicy?.(1);
}
