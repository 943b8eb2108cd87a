// When vouch lets the JavaScript JIT compile (ADR 0031). The binary starts with
// JavaScriptCore's tier-up thresholds scaled up (build.ts STARTUP_JIT_POLICY):
// start-up code (the YAML parse of a graph, the zod schema construction, opening
// the ledger) runs once, and compiling it cost more CPU than it saved. Work that
// can run long gets the normal policy back before it starts: a run's session
// (runSession), every command not listed below, and a listed command once the
// files it has read pass LARGE_INPUT_BYTES.

/** Commands whose work before a session is bounded by the files they read (the size rule
 *  covers a big one). `run` gets the normal policy when its session starts; `resume` is
 *  not here: it rebuilds the run's state from the ledger first, as long as the run was. */
const ONE_SHOT = new Set(["validate", "graph", "schema", "checks", "run"]);

/** Past this many bytes of graph, checks and input files read, compiling pays again
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
