// Resume of an interrupted N-item map, and the bytes of a branch's state file
// (issue 29, ADR 0054): `vouch run` of a map of N items whose last item interrupts
// vouch (SIGINT to its parent, once), then `vouch resume` of that run, which keeps the
// N-1 passed branches and runs the last one again. Reported per size: the CPU of the
// resume, the CPU of reading the run back (`vouch show RUN --json`, the issue's
// yardstick: resume within 2× of it), and the bytes of item 0's state file.
//   bun bench/resume-growth.ts [--sizes 1000,2000,8000] [--vouch PATH]...
// Several --vouch side by side (e.g. a build of main and this one), sizes interleaved.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expectExit, measure, tempFolder, VOUCH, vouchEnv } from "./lib/measure.ts";

const GRAPH = `version: 1
name: resume-growth
inputs:
  items: { required: true }
  out: { required: true }
concurrency: 8
nodes:
  each:
    kind: map
    over: inputs.items
    as: item
    branch:
      work:
        kind: script
        run: |
          case "$(cat "$VOUCH_ITEM_FILE")" in
            '"item-0"') wc -c < "$VOUCH_STATE_FILE" > "$VOUCH_INPUT_OUT/state-bytes" ;;
            '"last"') if mkdir "$VOUCH_INPUT_OUT/stopped" 2>/dev/null; then kill -INT $PPID; sleep 30; fi ;;
          esac
`;

export interface ResumeGrowth {
  vouch: string;
  items: number;
  runCpuMs: number;
  resumeCpuMs: number;
  resumeWallMs: number;
  showCpuMs: number;
  stateBytes: number;
}

export async function resumeGrowth(vouch: string, items: number): Promise<ResumeGrowth> {
  const dir = tempFolder("vouch-bench-resume-");
  try {
    const graph = join(dir.path, "g.yaml");
    writeFileSync(graph, GRAPH);
    const lines = [...Array.from({ length: items - 1 }, (_, i) => `item-${i}`), "last"].join("\n");
    writeFileSync(join(dir.path, "items.txt"), `${lines}\n`);
    const env = vouchEnv(dir.path);
    const args = ["-i", `items=@${join(dir.path, "items.txt")}`, "-i", `out=${dir.path}`];
    const first = expectExit(
      await measure([vouch, "run", graph, "--json", ...args], { cwd: dir.path, env, keepStdout: true }),
      130,
      "vouch run",
    );
    const runId = (JSON.parse(first.stdout.split("\n")[0]!) as { run: string }).run;
    const resumed = expectExit(await measure([vouch, "resume", runId, "--json"], { cwd: dir.path, env }), 0, "vouch resume");
    const show = expectExit(await measure([vouch, "show", runId, "--json"], { cwd: dir.path, env }), 0, "vouch show");
    return {
      vouch,
      items,
      runCpuMs: first.cpuMs,
      resumeCpuMs: resumed.cpuMs,
      resumeWallMs: resumed.wallMs,
      showCpuMs: show.cpuMs,
      stateBytes: Number(readFileSync(join(dir.path, "state-bytes"), "utf8").trim()),
    };
  } finally {
    dir.remove();
  }
}

if (import.meta.main) {
  const arg = (name: string) => process.argv.flatMap((a, i) => (a === name ? [process.argv[i + 1]!] : []));
  const sizes = (arg("--sizes")[0] ?? "1000,2000,8000").split(",").map(Number);
  const builds = arg("--vouch").length > 0 ? arg("--vouch").map((v) => resolve(v)) : [VOUCH];
  for (const items of sizes) {
    for (const vouch of builds) {
      const r = await resumeGrowth(vouch, items);
      console.log(
        `${vouch}: ${items} items: resume cpu ${r.resumeCpuMs.toFixed(0)} ms (wall ${r.resumeWallMs.toFixed(0)} ms), ` +
          `show --json cpu ${r.showCpuMs.toFixed(0)} ms, resume/show ${(r.resumeCpuMs / r.showCpuMs).toFixed(2)}×, ` +
          `first run cpu ${r.runCpuMs.toFixed(0)} ms, item 0's state file ${r.stateBytes} bytes`,
      );
    }
  }
}
