// `npm run profile -- GRAPH [vouch run options...]`: runs `vouch run GRAPH ...`
// under Bun's CPU profiler and prints where the time went (docs/profiling.md).
//   --binary        profile the compiled dist/vouch (minified names) instead of src/cli.ts
//   --out DIR       where the .cpuprofile goes (default: a new folder in the system temp dir)
//   --command NAME  profile `vouch NAME GRAPH ...` instead of `vouch run` (e.g. validate: start-up, ADR 0031)
// Everything else is handed to `vouch run` as is (e.g. --json, -i items=@file).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { renderSummary, summarize, type CpuProfile } from "./summarize.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");
const args = process.argv.slice(2);

function take(flag: string): string | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith("-")) fail(`${flag} needs a value`);
  args.splice(i, 2);
  return value;
}

function fail(message: string): never {
  console.error(
    `vouch profile: ${message}\nusage: npm run profile -- GRAPH [--binary] [--out DIR] [--command NAME] [vouch run options...]`,
  );
  process.exit(2);
}

const binary = args.includes("--binary");
if (binary) args.splice(args.indexOf("--binary"), 1);
const out = resolve(take("--out") ?? mkdtempSync(join(tmpdir(), "vouch-profile-")));
const command = take("--command") ?? "run";
if (args.length === 0 || args[0]!.startsWith("-")) fail("name the graph to run");

const profiler = `--cpu-prof --cpu-prof-dir=${out}`;
const argv = binary
  ? [join(ROOT, "dist", "vouch"), command, ...args]
  : [process.execPath, "--cpu-prof", `--cpu-prof-dir=${out}`, join(ROOT, "src", "cli.ts"), command, ...args];
const env = binary ? { ...process.env, BUN_OPTIONS: `${process.env.BUN_OPTIONS ?? ""} ${profiler}`.trim() } : process.env;
const child = Bun.spawnSync(argv, { env, stdin: "inherit", stdout: "ignore", stderr: "inherit" });
const file = readdirSync(out)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort()
  .pop();
if (!file) fail(`no profile was written in ${out} (vouch exited ${child.exitCode})`);
const path = join(out, file);
console.log(renderSummary(summarize(JSON.parse(readFileSync(path, "utf8")) as CpuProfile)));
console.log(
  `\nvouch exited ${child.exitCode}; the profile: ${path}\n(open it in Chrome DevTools → Performance, or https://www.speedscope.app)`,
);
