// Names for the detected checks: the kind a detector asked for (tests, lint …)
// when it is free, else prefixed by the source (npm_lint beside make's lint),
// else numbered. A name is letters, digits and _, and never one every
// JavaScript object already has (ADR 0019: `constructor` would be refused).
import { RESERVED_NAMES } from "../../engine/graph/reserved-names.ts";
import type { DetectedCheck } from "./detected.ts";

export interface NamedCheck extends DetectedCheck {
  name: string;
}

const RESERVED = new Set(RESERVED_NAMES);

function clean(word: string): string {
  const s = word
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return /^[a-z]/.test(s) && !RESERVED.has(s) ? s : `check_${s || "x"}`;
}

export function nameChecks(checks: readonly DetectedCheck[]): NamedCheck[] {
  const taken = new Set<string>();
  return checks.map((c) => {
    const kind = clean(c.kind);
    let name = [kind, clean(`${c.prefix}_${c.kind}`)].find((n) => !taken.has(n));
    for (let i = 2; name === undefined; i++) if (!taken.has(`${kind}_${i}`)) name = `${kind}_${i}`;
    taken.add(name);
    return { ...c, name };
  });
}
