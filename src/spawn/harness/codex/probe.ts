// How `vouch doctor` reads codex's argument parser (ADR 0018): clap's "error:
// unexpected argument '--x' found" / "error: invalid value 'x' for '--sandbox'",
// exit 2, against "No prompt provided" (exit 1), which comes only after the
// arguments parsed.
import { firstMatch, lastErrorLine, NOWHERE, unknownAnswer } from "../common/probe-answer.ts";
import type { DoctorProbe } from "../types.ts";

export const codexProbe: DoctorProbe = {
  env: { OPENAI_BASE_URL: NOWHERE },
  classify(a) {
    const bad = firstMatch(a.stderr, /^error: .*$/m);
    if (a.exit === 2 || bad) return { verdict: "rejected", detail: bad ?? lastErrorLine(a) };
    if (a.exit === 1 && /No prompt provided/.test(a.stderr)) return { verdict: "accepted", detail: "parsed; stopped at the empty prompt" };
    return unknownAnswer(a);
  },
};
