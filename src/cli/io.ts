// What a command needs from the process it runs in, so commands can be driven
// in-process by tests and by the real binary alike.
import { isatty } from "node:tty";
import { stdoutClosed } from "./stdout-closed.ts";
import { stdoutWriter } from "./stdout-writer.ts";

export interface CliIO {
  /** Write to stdout (data: NDJSON, tables, schemas). */
  out(text: string): void;
  /** Write to stderr (human messages, progress). */
  err(text: string): void;
  stdoutIsTTY: boolean;
  stdinIsTTY: boolean;
  /** vouch's environment: children get what buildChildEnv lets through of it. */
  env: Record<string, string | undefined>;
  cwd: string;
  /** The streams themselves, for the live UI (it draws on stdout, reads keys from stdin, Ink writes to stderr). */
  streams: CliStreams;
}

export interface CliStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export type Command = (args: string[], io: CliIO) => Promise<number>;

export function processIO(): CliIO {
  // A terminal keeps process.stdout (the live UI draws on the same stream); a pipe or a
  // file is written synchronously, so a slow reader holds vouch back instead of its memory
  // growing with what is unread (ADR 0086).
  const tty = Boolean(process.stdout.isTTY);
  return {
    out: tty ? (text) => void process.stdout.write(text) : stdoutWriter(stdoutClosed),
    err: (text) => void process.stderr.write(text),
    stdoutIsTTY: tty,
    // isatty(0), not process.stdin.isTTY: reading that builds the stdin stream, which
    // `vouch --version` and `vouch validate` never read (ADR 0031).
    stdinIsTTY: isatty(0),
    env: process.env,
    cwd: process.cwd(),
    streams: {
      get stdin() {
        return process.stdin;
      },
      stdout: process.stdout,
      stderr: process.stderr,
    },
  };
}
