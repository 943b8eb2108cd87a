// `vouch validate` of a valid graph never loads zod nor builds the graph schema (ADR 0083):
// the fast check (src/engine/graph/schema-fast.ts) reads it, and zod is required only for
// a graph the fast check is not sure of, to say what is wrong. Observed in a fresh Bun
// process running the real command (vitest itself has loaded zod): the modules Bun loaded.
import { afterAll, expect, test } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "vouch-startup-zod-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = join(dir, "probe.ts");
writeFileSync(
  SCRIPT,
  `const { main } = await import(${JSON.stringify(join(ROOT, "src", "cli.ts"))});
const io = { out: () => {}, err: () => {}, stdoutIsTTY: false, stdinIsTTY: false, env: { PATH: process.env.PATH, VOUCH_HOME: ${JSON.stringify(join(dir, "home"))} }, cwd: ${JSON.stringify(dir)}, streams: process };
const code = await main(["validate", ...process.argv.slice(2)], io);
const zod = Object.keys(require.cache).filter((k) => /[\\\\/]zod[\\\\/]/.test(k) || k.endsWith("schema.ts") || k.endsWith("graph-zod.ts"));
console.log(JSON.stringify({ code, zod }));
`,
);

function probe(...files: string[]): { code: number; zod: string[] } {
  const r = Bun.spawnSync([process.execPath, SCRIPT, ...files], { cwd: dir, stderr: "pipe" });
  expect(r.exitCode, r.stderr.toString()).toBe(0);
  return JSON.parse(r.stdout.toString().trim().split("\n").pop()!);
}

test("validate of the shipped graphs and checks file loads no zod module", () => {
  const files = ["finding-verifier", "parallel-review", "plan", "step-runner"].map((g) => join(ROOT, "graphs", `${g}.yaml`));
  expect(probe(...files, join(ROOT, "examples", "sample-repo", "vouch.checks.yaml"))).toEqual({ code: 0, zod: [] });
});

test("an invalid graph loads zod, which says what is wrong (the probe can fail)", () => {
  const bad = join(dir, "bad.yaml");
  writeFileSync(bad, "version: 1\nname: bad\nnodes:\n  a: { kind: agent, promt: hi }\n");
  const r = probe(bad);
  expect(r.code).toBe(2);
  expect(r.zod.some((m) => m.endsWith("graph-zod.ts"))).toBe(true);
  expect(r.zod.some((m) => /[\\/]zod[\\/]/.test(m))).toBe(true);
});
