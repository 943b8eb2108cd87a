// What a model said of its own work, read the way the node's contract reads it
// (ADR 0068), so `vouch stats` can set it beside what the evidence found. Pure.
import type { StopReason } from "../events.ts";
import type { TerminationReason } from "../ports.ts";
import { resolvePath } from "../template/render.ts";
import { extractJson } from "./json-extract.ts";

/** A claim is a short label: a value the model wrote longer than this is cut. */
export const CLAIM_MAX_CHARS = 60;

export interface ClaimInput {
  stop: StopReason | TerminationReason;
  /** The agent's result text. */
  text: string;
  /** The harness's structured output, when it gave one. */
  structured?: unknown;
  /** The output as the judging read it (absent when it could not be read, or was not reached). */
  output?: unknown;
  /** The node's `claim:` path (output.verdict). */
  path?: string;
  /** The node's result_matches. */
  resultMatches?: RegExp;
}

/** The claim: the value at `claim:`, else "done"/"not done" by result_matches, else "done" for a
 *  sitting that completed (it stopped of its own accord, which is its saying so). null: the sitting
 *  did not complete, or the `claim:` path names nothing the model wrote (no claim to hold it to). */
export function claimOf(input: ClaimInput): string | null {
  if (input.stop !== "complete" && input.stop !== "exit") return null;
  if (input.path !== undefined) return claimAt(input, input.path);
  if (input.resultMatches !== undefined) return matches(input.resultMatches, input.text) ? "done" : "not done";
  return "done";
}

function matches(re: RegExp, text: string): boolean {
  re.lastIndex = 0; // a /g or /y pattern keeps state between calls
  return re.test(text);
}

function claimAt(input: ClaimInput, path: string): string | null {
  const output = input.output ?? input.structured ?? parsed(input.text);
  if (output === undefined) return null;
  const found = resolvePath({ output }, path.split("."));
  if (!found.found) return null;
  const v = found.value;
  if (typeof v === "string") return v === "" ? null : label(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return null; // an object or a list is no verdict a table can count
}

function parsed(text: string): unknown {
  const r = extractJson(text);
  return r.ok ? r.value : undefined;
}

/** One line, bounded: a model's value is hostile text (newlines, escapes, megabytes). */
function label(v: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const flat = v.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  const chars = [...flat]; // by code point: a cut never splits a surrogate pair
  return chars.length <= CLAIM_MAX_CHARS ? flat : `${chars.slice(0, CLAIM_MAX_CHARS - 1).join("")}…`;
}
