// A check's reruns (ADR 0066): after a failure, the check runs again on the same tree up to
// `reruns` times. One that then passes is flaky — neither evidence of success nor of failure;
// one that fails every time is failed, as without reruns. Each run is its own check.finished
// (`rerun: k`); the outcome the judging gets keeps the first failure's tails, never a later green.
import type { CheckOutcome, CheckSpec } from "../ports.ts";

/** One run of the check; `rerun` 0 is the first. */
export type RunCheck = (rerun: number) => Promise<CheckOutcome>;

export async function withReruns(spec: CheckSpec, run: RunCheck, stopped: () => boolean): Promise<CheckOutcome> {
  const first = await run(0);
  const reruns = spec.reruns ?? 0;
  // A pass, or a check that could not run (no evidence to repeat), is what it is.
  if (first.passed || first.notRun === true || reruns === 0) return first;
  let runs = 1;
  for (let k = 1; k <= reruns && !stopped(); k++) {
    const again = await run(k);
    runs++;
    if (again.passed) return flakyOutcome(first, k, reruns);
    if (again.notRun === true) break; // nothing more to learn on this tree: the first failure stands
  }
  return { ...first, runs, reason: `${first.reason ?? "failed"} (failed each of ${runs} runs on the same tree)` };
}

/** Failed, then passed on rerun `k`: the first failure's tails, marked flaky. */
export function flakyOutcome(first: CheckOutcome, k: number, reruns: number): CheckOutcome {
  return {
    ...first,
    passed: false,
    flaky: true,
    runs: k + 1,
    reason: `flaky: it failed (${first.reason ?? "failed"}), then passed on rerun ${k} of ${reruns} on the same tree`,
  };
}
