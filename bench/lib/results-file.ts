// bench/results.md: written by bench/run.ts from one run — issue 29's table on top,
// every measure below it, and how each is measured; the sections other
// benchmarks write (<!-- bench/NAME.ts --> … <!-- /bench/NAME.ts -->) are kept.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Machine } from "./machine.ts";
import { ROOT, type Summary } from "./measure.ts";
import { byteSize as size, fmt } from "./table.ts";

export interface ResultsInput {
  machine: Machine;
  reps: number;
  totalS: string;
  loadBefore: string;
  loadAfter: string;
  fork: Summary;
  spreadNote: string;
  issueTable: string;
  machineAt: string;
  table: string;
  quotes: string;
  cfg: {
    overheadItems: number;
    schedSizes: [number, number];
    startupRuns: number;
    outputBytes: number[];
    tuiItems: number;
    issue29: { baseItems: number; scaleItems: number; growthSizes: [number, number]; fleetItems: number };
  };
}

export function resultsMarkdown({
  machine,
  reps,
  totalS,
  loadBefore,
  loadAfter,
  fork,
  spreadNote,
  issueTable,
  machineAt,
  table,
  quotes,
  cfg,
}: ResultsInput): string {
  return `# vouch benchmarks

Measured by \`npm run bench\` (\`bench/run.ts\`) on ${machine.date.slice(0, 10)}, commit
\`${machine.commit}\`, ${reps} repetitions of each measure (${totalS} s in all).
Compared measures ran side by side: each repetition runs every command of the
comparison, the order rotating, and a ratio is taken per repetition.

Machine: \`${machine.uname}\`; ${machine.cpu}; ${machine.cores} cores; ${machine.memoryGiB.toFixed(1)} GiB of memory;
Bun ${machine.bun}. Load average (1, 5, 15 min) ${loadBefore} before and ${loadAfter} after; fork+exec
cost ${fmt(fork.median, "ms")} per process (xargs, 8 at once). Absolute times vary with the machine and its
load; ratios of measures taken side by side vary much less, and are what should be quoted.
${spreadNote}

## Issue 29 table

Every row of issue 29's table, measured in this run: the value, the issue's target and
the verdict (met, missed, or not measured and why). Rows marked "1 run" are measured
once (the 100,000-item map takes minutes on this machine); their spread is not known.
\`npm run bench\` runs them all; \`--quick\` skips the 100,000-item map.

${issueTable}

${machineAt}

## Every measure

${table}

For the README (ratios only):
${quotes}

How each figure is measured (code in \`bench/\`):
- **Start-up** (\`startup.ts\`): wall time around \`dist/vouch --version\` and \`dist/vouch validate\`
  on the largest graph in \`graphs/\`, ${cfg.startupRuns} runs each after 3 warm-ups, interleaved in blocks of 5
  with the floor: a one-line program compiled by \`bun build --compile\` with the same bytecode, ESM and
  minify options. CPU time is user + sys from the kernel's rusage of each process.
- **Overhead** (\`overhead.ts\`, \`graphs/overhead.yaml\`): wall time from spawn to exit of
  \`dist/vouch run --json\` on a map of ${cfg.overheadItems} script nodes \`true\` (each one \`/bin/sh -c true\`,
  concurrency 8, ledger on), of \`xargs -P 8 -n 1 sh -c true\` over the same ${cfg.overheadItems} lines, and of
  \`spawn-floor.ts\` (Bun.spawn of \`/bin/sh -c true\`, 8 at once, own process groups, pipes read to the end),
  and of the same vouch run with \`VOUCH_LEDGER=off\` (events go straight to the output, nothing recorded).
- **Scheduling** (\`scheduling.ts\`, \`graphs/sched.yaml\`): \`dist/vouch run --json\` on maps of
  ${cfg.schedSizes[0]} and ${cfg.schedSizes[1]} items whose branch is one replayed agent sitting (no process per
  item; default concurrency 4); wall time and vouch's own peak RSS (VmHWM, sampled every 10 ms).
- **Kill latency** (\`spawn-kill.ts\`): the spawn seam in-process (\`runProcess\`, what vouch runs)
  on \`sh -c 'sleep 30 & echo hi; wait'\` with a 200 ms wall cap; from the cap to \`runProcess\`
  returning, and to no live (non-zombie) process left in the group.
- **Output bound** (\`output-bound.ts\`, \`graphs/output.yaml\`): vouch's own peak RSS (VmHWM) for a
  run whose check prints ${cfg.outputBytes.map(size).join(" or ")} of 64-byte lines, against the same run whose
  check prints nothing.
- **TUI cost** (\`tui-cost.ts\`): CPU time (user + sys, \`/usr/bin/time\`) of \`dist/vouch run\` on a map of
  ${cfg.tuiItems} replayed sittings drawn by the live UI in a 120×40 tmux pane (\`q\` sent 100 ms after
  \`run.finished\` is in the ledger), against the same run with \`--json\` written to a file.
- **C fork+exec pool** (\`fork-pool.c\`, compiled with \`cc -O2\` into a temporary folder at bench time;
  no \`cc\`, no row): ${cfg.overheadItems} × fork, exec \`/bin/sh -c true\`, waitpid, 8 at once, side by side with the
  overhead runs above. Issue 29's physical limit.
- **Large map** (\`map-scale.ts\`): the overhead graph over ${cfg.issue29.baseItems} and ${cfg.issue29.scaleItems || "(quick mode: no)"} items, one run
  each; branches per second from the wall time; vouch's peak RSS (the kernel's maximum, from
  \`/usr/bin/time\` around it, or VmHWM sampled every 50 ms if higher), and its VmRSS when
  ${cfg.issue29.baseItems} branches had finished (counted in the \`--json\` stream as it comes): "flat" is a
  growth from there to the peak of at most 10%.
- **Ledger weight** (\`ledger-weight.ts\`): the ${cfg.issue29.baseItems}-item map's ledger.sqlite copied with
  \`VACUUM INTO\` (live pages only, WAL folded in), its size / items; and a two-node graph whose script
  prints 4 KiB of random base64 the next node needs: the copies of that text in every text and blob value of
  every table (read through SQL: a value over a page spills onto overflow pages, so raw file bytes hold no
  whole copy; an output stored compressed counts 0 and the row says so).
- **Resume and the state file** (\`resume-growth.ts\`): maps of ${cfg.issue29.growthSizes.join(" and ")} items whose last
  item interrupts vouch once; CPU of \`vouch resume\` (user + sys, with children) against \`vouch show RUN --json\`,
  and the bytes of item 0's state file at each size. One run each.
- **Unknown needs** (\`unknown-needs-growth.ts\`): \`vouch validate\` of ${cfg.issue29.growthSizes.join(" and ")} nodes each
  needing an unknown node; CPU time (user + sys) is judged, not wall time, on a machine other work shares.
- **Fleet** (\`fleet-cost.ts\`): a real redis-server on a loopback port, one \`vouch worker\` of 8 jobs, the
  overhead graph over ${cfg.issue29.fleetItems} items with \`--executor\`; per branch, the coordinator's wall and the CPU of
  coordinator + worker (with the scripts it reaped) + redis-server from /proc, ${reps} repetitions after a warm-up.
`;
}

export function writeResults(md: string): void {
  const file = join(ROOT, "bench", "results.md");
  const kept = existsSync(file)
    ? (readFileSync(file, "utf8").match(/<!-- bench\/[\w-]+\.ts -->[\s\S]*?<!-- \/bench\/[\w-]+\.ts -->/g) ?? [])
    : [];
  writeFileSync(file, kept.length > 0 ? `${md.trimEnd()}\n\n${kept.join("\n\n")}\n` : md);
}
