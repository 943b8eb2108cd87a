// The drift job (ADR 0052, docs/real-clis.md "Drift"): are the agent CLIs users
// install today still the ones vouch's contract holds for? It asks the registry
// for the newest version of every package clis/package.json pins, installs them
// into a temp folder, runs the contract suite (test/contract/) against them and
// against the pinned set, and prints two tables: the versions, and the tests
// whose outcome differs ("no difference" when none does). Run weekly by
// .github/workflows/cli-drift.yml; by hand: `bun scripts/cli-drift.ts`.
//
//   --out FILE        also write the report (Markdown) to FILE
//   --always-install  install the newest into a temp folder even when they are the pinned versions
//   --keep            keep the temp folder
//   --tests PATH      the tests to run (default test/contract; repeatable)
//
// Exit 0: no difference; 1: differences; 2: usage; 3: the job could not run.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { differences, outcomesOf, report, type Outcomes, type VersionRow } from "./cli-drift/compare.ts";

const ROOT = resolve(import.meta.dirname, "..");
const PINNED_DIR = join(ROOT, "clis");

class DriftError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

interface Options {
  out?: string;
  alwaysInstall: boolean;
  keep: boolean;
  tests: string[];
}

function options(argv: string[]): Options {
  const o: Options = { alwaysInstall: false, keep: false, tests: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("-")) throw new DriftError(`${a} needs a value`, 2);
      return v;
    };
    if (a === "--out") o.out = resolve(value());
    else if (a === "--tests") o.tests.push(value());
    else if (a === "--always-install") o.alwaysInstall = true;
    else if (a === "--keep") o.keep = true;
    else throw new DriftError(`unknown option ${a} (options: --out FILE, --always-install, --keep, --tests PATH)`, 2);
  }
  if (o.tests.length === 0) o.tests.push("test/contract");
  return o;
}

function run(argv: string[], o: { cwd?: string; env?: Record<string, string | undefined>; show?: boolean } = {}) {
  const p = Bun.spawnSync(argv, {
    cwd: o.cwd ?? ROOT,
    env: o.env ?? process.env,
    stdin: "ignore",
    stdout: o.show ? "inherit" : "pipe",
    stderr: o.show ? "inherit" : "pipe",
  });
  return { code: p.exitCode, stdout: p.stdout?.toString() ?? "", stderr: p.stderr?.toString() ?? "" };
}

function pinnedVersions(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(PINNED_DIR, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  return manifest.dependencies ?? {};
}

/** What the registry calls the newest version of `pkg`, asked with npm's own client. */
function newestVersion(pkg: string): string {
  const r = run(["npm", "view", `${pkg}@latest`, "version"]);
  const v = r.stdout.trim().split("\n").at(-1)?.trim() ?? "";
  if (r.code !== 0 || !/^\d+\.\d+\.\d+/.test(v)) throw new DriftError(`npm view ${pkg}@latest failed: ${r.stderr.trim() || v}`, 3);
  return v;
}

/** A temp folder with the newest versions installed (its package.json pins them exactly). */
function installNewest(rows: VersionRow[]): string {
  const dir = mkdtempSync(join(tmpdir(), "vouch-cli-drift-"));
  const dependencies = Object.fromEntries(rows.map((r) => [r.package, r.newest]));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "vouch-cli-drift", private: true, dependencies }, null, 2)}\n`);
  console.error(`cli-drift: installing the newest versions into ${dir}`);
  const r = run(["npm", "install", "--no-audit", "--no-fund", "--prefix", dir], { show: true });
  if (r.code !== 0) throw new DriftError(`npm install of the newest versions failed (exit ${r.code})`, 3);
  return dir;
}

/** The contract suite's outcomes with the CLIs of `dir` first on PATH. */
function suite(dir: string, tests: string[], label: string, scratch: string): Outcomes {
  const file = join(scratch, `${label}.json`);
  console.error(`cli-drift: the contract suite against the ${label} set (${dir})`);
  const bun = join(ROOT, "node_modules", ".bin", "bun");
  run([bun, "--bun", "vitest", "run", ...tests, "--reporter=default", "--reporter=json", `--outputFile.json=${file}`], {
    env: { ...process.env, VOUCH_CONTRACT_CLIS: dir },
    show: true,
  });
  if (!existsSync(file)) throw new DriftError(`the contract suite against the ${label} set wrote no report (${file})`, 3);
  return outcomesOf(JSON.parse(readFileSync(file, "utf8")), ROOT);
}

function main(argv: string[]): number {
  const o = options(argv);
  if (!existsSync(join(PINNED_DIR, "node_modules", ".bin")))
    throw new DriftError("the pinned CLIs are not installed: run `npm run clis` first", 3);
  const rows: VersionRow[] = Object.entries(pinnedVersions()).map(([pkg, pinned]) => ({
    package: pkg,
    pinned,
    newest: newestVersion(pkg),
  }));
  const same = rows.every((r) => r.newest === r.pinned);
  const scratch = mkdtempSync(join(tmpdir(), "vouch-cli-drift-reports-"));
  let newestDir: string | null = null;
  try {
    if (!same || o.alwaysInstall) newestDir = installNewest(rows);
    else console.error("cli-drift: the newest versions are the pinned ones: the suite runs once, on clis/node_modules");
    const pinned = suite(PINNED_DIR, o.tests, "pinned", scratch);
    const newest = newestDir === null ? pinned : suite(newestDir, o.tests, "newest", scratch);
    const diff = differences(pinned, newest);
    const failedOnPinned = [...pinned.values()].filter((s) => s === "failed").length;
    const text = report(rows, diff, { tests: newest.size, failedOnPinned });
    process.stdout.write(text);
    if (o.out) writeFileSync(o.out, text);
    return diff.length === 0 ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (newestDir !== null && !o.keep) rmSync(newestDir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof DriftError)) throw e;
  console.error(`cli-drift: ${e.message}`);
  process.exitCode = e.code;
}
