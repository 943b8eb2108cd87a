// The HTML report's evidence with a memory (ADR 0067, 0068): what the run's agent sittings
// claimed beside what the evidence found, what each cause's retries bought, and a check's
// recent history beside its outcome. Every value goes through html() or el().
import type { CheckRecord } from "../ledger/types.ts";
import { checkHistories, type CheckHistory, type CheckRunRow } from "../read/check-history.ts";
import { claimText, type ClaimCell, type RetryCell } from "../read/claims.ts";
import { money } from "../text/money.ts";
import { html } from "./escape.ts";
import { el, row } from "./markup.ts";

export type Histories = ReadonlyMap<string, CheckHistory>;

const keyOf = (name: string, digest: string | null | undefined) => JSON.stringify([name, digest ?? null]);

/** The histories of the checks a run has, by name and command digest. */
export function historiesOf(rows: readonly CheckRunRow[]): Histories {
  return new Map(checkHistories(rows).map((h) => [keyOf(h.name, h.command_digest), h]));
}

/** "history: 17 pass · 2 fail · 1 flaky in 20 runs", FLAKY when it is marked. */
export function historyHtml(c: CheckRecord, histories: Histories | undefined): string {
  const h = histories?.get(keyOf(c.name, c.command_digest));
  if (h === undefined) return "";
  const counts = [
    `${h.passed} pass`,
    `${h.failed} fail`,
    `${h.flaky} flaky`,
    ...(h.could_not_run > 0 ? [`${h.could_not_run} could not run`] : []),
  ];
  const mark = h.marked ? ` ${el("b", { class: "flaky" }, `FLAKY: in ${h.flaky_runs} of ${h.runs} runs`)}` : "";
  return el("div", { class: "history" }, `history: ${html(counts.join(" · "))} in the last ${h.runs} run${h.runs === 1 ? "" : "s"}${mark}`);
}

function share(n: number, of: number): string {
  return of === 0 ? "–" : `${Math.round((100 * n) / of)}%`;
}

function claimsHtml(cells: readonly ClaimCell[]): string {
  const total = new Map<string, number>();
  for (const c of cells) total.set(claimText(c.claim), (total.get(claimText(c.claim)) ?? 0) + c.sittings);
  const rows = cells.map((c) =>
    row("td", [
      claimText(c.claim),
      c.evidence,
      c.sittings,
      share(c.sittings, total.get(claimText(c.claim)) ?? 0),
      money(c.cost_usd, c.cost_unknown),
      c.turns,
    ]),
  );
  return el("table", { class: "claims" }, row("th", ["claim", "evidence", "sittings", "share of claim", "cost", "turns"]), ...rows);
}

function retriesHtml(cells: readonly RetryCell[]): string {
  const rows = cells.map((c) =>
    row("td", [c.cause, c.sittings, `${c.verified} (${share(c.verified, c.sittings)})`, money(c.cost_usd, c.cost_unknown), c.turns]),
  );
  return el("table", { class: "retries" }, row("th", ["cause", "retries", "ended verified", "cost", "turns"]), ...rows);
}

/** The two tables, each under its heading; nothing when the run judged no sitting. */
export function evidenceHtml(claims: readonly ClaimCell[], retries: readonly RetryCell[]): string {
  const parts: string[] = [];
  if (claims.length > 0) {
    const n = claims.reduce((s, c) => s + c.sittings, 0);
    parts.push(
      `<h2>Claims vs evidence</h2>${el("p", { class: "note" }, `What ${n} agent sitting${n === 1 ? "" : "s"} claimed of their own work, beside what vouch's evidence found.`)}${claimsHtml(claims)}`,
    );
  }
  if (retries.length > 0) parts.push(`<h2>What retries bought</h2>${retriesHtml(retries)}`);
  return parts.join("\n");
}
