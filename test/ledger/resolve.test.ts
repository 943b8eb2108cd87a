// RUN on the command line: a full id, a unique prefix, or `last`.
import { describe, expect, test } from "vitest";
import { UsageError } from "../../src/engine/errors.ts";
import type { RunLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";
import { eachFreshLedger, type TempHome } from "./temp-home.ts";

let t: TempHome;
let ledger: RunLedger;
eachFreshLedger((home, opened) => ((t = home), (ledger = opened)));

function record(...ids: string[]) {
  for (const id of ids) {
    const s = new RunScript(id);
    s.started();
    s.runFinished("passed");
    ledger.write(s.events);
  }
}

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error("expected a UsageError");
}

describe("resolveRun", () => {
  test("a full id, and a unique prefix of one", () => {
    record("20261129-aaa111", "20261129-bbb222");
    expect(ledger.resolveRun("20261129-aaa111")).toBe("20261129-aaa111");
    expect(ledger.resolveRun("20261129-b")).toBe("20261129-bbb222");
  });

  test("an id that is also a prefix of another id resolves to itself", () => {
    record("abc", "abcdef");
    expect(ledger.resolveRun("abc")).toBe("abc");
    expect(ledger.resolveRun("abcd")).toBe("abcdef");
  });

  test("an ambiguous prefix lists the candidates (newest first) and how many more there are", () => {
    record(...Array.from({ length: 11 }, (_, i) => `run-${String(i).padStart(2, "0")}`));
    const e = usage(() => ledger.resolveRun("run-"));
    expect(e.message).toBe(
      'run prefix "run-" is ambiguous: it matches 11 runs: run-10, run-09, run-08, run-07, run-06, run-05, run-04, run-03 and 3 more',
    );
    expect(e.exitCode).toBe(2);
    expect(e.hint).toMatch(/more characters/);
  });

  test("`last` is the newest run by insertion, whatever the clocks said", () => {
    const late = new RunScript("r-old-clock");
    late.clock = -10_000_000; // started "earlier" by its timestamps, but recorded later
    late.started();
    record("r-first");
    ledger.write(late.events);
    expect(ledger.resolveRun("last")).toBe("r-old-clock");
    expect(ledger.listRuns().map((r) => r.id)).toEqual(["r-old-clock", "r-first"]);
  });

  test("no match, `last` with no runs, and an empty ref are clear usage errors naming the ledger", () => {
    expect(usage(() => ledger.resolveRun("last")).message).toBe(`there is no last run: no runs are recorded in ${ledger.file}`);
    record("r-1");
    expect(usage(() => ledger.resolveRun("zzz")).message).toBe(`no run matches "zzz" in ${ledger.file}`);
    expect(usage(() => ledger.resolveRun("  ")).message).toMatch(/RUN is empty/);
  });

  test("a prefix holding SQL wildcard characters matches literally", () => {
    record("a_b-1", "axb-2");
    expect(ledger.resolveRun("a_")).toBe("a_b-1");
    expect(usage(() => ledger.resolveRun("a%")).message).toMatch(/no run matches/);
  });
});
