// Reading JSON out of a result text (ADR 0002: the whole text, else its last
// fenced code block). Models often wrap JSON in prose and a ```json fence;
// only the last fence counts, because earlier ones are usually drafts.
import { isObject } from "../json-object.ts";

// Text nested deeper than MAX_JSON_DEPTH is refused before it is parsed.
import { parseJson, type ParsedJson } from "../json-depth.ts";

const FENCE = /```[^\n`]*\n([\s\S]*?)```/g;

export type Extracted = ParsedJson;
const tryParse = (text: string): Extracted => parseJson(text);

export function extractJson(text: string): Extracted {
  const whole = text.trim();
  if (whole === "") return { ok: false, message: "the result text is empty" };
  const direct = tryParse(whole);
  if (direct.ok) return direct;
  let last: string | undefined;
  for (const m of text.matchAll(FENCE)) last = m[1];
  if (last === undefined && direct.tooDeep) return { ok: false, message: `the result is ${direct.message}`, tooDeep: true };
  if (last === undefined) return { ok: false, message: `the result is not JSON and holds no fenced code block (${direct.message})` };
  const fenced = tryParse(last.trim());
  if (fenced.ok) return fenced;
  if (fenced.tooDeep) return { ok: false, message: `the last fenced code block is ${fenced.message}`, tooDeep: true };
  return { ok: false, message: `the last fenced code block is not JSON (${fenced.message})` };
}

/** A script's stdout is its output object when it is exactly one JSON object. */
export function stdoutObject(stdout: string): Record<string, unknown> | undefined {
  const t = stdout.trim();
  if (!t.startsWith("{")) return undefined;
  const r = tryParse(t);
  return r.ok && isObject(r.value) ? r.value : undefined;
}
