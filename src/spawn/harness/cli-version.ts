// Which version of an agent CLI is installed. An npm install is read from the
// package.json next to the program (no process started: `vouch harnesses`
// stays instant); anything else is asked with `PROGRAM --version` through
// the spawn seam, with a short wall cap and a throwaway environment: PATH and
// a fresh empty HOME, so the CLI reads none of the user's settings or
// credentials (~/.codex/auth.json, ~/.gemini/oauth_creds.json, ~/.claude).
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runProcess } from "../process.ts";
import type { HarnessName } from "../../engine/ports.ts";
import { TESTED_VERSIONS, versionIn } from "./tested-versions.ts";

export interface InstalledVersion {
  version: string | null;
  /** Where the version came from, or why it is unknown. */
  source: "package.json" | "--version" | "unknown";
}

/** The version in the package.json of `pkg` that holds `program`, walking up from its real path. */
export function versionFromPackage(program: string, pkg: string): string | null {
  let dir: string;
  try {
    dir = dirname(realpathSync(program));
  } catch {
    return null;
  }
  for (let i = 0; i < 8; i++) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const json = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown; version?: unknown };
        if (json.name === pkg && typeof json.version === "string") return json.version;
      } catch {
        // not a readable manifest: keep walking up
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

export async function installedVersion(cli: HarnessName, program: string, env: { PATH?: string | undefined }): Promise<InstalledVersion> {
  const pkg = TESTED_VERSIONS[cli]?.package;
  const fromPackage = pkg ? versionFromPackage(program, pkg) : null;
  if (fromPackage) return { version: fromPackage, source: "package.json" };
  const home = mkdtempSync(join(tmpdir(), "vouch-version-"));
  const ran = await runProcess(
    { argv: [program, "--version"] },
    { cwd: home, env: { PATH: env.PATH ?? "/usr/bin:/bin", HOME: home }, wallMs: 20_000, keepBytes: 4096 },
  ).finally(() => rmSync(home, { recursive: true, force: true }));
  const version = ran.exit === 0 ? versionIn(ran.stdoutTail) : null;
  return version ? { version, source: "--version" } : { version: null, source: "unknown" };
}
