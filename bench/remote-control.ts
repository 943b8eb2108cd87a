// What operating a run from another process costs (issue 31, ADR 0062/0063):
//  1. one follow poll that finds nothing new, on a ledger holding a run of N events
//     (the range read vouch watch does every 100 ms), and catching up on all N;
//  2. the CPU a `vouch watch --json` process spends following a run that is quiet
//     for S seconds (a script sleeping), from its start to the run's end;
//  3. how long `vouch cancel` takes, from its start until the run has ended
//     (its children stopped, run.finished recorded), for a 4-branch map of sleeps.
//   bun bench/remote-control.ts [--events 100000] [--quiet 5]
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openLedger } from "../src/ledger/index.ts";
import { RunScript } from "../test/ledger/events-fixture.ts";

const ROOT = join(import.meta.dirname, "..");
const BINARY = join(ROOT, "dist", "vouch");
const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
if (!existsSync(BINARY)) {
  console.error("dist/vouch is missing: run `bun run build.ts` first");
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "vouch-remote-bench-"));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, VOUCH_HOME: join(dir, ".vouch") };

function polls(n: number): void {
  const ledger = openLedger({ home: join(dir, "poll") });
  const s = new RunScript("r-bench");
  s.started();
  for (let i = 0; i < n; i++) s.ev("node.progress", { node: "a", attempt: 1, turns: i }, 1);
  for (let i = 0; i < s.events.length; i += 5000) ledger.write(s.events.slice(i, i + 5000));
  const last = s.events.length - 1;
  const t0 = performance.now();
  const N = 10_000;
  for (let i = 0; i < N; i++) ledger.eventsAfter("r-bench", last, 1000);
  const perPoll = ((performance.now() - t0) / N) * 1000;
  const t1 = performance.now();
  let seq = -1;
  let read = 0;
  for (;;) {
    const got = ledger.eventsAfter("r-bench", seq, 1000);
    if (got.length === 0) break;
    read += got.length;
    seq = got[got.length - 1]!.event.seq;
  }
  const catchUp = performance.now() - t1;
  for (let i = 0; i < 1000; i++) ledger.requests.cancel(`other-${i % 50}`, "command", { user: "u", host: "h", pid: 1 }, "t");
  const t2 = performance.now();
  for (let i = 0; i < N; i++) ledger.requests.after("r-bench", 0);
  const perRequestPoll = ((performance.now() - t2) / N) * 1000;
  ledger.close();
  console.log(
    `1. a ledger run of ${s.events.length} events: an empty poll ${perPoll.toFixed(1)} µs; catching up on all ${read} (batches of 1000) ${catchUp.toFixed(0)} ms`,
  );
  console.log(`   the session's poll of the requests table (1,000 rows of other runs): ${perRequestPoll.toFixed(1)} µs, 4 a second`);
}

async function quietWatch(seconds: number): Promise<void> {
  const file = join(dir, "quiet.yaml");
  writeFileSync(file, `version: 1\nname: quiet\nnodes:\n  wait: { kind: script, run: "sleep ${seconds}" }\n`);
  const run = Bun.spawn([BINARY, "run", file, "--json"], { cwd: dir, env, stdout: "pipe", stderr: "ignore" });
  const reader = run.stdout.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  const id = /"run":"([^"]+)"/.exec(first)![1]!;
  const watch = Bun.spawn([BINARY, "watch", id, "--json"], { cwd: dir, env, stdout: "ignore", stderr: "ignore" });
  await watch.exited;
  await run.exited;
  const u = watch.resourceUsage()!;
  const cpuMs = (Number(u.cpuTime.user) + Number(u.cpuTime.system)) / 1000;
  console.log(
    `2. vouch watch --json following a run quiet for ${seconds} s: ${cpuMs.toFixed(0)} ms of CPU (user + system), start-up included`,
  );
}

async function cancelTime(): Promise<void> {
  const file = join(dir, "map.yaml");
  writeFileSync(
    file,
    `version: 1\nname: long\nnodes:\n  items: { kind: script, run: "echo '[1,2,3,4]'", output: { format: json } }\n  each:\n    kind: map\n    needs: [items]\n    over: nodes.items.output\n    branch:\n      work: { kind: script, run: "sleep 60" }\n`,
  );
  const run = Bun.spawn([BINARY, "run", file, "--json"], { cwd: dir, env, stdout: "pipe", stderr: "ignore" });
  const reader = run.stdout.getReader();
  let out = "";
  while ((out.match(/"type":"node.started","node":"work"/g) ?? []).length < 4) out += new TextDecoder().decode((await reader.read()).value);
  const id = /"run":"([^"]+)"/.exec(out)![1]!;
  const t0 = performance.now();
  const c = Bun.spawn([BINARY, "cancel", id], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  const code = await c.exited;
  const ms = performance.now() - t0;
  void reader.cancel();
  console.log(
    `3. vouch cancel of a 4-branch map of sleep 60: returned (exit ${code}) ${ms.toFixed(0)} ms after it started; the run exited ${await run.exited}`,
  );
}

try {
  polls(flag("--events", 100_000));
  await quietWatch(flag("--quiet", 5));
  await cancelTime();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
