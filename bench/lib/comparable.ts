// Whether a run of the benchmarks may be written down: ratios are only worth quoting
// when the measures taken side by side agree with themselves. A busy machine (another
// test run, a build) spreads the repetitions; past MAX_SPREAD the results are not
// written (bench/run.ts), unless forced, and then the file says which measure spread.
import type { Summary } from "./measure.ts";

/** (max − min) / median of a headline ratio, above which the run is too noisy to quote. */
export const MAX_SPREAD = 0.2;

export interface Spread {
  measure: string;
  spread: number;
}

export function spreadOf(s: Summary): number {
  return s.median === 0 ? 0 : (s.max - s.min) / s.median;
}

/** The headline measures whose spread is over MAX_SPREAD, worst first. */
export function tooSpread(measures: Record<string, Summary>, max = MAX_SPREAD): Spread[] {
  return Object.entries(measures)
    .map(([measure, s]) => ({ measure, spread: spreadOf(s) }))
    .filter((x) => x.spread > max)
    .sort((a, b) => b.spread - a.spread);
}

/** Per-process cost of the machine's fork+exec, from xargs running N `sh -c true`. */
export function forkCostMs(xargsMs: Summary, processes: number): Summary {
  return { median: xargsMs.median / processes, min: xargsMs.min / processes, max: xargsMs.max / processes, n: xargsMs.n };
}
