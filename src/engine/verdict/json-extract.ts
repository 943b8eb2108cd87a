// Reading JSON out of a result text (ADR 0002: the whole text, else its last
// fenced code block). Models often wrap JSON in prose and a ```json fence;
// only the last fence counts, because earlier ones are usually drafts.
import { isObject } from "../json-object.ts";

const FENCE = /```[^\n`]*\n([\s\S]*?)```/g;

export type Extracted = { ok: true; value: unknown } | { ok: false; message: string };

function tryParse(text: string): Extracted {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

export function extractJson(text: string): Extracted {
  const whole = text.trim();
  if (whole === "") return { ok: false, message: "the result text is empty" };
  const direct = tryParse(whole);
  if (direct.ok) return direct;
  let last: string | undefined;
  for (const m of text.matchAll(FENCE)) last = m[1];
  if (last === undefined) return { ok: false, message: `the result is not JSON and holds no fenced code block (${direct.message})` };
  const fenced = tryParse(last.trim());
  if (fenced.ok) return fenced;
  return { ok: false, message: `the last fenced code block is not JSON (${fenced.message})` };
}

/** A script's stdout is its output object when it is exactly one JSON object. */
export function stdoutObject(stdout: string): Record<string, unknown> | undefined {
  const t = stdout.trim();
  if (!t.startsWith("{")) return undefined;
  const r = tryParse(t);
  return r.ok && isObject(r.value) ? r.value : undefined;
}
