// The README's lines about performance: ratios only (absolute times depend on the
// machine and its load), from the measures bench/run.ts took side by side.
import type { OverheadResult } from "../overhead.ts";
import type { outputBound } from "../output-bound.ts";
import type { SchedulingResult } from "../scheduling.ts";
import type { killLatency } from "../spawn-kill.ts";
import type { startup } from "../startup.ts";
import type { tuiCost } from "../tui-cost.ts";
import type { Summary } from "./measure.ts";
import { byteSize as size, fmt } from "./table.ts";

export interface Measured {
  ov: OverheadResult;
  st: Awaited<ReturnType<typeof startup>>;
  sc: SchedulingResult;
  kl: Awaited<ReturnType<typeof killLatency>>;
  ob: Awaited<ReturnType<typeof outputBound>>;
  tc: Awaited<ReturnType<typeof tuiCost>> | null;
  fork: Summary;
}

const x = (v: number) => `${v.toFixed(2)}×`;

export function readmeQuotes({ ov, st, sc, kl, ob, tc, fork }: Measured): string {
  const last = ob.sizes.length - 1;
  return [
    `- A map of ${ov.items} \`true\` scripts at concurrency 8 runs in ${x(ov.ratio.median)} the time of \`xargs -P 8\` over the same commands (on a machine where fork+exec costs ${fmt(fork.median, "ms")} per process), and ${x(ov.floorRatio.median)} the time of a bare Bun spawn loop (engine, ledger and events included); the ledger's share: ${x(ov.ledgerRatio.median)} the time of the same run with \`VOUCH_LEDGER=off\`.`,
    `- \`vouch validate\` of the largest shipped graph takes ${x(st.validateOverVersion.median)} the start-up of \`vouch --version\`.`,
    `- Scheduling grows no faster than linearly: ${sc.sizes[1] / sc.sizes[0]}× the items (${sc.sizes[1].toLocaleString("en-US")} replayed sittings against ${sc.sizes[0].toLocaleString("en-US")}) takes ${x(sc.timeGrowth.median)} the time, fixed start-up included, and ${x(sc.rssGrowth.median)} the peak memory.`,
    `- \`vouch --version\` takes ${x(st.versionOverFloor.median)} the start-up of a compiled Bun hello world.`,
    `- A wall cap stops a process tree whose grandchild holds the pipe: every process of the group is gone at ${x((kl.wallCapMs + kl.toGoneMs.median) / kl.wallCapMs)} the cap (${kl.wallCapMs} ms).`,
    `- A check printing ${size(ob.sizes[last]!)} raises vouch's peak memory ${x(ob.growthMb[last]!.median / ob.growthMb[0]!.median)} as much as one printing ${size(ob.sizes[0]!)}: the output kept is a bounded tail.`,
    ...(tc
      ? [
          `- The live terminal UI costs ${x(tc.ratio.median)} the CPU time of \`--json\` on a run of ${tc.items.toLocaleString("en-US")} branches.`,
        ]
      : []),
  ].join("\n");
}
