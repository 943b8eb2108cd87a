// The CLI versions vouch is tested with: each agent CLI's adapter declares its
// own (`testedVersion`, src/spawn/harness/<name>/adapter.ts); clis/package.json
// pins the same, held equal by test/harness/versions.test.ts, and the contract
// tests in test/contract/ run exactly these. Bumping a CLI is a change in its
// adapter and in clis/package.json, and a contract run (docs/real-clis.md).
import type { HarnessName } from "../../engine/ports.ts";
import { HARNESSES } from "./registry.ts";
import type { TestedVersion } from "./types.ts";

/** The tested version of every agent CLI, by harness name, in the registry's order. */
export const TESTED_VERSIONS: Readonly<Partial<Record<HarnessName, TestedVersion>>> = Object.fromEntries(
  HARNESSES.flatMap((h) => (h.testedVersion ? [[h.name, h.testedVersion]] : [])),
);

/** Every package vouch is tested with, the agents of a protocol harness (acp) included: clis/package.json pins each. */
export const TESTED_PACKAGES: readonly TestedVersion[] = HARNESSES.flatMap((h) => [
  ...(h.testedVersion ? [h.testedVersion] : []),
  ...(h.agents ?? []).map((a) => a.testedVersion),
]);

/** The first dotted version number in a CLI's `--version` output
 *  ("codex-cli 0.171.0", "2.1.332 (Claude Code)", "0.61.0"). */
export function versionIn(text: string): string | null {
  return /\b(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\b/.exec(text)?.[1] ?? null;
}

/** Whether `version` is the one vouch was tested with; null when it is unknown (or `cli` has no tested version). */
export function testedWith(cli: HarnessName, version: string | null): boolean | null {
  const tested = TESTED_VERSIONS[cli];
  if (version === null || !tested) return null;
  return version === tested.version;
}

/** How far an installed version is from the tested one, by its first differing part (issue 28 item 6). */
export interface VersionDistance {
  /** The installed version against the tested one. */
  direction: "same" | "newer" | "older";
  /** The first part that differs, and by how much (absent when the same). */
  part?: "major" | "minor" | "patch" | "prerelease";
  by?: number;
}

function parts(v: string): { nums: [number, number, number]; pre: string } | null {
  const m = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]{1,64}))?$/.exec(v);
  return m ? { nums: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? "" } : null;
}

/** The distance of `installed` from `tested`; null when either is no plain version (x.y.z[-pre]). */
export function versionDistance(installed: string, tested: string): VersionDistance | null {
  const a = parts(installed);
  const b = parts(tested);
  if (!a || !b) return null;
  const names = ["major", "minor", "patch"] as const;
  for (let i = 0; i < 3; i++) {
    const d = a.nums[i]! - b.nums[i]!;
    if (d !== 0) return { direction: d > 0 ? "newer" : "older", part: names[i], by: Math.abs(d) };
  }
  if (a.pre === b.pre) return { direction: "same" };
  // 1.2.3-rc.1 comes before 1.2.3.
  const newer = a.pre === "" || (b.pre !== "" && a.pre > b.pre);
  return { direction: newer ? "newer" : "older", part: "prerelease", by: 1 };
}

/** "2 minor versions newer", "1 patch version older", "another prerelease, newer"; "" when the same. */
export function describeDistance(d: VersionDistance): string {
  if (d.direction === "same") return "";
  if (d.part === "prerelease") return `another prerelease, ${d.direction}`;
  return `${d.by} ${d.part} version${d.by === 1 ? "" : "s"} ${d.direction}`;
}
