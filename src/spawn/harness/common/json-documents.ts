// Turns stdout lines into JSON values. Harnesses print one object per line
// (stream-json), one array on a line (Claude's `--output-format json --verbose`),
// or one pretty-printed object over many lines (the reference results). A
// pretty-printed document opens with a line that is only "{" or "[" and its
// inner lines are indented; it is collected (bounded) until it parses.
// Anything else that is not JSON is counted as garbage and never fatal.
import { isObject, type JsonObject } from "../../../engine/json-object.ts";

import { ENVELOPE_LEVELS, MAX_JSON_DEPTH, parseJson } from "../../../engine/json-depth.ts";

/** Largest pretty-printed document kept while waiting for it to close. */
export const MAX_PENDING_BYTES = 8 * 1024 * 1024;
const GARBAGE_SAMPLE_CHARS = 200;

export class JsonDocumentReader {
  private pending: string[] = [];
  private pendingBytes = 0;
  garbageLines = 0;
  /** The last line that was not JSON (bounded), for error messages. */
  lastGarbage: string | undefined;

  /** "; N line(s) were not JSON, last: …" to append to a crash message, or "" when every line was JSON. */
  garbageNote(): string {
    return this.garbageLines > 0 ? `; ${this.garbageLines} line(s) were not JSON, last: ${this.lastGarbage}` : "";
  }

  /** The values completed by this line (usually zero or one). */
  feed(line: string): unknown[] {
    const text = line.trim();
    if (text === "") return [];
    if (this.pending.length > 0) return this.continuePending(line, text);
    if (text[0] === "{" || text[0] === "[") {
      const value = tryParse(text);
      if (value !== undefined) return [value];
      if (text === "{" || text === "[") {
        this.pending = [line];
        this.pendingBytes = line.length;
        return [];
      }
    }
    this.noteGarbage(text);
    return [];
  }

  /** End of output: a document still open is tried once more, else it was cut. */
  finish(): unknown[] {
    if (this.pending.length === 0) return [];
    const value = tryParse(this.pending.join("\n"));
    const first = this.pending[0]!;
    this.dropPending();
    if (value !== undefined) return [value];
    this.noteGarbage(first);
    return [];
  }

  /** True while a multi-line document is open (it may be cut at the end). */
  get open(): boolean {
    return this.pending.length > 0;
  }

  private continuePending(line: string, text: string): unknown[] {
    // An unindented line that is a whole object means the "{" opener was
    // garbage and a stream has resumed: keep the stream, drop the opener.
    if (line[0] === "{" && text.length > 1) {
      const value = tryParse(text);
      if (value !== undefined) {
        this.noteGarbage(this.pending[0]!);
        this.dropPending();
        return [value];
      }
    }
    this.pending.push(line);
    this.pendingBytes += line.length + 1;
    if (this.pendingBytes > MAX_PENDING_BYTES) {
      this.noteGarbage(this.pending[0]!);
      this.dropPending();
      return [];
    }
    if (line[0] === "}" || line[0] === "]") {
      const value = tryParse(this.pending.join("\n"));
      if (value !== undefined) {
        this.dropPending();
        return [value];
      }
    }
    return [];
  }

  private dropPending(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private noteGarbage(text: string): void {
    this.garbageLines += 1;
    this.lastGarbage = text.length > GARBAGE_SAMPLE_CHARS ? `${text.slice(0, GARBAGE_SAMPLE_CHARS)}…` : text;
  }
}

/** Too deep to be a real event (ADR 0019): counted as garbage, never parsed. */
function tryParse(text: string): unknown {
  const r = parseJson(text, MAX_JSON_DEPTH + ENVELOPE_LEVELS);
  return r.ok ? r.value : undefined;
}

/** A plain object with a string `type`, or null. */
export function typedEvent(value: unknown): (JsonObject & { type: string }) | null {
  return isObject(value) && typeof value.type === "string" ? (value as JsonObject & { type: string }) : null;
}

/** The last non-empty line of a text, bounded: what a one-line error quotes. */
export function lastLine(text: string, max = 300): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const last = lines[lines.length - 1] ?? "";
  return last.length > max ? `${last.slice(0, max)}…` : last;
}
