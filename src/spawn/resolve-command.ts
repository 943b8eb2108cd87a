// Checks a command before it is started, so a missing working directory or
// binary becomes one clear sentence instead of a spawn error: what is missing,
// and where vouch looked.
import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { Command } from "./process-types.ts";

/** Shell strings run with the system shell, found by absolute path (a child's PATH may be minimal). */
export const SHELL_PATH = "/bin/sh";

/** The system shell was found executable once: not looked at again for every command (two calls
 *  each, ADR 0085). Should it vanish later, its start fails with the system's own reason. */
let shellFound = false;

export type Resolved = { ok: true; argv: string[]; cwd: string } | { ok: false; error: string };

export function resolveCommand(command: Command, cwd: string, env: Record<string, string>): Resolved {
  const dir = resolve(cwd);
  const dirProblem = directoryProblem(dir);
  if (dirProblem) return { ok: false, error: `working directory ${dir} ${dirProblem}` };

  if ("shell" in command) {
    if (!shellFound && !(shellFound = isExecutable(SHELL_PATH)))
      return { ok: false, error: `cannot run a shell command: ${SHELL_PATH} is missing or not executable` };
    return { ok: true, argv: [SHELL_PATH, "-c", command.shell], cwd: dir };
  }
  const [program, ...args] = command.argv;
  if (program === undefined || program === "") return { ok: false, error: "empty command: argv has no program" };

  if (program.includes("/")) {
    const path = isAbsolute(program) ? program : resolve(dir, program);
    if (!isExecutable(path)) return { ok: false, error: `command not found: ${program} (${path} is missing or not executable)` };
    return { ok: true, argv: [path, ...args], cwd: dir };
  }
  const searched = env.PATH ?? "";
  const found = Bun.which(program, { PATH: searched, cwd: dir });
  if (!found) {
    return { ok: false, error: `command not found: ${program} (searched PATH=${searched === "" ? "(empty)" : searched})` };
  }
  return { ok: true, argv: [found, ...args], cwd: dir };
}

function directoryProblem(dir: string): string | null {
  try {
    if (!statSync(dir).isDirectory()) return "is not a directory";
    return null;
  } catch {
    return "does not exist";
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
