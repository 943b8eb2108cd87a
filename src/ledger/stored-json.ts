// JSON read back from the ledger. This vouch bounds every value it stores at
// MAX_JSON_DEPTH (ADR 0019), but a ledger written by a vouch from before the
// bound may hold a value nested tens of thousands of levels: JSON.parse reads
// it (a loop), JSON.stringify and renderers then overflow. Such values are cut
// at the bound and marked, so every reader prints the run.
import { cutTooDeep, ENVELOPE_LEVELS, MAX_JSON_DEPTH } from "../engine/json-depth.ts";
import { StoredValueError } from "./integrity.ts";

/** JSON.parse, then cut at the bound; typed by its caller, as JSON.parse is. */
export function parseStored<T = unknown>(text: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    // vouch stores only JSON it wrote itself: a value that does not parse is a damaged file (ADR 0048).
    throw new StoredValueError(`a stored value is not the JSON vouch wrote: ${(e as Error).message}`);
  }
  return cutTooDeep(value, MAX_JSON_DEPTH + ENVELOPE_LEVELS) as T;
}
