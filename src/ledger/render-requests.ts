// The "Requests" block of `vouch show`: every cancel and approval decision asked
// of the run, who asked (user@host, pid), how and when (ADR 0062).
import { nodePath } from "../read/node-path.ts";
import { localTime } from "../text/clock.ts";
import { oneLine } from "../text/lines.ts";
import type { RunRequest } from "./run-requests.ts";

const VIA: Record<Exclude<RunRequest["via"], "command">, string> = {
  tui: "the run's live view",
  flag: "a --approve/--reject flag",
  watch: "vouch watch",
  mcp: "an MCP client",
};

function via(r: RunRequest): string {
  if (r.via !== "command") return VIA[r.via];
  return r.kind === "cancel" ? "vouch cancel" : `vouch ${r.decision}`;
}

function what(r: RunRequest): string {
  if (r.kind === "cancel") return "cancel";
  const node = nodePath(r.node, r.branch) + (r.round > 1 ? ` (round ${r.round})` : "");
  return `${r.decision === "approve" ? "approve" : "reject"} ${node}${r.note !== undefined ? `: ${oneLine(r.note)}` : ""}`;
}

export function requestsBlock(requests: readonly RunRequest[]): string {
  const lines = ["Requests"];
  for (const r of requests) {
    lines.push(`  ${localTime(r.at)}  ${what(r)}  — ${r.by.user}@${r.by.host} (pid ${r.by.pid}, ${via(r)})`);
  }
  return `${lines.join("\n")}\n`;
}
