// zod issues -> problems a person can act on: one problem per root cause,
// "did you mean" for misspelt fields and values, no union dumps.
import { graphSchema, nodeSchema, NODE_KINDS } from "./schema.ts";
import { didYouMean, listOr, suggest } from "./did-you-mean.ts";
import { formatPath, ownerOf, type Path, type PathProblem } from "./problem.ts";
import { declaredOptions, kindsWithField, knownKeysAt, requiredKeys, type Schema } from "./schema-walk.ts";

/** The subset of a zod 4 issue this module reads. */
export interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  keys?: string[];
  values?: unknown[];
  errors?: Issue[][];
  issues?: Issue[];
  note?: string;
  discriminator?: string;
  options?: unknown[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
}

/** A problem plus what the root-cause filter needs to know about it. */
interface Tagged extends PathProblem {
  missing?: { object: string; field: string };
  unknown?: { object: string; suggestion?: string };
}

/** Fields that hold a duration string: a bare number there is a missing unit, not a wrong type. */
const DURATION_FIELDS = new Set(["wall", "idle", "timeout", "backoff"]);

const ROOT = graphSchema as unknown as Schema;
const NODE_UNION = nodeSchema as unknown as Schema;

// Hints for fields whose absence people hit most.
const MISSING_HINTS: Record<string, string> = {
  version: "add version: 1 at the top of the file",
  name: "add name: <a short name for the graph>",
  nodes: "add nodes: with at least one node",
  prompt: "an agent node needs a prompt (what to ask the agent)",
  over: "a map needs over: the list it runs its branch for (inputs.NAME or nodes.ID.output.FIELD)",
  branch: "a map needs branch: the nodes to run once per item",
  routes: "a router needs routes: [{ when: CONDITION, to: [ids] }]",
  when: "each route needs when: a condition",
  to: "name the node(s) to go to",
  max: "say how many times at most, e.g. max: 2",
  run: "a check needs run: the shell command to run",
};

function at(raw: unknown, path: Path): unknown {
  let cur = raw;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg as string] : undefined;
  }
  return cur;
}

/** A number as it reads in a message: YAML's own words for the ones that are not finite. */
function describeNumber(v: number): string {
  if (Number.isFinite(v)) return `a number (${v})`;
  if (Number.isNaN(v)) return ".nan (not a number)";
  return v > 0 ? ".inf (infinite, or a number too large to hold)" : "-.inf (infinite, or a number too large to hold)";
}

/** A value as it reads in a message. Never the phrase of a kind the value is
 *  not: a YAML tag (!!set, !!omap, !!binary, !!timestamp) gives a Set, a Map,
 *  bytes or a Date, none of which is the mapping a message would call it. */
export function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "empty";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === "number") return describeNumber(v);
  if (typeof v === "bigint") return `a number (${v})`;
  if (typeof v === "boolean") return `a boolean (${v})`;
  if (Array.isArray(v)) return "a list";
  if (v instanceof Set) return "a set (!!set)";
  if (v instanceof Map) return "an ordered map (!!omap)";
  if (v instanceof Uint8Array) return "binary data (!!binary)";
  if (v instanceof Date) return "a timestamp (!!timestamp)";
  const proto = typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
  return proto === Object.prototype || proto === null ? "a mapping" : `a value of another kind (${typeof v})`;
}

/** "a number" → "a finite number" when the value is a number that is not finite. */
function expectedPhrase(expected: string | undefined, value: unknown): string {
  const phrase = EXPECTED[expected ?? ""] ?? expected ?? "something else";
  return phrase === "a number" && typeof value === "number" && !Number.isFinite(value) ? "a finite number" : phrase;
}

const EXPECTED: Record<string, string> = {
  object: "a mapping",
  record: "a mapping",
  array: "a list",
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
};

/** The field as named in messages: "caps.turns", "success.checks[1]", or `node "x"`. */
function label(path: Path): string {
  const { owner, rest } = ownerOf(path);
  if (rest.length === 0) return owner || "the file";
  return formatPath(rest);
}

/** "node "b"", "caps of node "b"", "the top level". */
function where(objectPath: Path): string {
  const { owner, rest } = ownerOf(objectPath);
  if (rest.length === 0) return owner || "the top level";
  return owner ? `${formatPath(rest)} of ${owner}` : formatPath(rest);
}

function isDefaultMessage(message: string): boolean {
  return /^(Invalid|Too small|Too big|Unrecognized)/.test(message);
}

function withLabel(path: Path, message: string): string {
  const last = [...path].reverse().find((s) => typeof s === "string");
  if (typeof last === "string" && message.includes(last)) return message;
  // Inside a condition the keys are data paths: the condition's own message says enough.
  const when = path.lastIndexOf("when");
  if (when >= 0) return `${label(path.slice(0, when + 1))}: ${message.replace(/Invalid regular expression: /, "")}`;
  return `${label(path)}: ${message}`;
}

function unknownKey(issuePath: Path, key: string, raw: unknown): Tagged {
  const known = knownKeysAt(ROOT, raw, issuePath);
  const suggestion = suggest(key, known);
  const path = [...issuePath, key];
  if (issuePath.length === 1 && issuePath[0] === "caps" && (key === "turns" || key === "idle")) {
    return {
      path,
      at: "key",
      unknown: { object: formatPath(issuePath) },
      message: `${key} is not a whole-run cap (the run's caps are budget_usd and wall)`,
      hint: `${key} limits one sitting: put it in defaults.caps (every agent node) or a node's caps`,
    };
  }
  const isNode = issuePath[0] === "nodes" && (issuePath.length === 2 || (issuePath.length === 4 && issuePath[2] === "branch"));
  if (isNode && suggestion === undefined) {
    const kinds = kindsWithField(NODE_UNION, key);
    const kind = at(raw, [...issuePath, "kind"]);
    if (kinds.length > 0 && typeof kind === "string") {
      return {
        path,
        at: "key",
        unknown: { object: formatPath(issuePath) },
        message: `"${key}" is not a field of ${kind} nodes (it belongs to ${listOr(kinds)} nodes) in ${where(issuePath)}`,
        hint: `fields of ${kind} nodes: ${known.join(", ")}`,
      };
    }
  }
  const problem: Tagged = {
    path,
    at: "key",
    unknown: { object: formatPath(issuePath), ...(suggestion !== undefined ? { suggestion } : {}) },
    message: `unknown field "${key}" in ${where(issuePath)}${suggestion !== undefined ? ` (did you mean ${suggestion}?)` : ""}`,
  };
  if (suggestion === undefined && /\s/.test(key.trim())) {
    // `{ description: a, b, required: true }` splits at the comma: "b" becomes a key.
    problem.hint = "this looks like text cut off by a comma: inside { ... } a comma ends a value, so quote the value that holds it";
  } else if (suggestion === undefined && known.length > 0) problem.hint = `known fields here: ${known.join(", ")}`;
  return problem;
}

function missingField(path: Path): Tagged {
  const field = String(path[path.length - 1]);
  const objectPath = path.slice(0, -1);
  const base: Tagged = { path, missing: { object: formatPath(objectPath), field }, message: "" };
  if (field === "max" && objectPath[objectPath.length - 1] === "feedback") {
    return {
      ...base,
      message: `feedback without max in ${where(objectPath.slice(0, -1))}: a loop must be bounded`,
      hint: "add max: N (how many rounds at most)",
    };
  }
  const hint = MISSING_HINTS[field];
  return { ...base, message: `missing field "${field}" in ${where(objectPath)}`, ...(hint ? { hint } : {}) };
}

function kindProblem(issue: Issue, path: Path, raw: unknown): Tagged {
  const nodePath = path.slice(0, -1);
  const kind = at(raw, path);
  const kinds = (issue.options ?? NODE_KINDS).map(String);
  const hint = `kind is one of ${listOr(kinds)}`;
  if (kind === undefined) return { path, message: `${where(nodePath)} has no kind`, hint };
  if (kind === "map" && !kinds.includes("map")) {
    return {
      path,
      message: `a map may not contain a map (no nested maps in version 1): ${where(nodePath)} is inside the branch of map "${String(nodePath[1])}"`,
      hint: "move the inner map to the outer graph and make it need this map (it can map over nodes.MAP.results)",
    };
  }
  if (typeof kind !== "string") return { path, message: `kind must be a string, not ${describe(kind)}`, hint };
  return { path, message: `unknown node kind "${kind}"${didYouMean(kind, kinds)}`, hint };
}

/** What one option of a union expects, for "must be A, B or C" messages. */
function expectation(option: Schema, branch: Issue[], value: unknown): string[] {
  const first = branch[0];
  if (first?.code === "invalid_value" && first.values) return first.values.map(String);
  if (option.def.type === "object")
    return [
      `{ ${requiredKeys(option)
        .map((k) => `${k}: …`)
        .join(", ")} }`,
    ];
  return [expectedPhrase(first?.expected, value)];
}

function isRootMismatch(branch: Issue[]): boolean {
  return branch.length === 1 && branch[0]!.path.length === 0 && (branch[0]!.code === "invalid_type" || branch[0]!.code === "invalid_value");
}

function unionProblems(issue: Issue, path: Path, raw: unknown): Tagged[] {
  const branches = issue.errors ?? [];
  const viable = branches.filter((b) => !isRootMismatch(b));
  const prefix = (b: Issue[]) => b.map((i) => ({ ...i, path: [...path, ...i.path] }));
  if (viable.length === 1) return viable[0]!.flatMap((i) => issueProblems(prefix([i])[0]!, raw));
  if (viable.length > 1) {
    // Several object shapes fit (e.g. expect: { exit } or { output_matches }): a key unknown to all is the cause.
    const unknownEverywhere = viable.every((b) => b.some((i) => i.code === "unrecognized_keys" && i.path.length === 0));
    if (unknownEverywhere) {
      const keys = viable.map(
        (b) => new Set(b.flatMap((i) => (i.code === "unrecognized_keys" && i.path.length === 0 ? (i.keys ?? []) : []))),
      );
      const common = [...keys[0]!].filter((k) => keys.every((s) => s.has(k)));
      if (common.length > 0) return common.map((k) => unknownKey(path, k, raw));
    }
    const fewest = [...viable].sort((a, b) => a.length - b.length)[0]!;
    return fewest.flatMap((i) => issueProblems(prefix([i])[0]!, raw));
  }
  const value = at(raw, path);
  const options = declaredOptions(ROOT, raw, path);
  const wanted = branches.flatMap((b, i) => expectation(options[i] ?? { def: { type: "?" } }, b, value));
  const words = branches.flatMap((b) => (b[0]?.code === "invalid_value" ? (b[0].values ?? []).map(String) : []));
  const hint = typeof value === "string" ? didYouMean(value, words).replace(/^ \((.*)\)$/, "$1") : "";
  return [{ path, message: `${label(path)} must be ${listOr([...new Set(wanted)])}, not ${describe(value)}`, ...(hint ? { hint } : {}) }];
}

/** Problems for one zod issue (a union issue may give several, or one merged). */
export function issueProblems(issue: Issue, raw: unknown): Tagged[] {
  const path = issue.path.map((s) => (typeof s === "symbol" ? String(s) : s)) as Path;
  const value = at(raw, path);
  switch (issue.code) {
    case "unrecognized_keys":
      return (issue.keys ?? []).map((k) => unknownKey(path, k, raw));
    case "invalid_union":
      if (issue.note === "No matching discriminator") return [kindProblem(issue, path, raw)];
      return unionProblems(issue, path, raw);
    case "invalid_type":
      if (value === undefined && path.length > 0 && !Object.hasOwn(Object(at(raw, path.slice(0, -1))), path[path.length - 1]!))
        return [missingField(path)];
      if (!isDefaultMessage(issue.message)) return [{ path, message: withLabel(path, issue.message) }];
      if (typeof value === "number" && DURATION_FIELDS.has(String(path[path.length - 1]))) {
        return [{ path, message: `${label(path)}: a duration needs a unit, like "90s", "10m" or "1h30m" (got ${describe(value)})` }];
      }
      return [{ path, message: `${label(path)} must be ${expectedPhrase(issue.expected, value)}, not ${describe(value)}` }];
    case "invalid_value": {
      if (!isDefaultMessage(issue.message)) return [{ path, message: withLabel(path, issue.message) }];
      const values = (issue.values ?? []).map(String);
      const dym = typeof value === "string" ? didYouMean(value, values) : "";
      return [{ path, message: `${label(path)} must be one of ${listOr(values)}, not ${describe(value)}${dym}` }];
    }
    case "invalid_key": {
      const inner = issue.issues?.[0];
      const key = String(path[path.length - 1]);
      const what = path.length === 2 && path[0] === "nodes" ? "node id" : path.length === 2 && path[0] === "inputs" ? "input name" : "key";
      return [{ path, at: "key", message: `"${key}" is not a valid ${what}${inner ? `: ${inner.message}` : ""}` }];
    }
    case "too_small":
    case "too_big": {
      if (!isDefaultMessage(issue.message)) return [{ path, message: withLabel(path, issue.message) }];
      const bound = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
      const dir = issue.code === "too_small" ? "at least" : "at most";
      if (issue.origin === "array") return [{ path, message: `${label(path)} needs ${dir} ${bound} item${bound === 1 ? "" : "s"}` }];
      if (issue.origin === "string")
        return [
          {
            path,
            message:
              issue.code === "too_small" && bound <= 1
                ? `${label(path)} may not be empty`
                : `${label(path)} needs ${dir} ${bound} characters`,
          },
        ];
      const strict = issue.inclusive === false ? (issue.code === "too_small" ? "greater than" : "less than") : dir;
      return [{ path, message: `${label(path)} must be ${strict} ${bound}, not ${describe(value)}` }];
    }
    case "invalid_format":
    case "custom": {
      const key = path[path.length - 1];
      const atKey = /is not a path|unknown operator/.test(issue.message) && typeof key === "string";
      const got =
        (typeof value === "string" && issue.code === "invalid_format") || /may not exceed/.test(issue.message)
          ? ` (got ${describe(value)})`
          : "";
      const message = isDefaultMessage(issue.message) ? `${label(path)} has the wrong form` : withLabel(path, issue.message);
      return [{ path, ...(atKey ? { at: "key" as const } : {}), message: `${message}${got}` }];
    }
    default:
      return [{ path, message: withLabel(path, issue.message) }];
  }
}

/** All problems for a failed parse, with one problem per root cause: a missing
 *  field that an unknown field in the same object is a misspelling of is dropped. */
export function zodProblems(issues: Issue[], raw: unknown): PathProblem[] {
  const tagged = issues.flatMap((i) => issueProblems(i, raw));
  const typos = new Set(
    tagged.flatMap((p) => (p.unknown?.suggestion !== undefined ? [`${p.unknown.object}\u0000${p.unknown.suggestion}`] : [])),
  );
  const kept = tagged.filter((p) => !(p.missing && typos.has(`${p.missing.object}\u0000${p.missing.field}`)));
  return kept.map(({ missing: _m, unknown: _u, ...p }) => p);
}
