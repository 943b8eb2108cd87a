// The run's claims against its evidence on the HTML page: how many sittings
// claimed what, and what vouch's evidence found (issue 32's table). Read from
// the report model's `claims`; nothing when the model has none, so a run
// recorded before claims were, or a model that does not carry them, shows no
// empty section.
import { money } from "../text/money.ts";
import { html } from "./escape.ts";
import { el, row } from "./markup.ts";
import type { ClaimCount, ReportModel } from "./model.ts";

const HEAD = ["claim", "evidence", "sittings", "share of the claim", "cost"];

function rowsOf(claims: readonly ClaimCount[]): string[] {
  const perClaim = new Map<string | null, number>();
  for (const c of claims) perClaim.set(c.claim, (perClaim.get(c.claim) ?? 0) + c.sittings);
  return claims.map((c) => {
    const total = perClaim.get(c.claim) ?? 0;
    const share = total > 0 ? `${Math.round((c.sittings / total) * 100)}%` : "–";
    return el(
      "tr",
      { class: `claim e-${c.evidence.replace(/[^a-z]+/g, "-")}` },
      el("td", {}, html(c.claim ?? "(no claim)")),
      el("td", {}, html(c.evidence)),
      el("td", { class: "num" }, html(c.sittings)),
      el("td", { class: "num" }, html(share)),
      el("td", { class: "num" }, html(money(c.cost_usd, c.cost_unknown))),
    );
  });
}

/** The section, or "" when the model carries no claims. */
export function claimsHtml(model: ReportModel): string {
  const claims = model.claims ?? [];
  if (claims.length === 0) return "";
  const sittings = claims.reduce((n, c) => n + c.sittings, 0);
  const intro = `${sittings} agent sitting${sittings === 1 ? "" : "s"}: what each model said of its own work, beside what the evidence vouch gathered found.`;
  return `<h2>Claims and evidence</h2>${el("p", {}, html(intro))}${el("table", { class: "claims" }, row("th", HEAD), ...rowsOf(claims))}`;
}
