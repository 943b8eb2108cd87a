// Writing a report to a file: `-o FILE` of `vouch report` and `--report
// FORMAT:FILE` of `vouch run`/`vouch resume`. A path that cannot be written is
// the user's to fix: a UsageError (exit 2) naming the path and why.
import { accessSync, constants, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "../engine/errors.ts";
import { reportFormat, type ReportFormat } from "./render.ts";

export interface ReportTarget {
  format: ReportFormat;
  /** Absolute path. */
  file: string;
}

const WHY: Record<string, string> = {
  ENOENT: "its folder does not exist",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a folder",
  EROFS: "the file system is read-only",
  ENOTDIR: "a part of the path is not a folder",
  ENOSPC: "the disk is full",
};

function cannotWrite(file: string, code: string | undefined, flag: string): UsageError {
  return new UsageError(
    `${flag} ${file}: cannot write the report: ${WHY[code ?? ""] ?? code ?? "unknown error"}`,
    "give a path in a folder you can write to",
  );
}

/** Fails now (before a run starts) when the report could not be written later. */
export function checkWritable(file: string, flag: string): void {
  try {
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw Object.assign(new Error(), { code: "EISDIR" });
    accessSync(dirname(file), constants.W_OK);
    const existing = statSync(file, { throwIfNoEntry: false });
    if (existing) accessSync(file, constants.W_OK);
  } catch (e) {
    throw cannotWrite(file, (e as NodeJS.ErrnoException).code, flag);
  }
}

export function writeReport(file: string, text: string, flag: string): void {
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw cannotWrite(file, (e as NodeJS.ErrnoException).code, flag);
  }
}

/** `--report html:out/report.html` (repeatable); each checked writable now. */
export function reportTargets(values: string[] | undefined, cwd: string): ReportTarget[] {
  const targets = (values ?? []).map((v) => {
    const colon = v.indexOf(":");
    if (colon <= 0 || colon === v.length - 1) {
      throw new UsageError(`--report "${v}": give FORMAT:FILE, like html:report.html or junit:junit.xml`, "see: vouch run --help");
    }
    const format = reportFormat(v.slice(0, colon), "--report");
    const file = resolve(cwd, v.slice(colon + 1));
    checkWritable(file, "--report");
    return { format, file };
  });
  // The later report would silently replace the earlier: a CI reading junit.xml would get HTML.
  targets.forEach((t, i) => {
    const first = targets.findIndex((o) => o.file === t.file);
    if (first < i)
      throw new UsageError(`--report ${t.file}: given twice (${targets[first]!.format} and ${t.format})`, "give each report its own file");
  });
  return targets;
}
