// THE way vouch reads a file a user named (a graph, `-i NAME=@FILE`, a replay
// fixture): regular files only, and never more than a limit. Without it
// `vouch validate /dev/zero` grew past 2 GB, and a FIFO as the graph blocked
// for ever (docs/adr/0016-large-inputs-and-bounded-reads.md).
//   - The file is opened with O_NONBLOCK, so opening a FIFO returns at once
//     (a plain open waits for a writer); then fstat on the open descriptor (no
//     race with a rename) refuses anything but a regular file.
//   - The size fstat reports is checked first (an oversize sparse file costs
//     nothing), and the read stops one byte past the limit anyway: a file that
//     grows while it is read, or a /proc file that reports size 0, is bounded too.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { InputError, UsageError } from "../engine/errors.ts";

const MiB = 1024 * 1024;
export const DEFAULT_MAX_GRAPH_BYTES = 4 * MiB;
export const DEFAULT_MAX_INPUT_BYTES = 64 * MiB;
/** Environment variables that raise (or lower) the limits. */
export const MAX_GRAPH_ENV = "VOUCH_MAX_GRAPH_BYTES";
export const MAX_INPUT_ENV = "VOUCH_MAX_INPUT_BYTES";

export interface FileLimits {
  graphBytes: number;
  inputBytes: number;
}

const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, kib: 1024, m: MiB, mib: MiB, g: 1024 * MiB, gib: 1024 * MiB };

/** "64MiB", "10m", "500000" → bytes; undefined when not a size. */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) return undefined;
  const bytes = Number(m[1]) * unit;
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

function limitFrom(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const bytes = parseByteSize(raw);
  if (bytes === undefined)
    throw new UsageError(`${name}="${raw}" is not a size`, `write a number of bytes, or one with a unit: ${name}=20MiB`);
  return bytes;
}

/** The limits in force: the defaults, or VOUCH_MAX_GRAPH_BYTES / VOUCH_MAX_INPUT_BYTES. */
export function fileLimits(env: Record<string, string | undefined>): FileLimits {
  return {
    graphBytes: limitFrom(env, MAX_GRAPH_ENV, DEFAULT_MAX_GRAPH_BYTES),
    inputBytes: limitFrom(env, MAX_INPUT_ENV, DEFAULT_MAX_INPUT_BYTES),
  };
}

export function formatBytes(n: number): string {
  if (n >= 1024 * MiB) return `${+(n / (1024 * MiB)).toFixed(1)} GiB`;
  if (n >= MiB) return `${+(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a pipe (FIFO)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

export interface LimitedRead {
  /** What is read, for messages: "graph file g.yaml", "--input x=@big.txt". */
  what: string;
  maxBytes: number;
  /** How to raise the limit, for the hint. */
  raise: string;
  /** The hint when the file cannot be read or is not a regular file. */
  unreadable?: string;
}

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  if (code === "ELOOP") return "too many symbolic links";
  return (e as Error).message;
}

/** The bytes of a regular file of at most maxBytes; anything else → InputError (exit 2). */
export function readLimited(path: string, r: LimitedRead): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    // A Unix socket (or a device with nothing behind it) cannot be opened at all: ENXIO. Name its kind.
    const st = (e as NodeJS.ErrnoException).code === "ENXIO" ? statSync(path, { throwIfNoEntry: false }) : undefined;
    if (st && !st.isFile())
      throw new InputError(
        `cannot read ${r.what}: it is ${kindOf(st)}, not a regular file`,
        r.unreadable ?? "name a regular file (vouch does not read pipes or devices)",
      );
    throw new InputError(`cannot read ${r.what}: ${reason(e)}`, r.unreadable);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new InputError(
        `cannot read ${r.what}: it is ${kindOf(st)}, not a regular file`,
        r.unreadable ?? "name a regular file (vouch does not read pipes or devices)",
      );
    const tooBig = () => new InputError(`${r.what} is over the limit of ${formatBytes(r.maxBytes)}`, r.raise);
    if (st.size > r.maxBytes)
      throw new InputError(`${r.what} is ${formatBytes(st.size)}, over the limit of ${formatBytes(r.maxBytes)}`, r.raise);
    return readUpTo(fd, r.maxBytes, st.size, tooBig);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read ${r.what}: ${reason(e)}`, r.unreadable);
  } finally {
    closeSync(fd);
  }
}

/** Reads to the end, throwing tooBig() once more than max bytes have come. */
function readUpTo(fd: number, max: number, sizeHint: number, tooBig: () => Error): Uint8Array {
  let buf = new Uint8Array(Math.min(max, sizeHint) + 1);
  let len = 0;
  for (;;) {
    if (len === buf.length) {
      if (len > max) throw tooBig();
      const bigger = new Uint8Array(Math.min(max + 1, Math.max(64 * 1024, buf.length * 2)));
      bigger.set(buf);
      buf = bigger;
    }
    const n = readSync(fd, buf, len, buf.length - len, null);
    if (n === 0) break;
    len += n;
  }
  if (len > max) throw tooBig();
  return buf.subarray(0, len);
}
