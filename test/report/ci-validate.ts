// The validators of the CI formats' tests: SARIF against the official 2.1.0 schema
// (test/fixtures/sarif/, its source in the README there), Code Quality against GitLab's
// documented format (test/fixtures/codequality/).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import AjvDraft04 from "ajv-draft-04";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

const SARIF_SCHEMA = JSON.parse(readFileSync(join(FIXTURES, "sarif", "sarif-schema-2.1.0.json"), "utf8")) as object;
// unicodeRegExp off: the schema's language pattern (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`) has a bare `]`, valid only without the u flag.
const ajv = new AjvDraft04({ allErrors: true, strict: false, unicodeRegExp: false });
// The schema's formats, checked here (ajv ships none): an absolute URI, a URI reference, an RFC 3339 time.
ajv.addFormat("uri", (s: string) => URL.canParse(s));
ajv.addFormat("uri-reference", (s: string) => URL.canParse(s, "file:///") && !/\s/.test(s));
ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
export const validateSarif = ajv.compile(SARIF_SCHEMA);

/** Parses and validates a SARIF text; throws with ajv's errors when it is not valid. */
export function validSarif(text: string): { runs: Record<string, any>[] } {
  const log = JSON.parse(text) as { runs: Record<string, any>[] };
  if (!validateSarif(log)) throw new Error(JSON.stringify(validateSarif.errors, null, 1).slice(0, 2000));
  return log;
}

const CODEQUALITY_SCHEMA = JSON.parse(readFileSync(join(FIXTURES, "codequality", "codequality.schema.json"), "utf8")) as object;
export const validateCodeQuality = new Ajv({ allErrors: true }).compile(CODEQUALITY_SCHEMA);

export function validCodeQuality(text: string): Record<string, any>[] {
  const issues = JSON.parse(text) as Record<string, any>[];
  if (!validateCodeQuality(issues)) throw new Error(JSON.stringify(validateCodeQuality.errors, null, 1).slice(0, 2000));
  return issues;
}
