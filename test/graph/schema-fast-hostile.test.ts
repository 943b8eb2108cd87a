// Security review r36: hostile hand cases for the fast graph check (ADR 0083). For each, the
// property of schema-fast-agree.ts holds (when the fast check is sure, zod gives the same value,
// keys in the same order); the cases it is sure of are named, so a change that makes it unsure
// of them (the property vacuous) or sure of one zod refuses fails here.
import { expect, test } from "vitest";
import { agree, deep } from "./schema-fast-agree.ts";
const g = (nodes: unknown, extra: Record<string, unknown> = {}) => ({ version: 1, name: "x", ...extra, nodes });
const s = (o: Record<string, unknown> = {}) => ({ kind: "script", run: "true", ...o });
const cases: [string, unknown][] = [
  ["deep when", g({ a: s({ when: deep(2000) }) })],
  ["node toString", g({ toString: s(), hasOwnProperty: s() })],
  ["inputs valueOf", g({ a: s() }, { inputs: { valueOf: { default: 1 } } })],
  ["env __proto__", g({ a: s({ env: ["__proto__", "constructor"] }) })],
  ["stamp int keys", g({ a: s({ stamp: { b: "1", "2": "x", "1": "y" } }) })],
  ["huge number concurrency", g({ a: s() }, { concurrency: 2 ** 53 })],
  ["float exit", g({ a: s({ success: { checks: [{ name: "c", run: "x", expect: { exit: 1.0 } }] } }) })],
  ["negative zero exit", g({ a: s({ success: { checks: [{ name: "c", run: "x", expect: { exit: -0 } }] } }) })],
  ["duration overflow", g({ a: s({ timeout: "9".repeat(400) + "h" }) })],
  ["check timeout overflow", g({ a: s() }, { checks: { c: { run: "x", timeout: "9".repeat(400) + "h" } } })],
  ["control chars name", g({ a: s() }, { name: "\u0000\u001b[2J\u2028" })],
  ["lone surrogate", g({ a: s({ run: "\ud800" }) })],
  ["map in map", g({ m: { kind: "map", over: "inputs.x", branch: { b: { kind: "map", over: "inputs.y", branch: { c: s() } } } } })],
  ["merge from empty arr", g({ m: { kind: "merge", from: [] } })],
  ["exhausted no output", g({ a: s({ exhausted: {} }) })],
  ["end output undefined-free", g({ e: { kind: "end", output: { __proto__: 1 } } })],
  ["when key __proto__ nested", g({ a: s({ when: { all: [JSON.parse('{"__proto__": {"x":1}}')] } }) })],
  ["when own __proto__", g({ a: s({ when: JSON.parse('{"__proto__": {"x":1}}') }) })],
  ["sitting none", g({ a: { kind: "agent", prompt: "p", caps: { wall: "none", idle: "0s" } } })],
  ["notify url", g({ a: s() }, { notify: [{ url: "http://a b" }, { url: "https://x/\u0085" }] })],
  ["executor", g({ a: s() }, { executor: "redis://" })],
  ["executor bad", g({ a: s() }, { executor: "redis://a b:99999999/x" })],
  ["retry max_cost 0", g({ a: { kind: "agent", prompt: "p", retry: { max: 1, max_cost: 0 } } })],
  ["claim", g({ a: { kind: "agent", prompt: "p", claim: "output.\n" } })],
  ["nodeId newline", g({ "a\n": s() })],
];
const SURE = new Set([
  "deep when",
  "node toString",
  "inputs valueOf",
  "env __proto__",
  "stamp int keys",
  "float exit",
  "negative zero exit",
  "duration overflow",
  "control chars name",
  "lone surrogate",
  "end output undefined-free",
  "executor",
  "executor bad",
]);

test.each(cases)("%s", (name, raw) => {
  expect(agree(raw)).toBe(SURE.has(name));
});
