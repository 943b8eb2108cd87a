// For the release tests: `npm run release` run once into a temporary folder,
// and npm installs from its tarballs into empty prefixes, offline, with a PATH
// that has no Bun on it (node_modules/.bin left out), as a user's machine has.
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "../e2e/helpers.ts";
import pkg from "../../package.json";

export const VERSION = pkg.version;

export interface Done {
  code: number;
  out: string;
  err: string;
}

export function sh(argv: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Done {
  const r = Bun.spawnSync(argv, {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? (process.env as Record<string, string>),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: r.exitCode ?? -1, out: r.stdout.toString(), err: r.stderr.toString() };
}

/** `npm run release -- --out DIR`: the real command, building every target. */
export function runRelease(out: string): Done & { seconds: number } {
  const started = performance.now();
  const r = sh(["npm", "run", "--silent", "release", "--", "--out", out]);
  return { ...r, seconds: (performance.now() - started) / 1000 };
}

/** The folder of the real Node on PATH: under `bun --bun`, the first `node` is Bun itself. */
function realNodeDir(): string {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const node = join(dir, "node");
    if (dir.includes("node_modules") || !existsSync(node)) continue;
    if (!/^bun(\.exe)?$/.test(realpathSync(node).split("/").at(-1)!)) return dir;
  }
  throw new Error("no Node.js on PATH: the npm launcher runs under Node");
}

/** A PATH without Bun: the prefix's bin, the real Node's folder (npm's too), the system's. */
export function pathWithoutBun(prefixBin: string): string {
  return [...new Set([prefixBin, realNodeDir(), "/usr/bin", "/bin"])].join(":");
}

export interface Prefix {
  path: string;
  bin: string;
  env: Record<string, string>;
  /** How `npm install` went. */
  install: Done;
  cleanup(): void;
}

/** `npm install -g --prefix` of the given tarballs into an empty folder, offline, with its own npm cache. */
export function installGlobal(tarballs: string[], extra: string[] = []): Prefix {
  const path = mkdtempSync(join(tmpdir(), "vouch-prefix-"));
  const bin = join(path, "bin");
  const env = { PATH: pathWithoutBun(bin), HOME: path, npm_config_cache: join(path, ".npm-cache"), npm_config_update_notifier: "false" };
  const install = sh(["npm", "install", "--global", "--prefix", path, "--offline", "--no-audit", "--no-fund", ...extra, ...tarballs], {
    cwd: path,
    env,
  });
  return { path, bin, env, install, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
