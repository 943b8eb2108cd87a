// The claims and retries tables (ADR 0068): exact cells for known rows, and, over
// generated rows, the cells' counts always add up to the judged sittings.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CAUSES, NODE_STATUSES, QUALIFIERS } from "../../src/engine/events.ts";
import { claimTable, evidenceOf, retryTable, type SittingRow } from "../../src/read/claims.ts";
import { claimTableText, retryTableText } from "../../src/read/claims-text.ts";

const row = (o: Partial<SittingRow> & Pick<SittingRow, "status">): SittingRow => ({
  kind: "agent",
  group: "",
  claim: "done",
  qualifier: o.status === "passed" ? "verified" : null,
  cause: o.status === "passed" ? null : "check_failed",
  retry_of: null,
  cost_usd: 0.1,
  turns: 2,
  ...o,
});

describe("evidenceOf", () => {
  test("verified only with a check; a pass on the model's word or its exit is unchecked; error and cancelled are no verdict", () => {
    expect(evidenceOf("passed", "verified")).toBe("verified");
    expect(evidenceOf("passed", "self-reported")).toBe("unchecked");
    expect(evidenceOf("passed", "exit-only")).toBe("unchecked");
    expect(evidenceOf("failed", null)).toBe("failed");
    expect(evidenceOf("error", null)).toBe("no verdict");
    expect(evidenceOf("cancelled", null)).toBe("no verdict");
  });
});

describe("claimTable", () => {
  test("one cell per claim and evidence, with cost (unknown counted apart) and turns; scripts left out", () => {
    const rows = [
      row({ status: "passed" }),
      row({ status: "passed", cost_usd: null, turns: null }),
      row({ status: "failed" }),
      row({ status: "error", cause: "harness_error" }),
      row({ status: "failed", claim: "not done" }),
      row({ status: "error", claim: null, cause: "cap_stop" }),
      row({ status: "passed", kind: "script", claim: null }),
    ];
    expect(claimTable(rows)).toEqual([
      { group: "", claim: "done", evidence: "verified", sittings: 2, cost_usd: 0.1, cost_unknown: 1, turns: 2 },
      { group: "", claim: "done", evidence: "failed", sittings: 1, cost_usd: 0.1, cost_unknown: 0, turns: 2 },
      { group: "", claim: "done", evidence: "no verdict", sittings: 1, cost_usd: 0.1, cost_unknown: 0, turns: 2 },
      { group: "", claim: "not done", evidence: "failed", sittings: 1, cost_usd: 0.1, cost_unknown: 0, turns: 2 },
      { group: "", claim: null, evidence: "no verdict", sittings: 1, cost_usd: 0.1, cost_unknown: 0, turns: 2 },
    ]);
    expect(claimTableText(claimTable(rows), false)).toBe(
      [
        "CLAIM       EVIDENCE    SITTINGS  SHARE  COST                TURNS",
        "done        verified    2         50%    $0.10 (+1 unknown)  2",
        "done        failed      1         25%    $0.10               2",
        "done        no verdict  1         25%    $0.10               2",
        "not done    failed      1         100%   $0.10               2",
        "(no claim)  no verdict  1         100%   $0.10               2",
        "",
      ].join("\n"),
    );
  });

  test("retries by the cause they were made for: what they cost and how many ended verified", () => {
    const rows = [
      row({ status: "failed" }),
      row({ status: "failed", retry_of: "check_failed", cost_usd: 0.2 }),
      row({ status: "passed", retry_of: "check_failed", cost_usd: 0.3, turns: 5 }),
      row({ status: "passed", qualifier: "exit-only", retry_of: "output_invalid", kind: "script", cost_usd: 0, turns: null }),
    ];
    expect(retryTable(rows)).toEqual([
      { group: "", cause: "check_failed", verified: 1, sittings: 2, cost_usd: 0.5, cost_unknown: 0, turns: 7 },
      { group: "", cause: "output_invalid", verified: 0, sittings: 1, cost_usd: 0, cost_unknown: 0, turns: 0 },
    ]);
    expect(retryTableText(retryTable(rows), false)).toBe(
      [
        "CAUSE           RETRIES  VERIFIED  COST   TURNS",
        "check_failed    2        1 (50%)   $0.50  7",
        "output_invalid  1        0 (0%)    $0     0",
        "",
      ].join("\n"),
    );
  });

  const arbRow: fc.Arbitrary<SittingRow> = fc.record({
    kind: fc.constantFrom("agent" as const, "script" as const),
    group: fc.constantFrom("", "claude", "codex", "__proto__", "g\u001b[1m"),
    claim: fc.option(fc.constantFrom("done", "not done", "VERIFIED", "FALSE", "constructor", ""), { nil: null }),
    status: fc.constantFrom(...NODE_STATUSES),
    qualifier: fc.option(fc.constantFrom(...QUALIFIERS), { nil: null }),
    cause: fc.option(fc.constantFrom(...CAUSES), { nil: null }),
    retry_of: fc.option(fc.constantFrom(...CAUSES), { nil: null }),
    cost_usd: fc.option(fc.double({ min: 0, max: 10, noNaN: true }), { nil: null }),
    turns: fc.option(fc.nat(100), { nil: null }),
  });

  test("property: the cells' sittings add up to the judged agent sittings, per group and in all; retries to the retried rows", () => {
    fc.assert(
      fc.property(fc.array(arbRow, { maxLength: 60 }), (rows) => {
        const cells = claimTable(rows);
        const agents = rows.filter((r) => r.kind === "agent");
        expect(cells.reduce((n, c) => n + c.sittings, 0)).toBe(agents.length);
        for (const g of new Set(agents.map((r) => r.group)))
          expect(cells.filter((c) => c.group === g).reduce((n, c) => n + c.sittings, 0)).toBe(agents.filter((r) => r.group === g).length);
        // Every cell is one the rows made, and none is empty.
        for (const c of cells) expect(c.sittings).toBeGreaterThan(0);
        expect(new Set(cells.map((c) => JSON.stringify([c.group, c.claim, c.evidence]))).size).toBe(cells.length);
        const retries = retryTable(rows);
        expect(retries.reduce((n, c) => n + c.sittings, 0)).toBe(rows.filter((r) => r.retry_of !== null).length);
        for (const c of retries) expect(c.verified).toBeLessThanOrEqual(c.sittings);
        const known = rows.filter((r) => r.kind === "agent" && r.cost_usd !== null).reduce((s, r) => s + r.cost_usd!, 0);
        expect(cells.reduce((s, c) => s + c.cost_usd, 0)).toBeCloseTo(known, 6);
      }),
      { numRuns: 300 },
    );
  });
});
