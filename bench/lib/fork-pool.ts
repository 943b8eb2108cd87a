// The C fork+exec pool (bench/fork-pool.c), compiled at bench time with the
// machine's `cc` into a temporary folder: issue 29's "physical limit" under a map
// of `true` scripts. No compiler, no row: the caller says "not measured: no cc".
import { join } from "node:path";
import { ROOT } from "./measure.ts";

/** The compiled pool in `folder`, or why there is none (no C compiler on PATH, or it failed). */
export function compileForkPool(folder: string): { path: string } | { missing: string } {
  const cc = Bun.which("cc");
  if (!cc) return { missing: "no cc" };
  const out = join(folder, "fork-pool");
  const r = Bun.spawnSync([cc, "-O2", "-o", out, join(ROOT, "bench", "fork-pool.c")], { stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) return { missing: `cc failed: ${r.stderr.toString().trim().split("\n")[0] ?? ""}` };
  return { path: out };
}
