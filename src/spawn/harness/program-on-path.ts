// An agent CLI that is not installed is said before the run starts (issue 27 item
// 18): the plan's refusal (exit 2) names the program, the PATH searched and how
// to install it, instead of every node of that harness ending `error unavailable`
// once the run is under way. Looked up as the spawn seam will (Bun.which on the
// PATH the child gets, which buildChildEnv takes from vouch's own).
import type { HarnessDescriptor } from "./types.ts";

/** Why the harness's program cannot be found, or null. Only bare names are looked up: a path
 *  (the command harness's ./script) is relative to the sitting's folder, checked when it starts. */
export function missingProgram(
  harness: HarnessDescriptor,
  program: string | null,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  if (program === null || program === "" || program.includes("/")) return null;
  const path = env.PATH ?? "";
  if (Bun.which(program, { PATH: path }) !== null) return null;
  const install = harness.testedVersion ? `install it (npm install -g ${harness.testedVersion.package}) or ` : "";
  return `${program} was not found on PATH (searched ${path === "" ? "an empty PATH" : path}): ${install}put it on PATH; vouch doctor checks every harness`;
}
