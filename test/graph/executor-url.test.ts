// The graph's `executor:` is a URL whose scheme names the executor (ADR 0037): a
// known scheme loads (the transport checks the rest when the run starts), anything
// else is refused at load with the known schemes listed and a close one suggested.
import fc from "fast-check";
import { expect, test } from "vitest";
import { listOr } from "../../src/engine/graph/did-you-mean.ts";
import { EXECUTOR_SCHEMES, executorUrlProblem, unknownExecutorScheme } from "../../src/engine/graph/executor-url.ts";
import { lines } from "./helpers.ts";

/** "redis:// or rediss://" today: the list grows with the schemes, the tests do not change. */
const KNOWN = listOr(EXECUTOR_SCHEMES.map((s) => `${s}://`));

const graph = (executor: string) => `version: 1\nname: g\nexecutor: ${JSON.stringify(executor)}\nnodes:\n  a: { kind: end }\n`;

test("redis:// and rediss:// load as before", () => {
  for (const url of ["redis://127.0.0.1:6379", "rediss://h:6380/2", "redis://user:pw@h"]) expect(lines(graph(url)), url).toEqual([]);
});

test("an unknown scheme is refused at load: which, the known ones, and a did-you-mean when one is close", () => {
  expect(lines(graph("redsi://h:1"))).toEqual([
    `3:11 executor: the scheme "redsi" names no executor vouch knows (did you mean redis?): use ${KNOWN} (got "redsi://h:1")`,
  ]);
  // As written in a graph a scheme is case-sensitive, as the pattern of the JSON Schema is.
  expect(lines(graph("REDIS://h"))[0]).toContain('the scheme "REDIS" names no executor vouch knows (did you mean redis?)');
  // Nothing close: no suggestion, still the list.
  expect(lines(graph("http://h:1"))).toEqual([
    `3:11 executor: the scheme "http" names no executor vouch knows: use ${KNOWN} (got "http://h:1")`,
  ]);
});

test("a value that is no URL at all says what a URL looks like", () => {
  for (const text of ["h:6379", "local", "", "-rf", "redis:h"])
    expect(lines(graph(text)), text).toEqual([
      `3:11 executor must be a URL, SCHEME://… (${KNOWN}; e.g. redis://HOST:PORT[/DB]) (got ${JSON.stringify(text)})`,
    ]);
});

test("a long or hostile scheme is cut in the message, never echoed whole", () => {
  // The message's own words (50), at most 41 characters of the scheme, and the known list.
  const bound = 100 + KNOWN.length;
  expect(unknownExecutorScheme("x".repeat(5000)).length).toBeLessThan(bound);
  expect(executorUrlProblem(`${"a".repeat(100_000)}://h`)!.length).toBeLessThan(bound + 20);
});

test("any string: null exactly when a known scheme and :// start it, else a message listing the known schemes", () => {
  const known = fc.constantFrom(...EXECUTOR_SCHEMES.map((s) => `${s}://`));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.tuple(known, fc.string()).map(([a, b]) => a + b),
      ),
      (text) => {
        const problem = executorUrlProblem(text);
        const isKnown = EXECUTOR_SCHEMES.some((s) => text.startsWith(`${s}://`));
        expect(problem === null).toBe(isKnown);
        if (problem !== null) expect(problem).toContain(KNOWN);
      },
    ),
  );
});
