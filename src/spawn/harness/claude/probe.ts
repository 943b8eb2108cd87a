// How `vouch doctor` reads claude's argument parser (ADR 0018): commander's
// "error: unknown option '--x'", "error: option '--permission-mode <mode>'
// argument 'x' is invalid ...", against "Input must be provided", which comes
// only after the arguments parsed.
import { firstMatch, NOWHERE, unknownAnswer } from "../common/probe-answer.ts";
import type { DoctorProbe } from "../types.ts";

export const claudeProbe: DoctorProbe = {
  env: { ANTHROPIC_BASE_URL: NOWHERE, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
  classify(a) {
    // A mode it refuses to run with here (bypassPermissions as root) fails a run just the same.
    const bad = firstMatch(
      a.stderr,
      /^error: (unknown option|option |missing required|too many arguments).*$|^.*cannot be used with root.*$/m,
    );
    if (bad) return { verdict: "rejected", detail: bad };
    if (/Input must be provided/.test(a.stderr)) return { verdict: "accepted", detail: "parsed; stopped at the empty prompt" };
    return unknownAnswer(a);
  },
};
