// `vouch validate` of N nodes each needing an unknown node (issue 29, ADR 0054): every
// problem carries a did-you-mean, which compared the unknown name with every node (N²).
// Reported per size: CPU and wall of one `vouch validate` (exit 2, N problems).
//   bun bench/unknown-needs-growth.ts [--sizes 1000,2000,8000] [--vouch PATH]...
// Several --vouch side by side (e.g. a build of main and this one).
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempFolder, VOUCH } from "./lib/measure.ts";

export function unknownNeedsGraph(n: number): string {
  const lines = ["version: 1", "name: big", "nodes:"];
  for (let i = 0; i < n; i++) lines.push(`  n${i}: { kind: end, status: success, needs: [x${i}] }`);
  return `${lines.join("\n")}\n`;
}

export function validateUnknownNeeds(vouch: string, n: number): { cpuMs: number; wallMs: number } {
  const dir = tempFolder("vouch-bench-unknown-");
  try {
    const file = join(dir.path, "g.yaml");
    writeFileSync(file, unknownNeedsGraph(n));
    const start = performance.now();
    const r = Bun.spawnSync([vouch, "validate", file], { stdout: "ignore", stderr: "ignore" });
    const wallMs = performance.now() - start;
    if (r.exitCode !== 2) throw new Error(`vouch validate exited ${r.exitCode}, expected 2`);
    return { cpuMs: Number(r.resourceUsage.cpuTime.total) / 1000, wallMs };
  } finally {
    dir.remove();
  }
}

if (import.meta.main) {
  const arg = (name: string) => process.argv.flatMap((a, i) => (a === name ? [process.argv[i + 1]!] : []));
  const sizes = (arg("--sizes")[0] ?? "1000,2000,8000").split(",").map(Number);
  const builds = arg("--vouch").length > 0 ? arg("--vouch").map((v) => resolve(v)) : [VOUCH];
  for (const n of sizes) {
    for (const vouch of builds) {
      const r = validateUnknownNeeds(vouch, n);
      console.log(`${vouch}: ${n} nodes each needing an unknown node: cpu ${r.cpuMs.toFixed(0)} ms, wall ${r.wallMs.toFixed(0)} ms`);
    }
  }
}
