// Writing what `vouch init` made, never over something without asking: an
// existing file is replaced only after a yes on the terminal or with --yes, and
// without a terminal (a script, CI) it is refused (exit 2) naming --yes. Only a
// regular file is ever replaced: a link is refused, since writing through it
// would change the file it points at, wherever that is. Each file is written to
// a new temporary file beside it and renamed over the old one, so an
// interrupted init leaves either the old file or the new one, never half.
import { lstatSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { UsageError } from "../../engine/errors.ts";
import type { CliIO } from "../io.ts";

export interface FileToWrite {
  name: string;
  path: string;
  text: string;
}

function kindOf(path: string): "none" | "file" | string {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return "none";
  }
  if (st.isFile()) return "file";
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isDirectory()) return "a directory";
  return "not a regular file";
}

const both = (names: string[]) => (names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/** The files that exist already; refuses (exit 2) one that is not a regular file. */
export function existing(files: readonly FileToWrite[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const kind = kindOf(f.path);
    if (kind === "none") continue;
    if (kind !== "file")
      throw new UsageError(
        `${f.name} exists and is ${kind}: vouch init replaces only a regular file`,
        `move ${f.name} away, then run vouch init again (or --dry-run to print what it would write)`,
      );
    out.push(f.name);
  }
  return out;
}

async function ask(io: CliIO, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.streams.stdin, output: io.streams.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.question(question, resolve);
      rl.once("close", () => resolve("")); // end of input (Ctrl-D) is a no
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

/** Whether to go on: nothing exists, --yes, or a yes on the terminal. Refuses without one. */
export async function mayReplace(io: CliIO, names: string[], yes: boolean): Promise<boolean> {
  if (names.length === 0 || yes) return true;
  const they = names.length === 1 ? "it" : "them";
  if (!io.stdinIsTTY)
    throw new UsageError(
      `${both(names)} ${names.length === 1 ? "exists" : "exist"} already; vouch init replaces ${they} only when asked, and there is no terminal to ask on`,
      `add --yes to replace ${they}, or --dry-run to print what would be written`,
    );
  return ask(io, `${both(names)} ${names.length === 1 ? "exists" : "exist"}. Replace ${they}? [y/N] `);
}

export function writeAll(files: readonly FileToWrite[]): void {
  for (const f of files) {
    const tmp = join(dirname(f.path), `.${f.name}.${process.pid}.${Date.now()}.tmp`);
    try {
      writeFileSync(tmp, f.text, { flag: "wx", mode: 0o644 });
      renameSync(tmp, f.path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw new UsageError(`cannot write ${f.name}: ${(e as Error).message}`, "run vouch init in a folder you can write");
    }
  }
}
