// How `vouch doctor` reads gemini's argument parser (ADR 0018): yargs prints
// its usage, then "Unknown argument: x" / "Invalid values: ...", exit 1; exits
// 41 (no auth), 52 (config) and 55 (trust) come only after the arguments were
// accepted.
import { firstMatch, NOWHERE, unknownAnswer } from "../common/probe-answer.ts";
import type { DoctorProbe } from "../types.ts";

export const geminiProbe: DoctorProbe = {
  env: { GOOGLE_GEMINI_BASE_URL: NOWHERE, GEMINI_CLI_NO_RELAUNCH: "true" },
  classify(a) {
    const err = a.stderr;
    const bad = firstMatch(err, /^(Unknown arguments?|Invalid values|Missing required argument|Not enough arguments).*$/m);
    if (bad) {
      const more = firstMatch(err.slice(err.indexOf(bad) + bad.length), /^\s*Argument: .*$/m);
      return { verdict: "rejected", detail: more ? `${bad} ${more}` : bad };
    }
    if (a.exit === 41 || a.exit === 52 || a.exit === 55 || /"type":"init"/.test(a.stdout))
      return { verdict: "accepted", detail: `parsed; stopped before any model call (exit ${a.exit})` };
    return unknownAnswer(a);
  },
};
