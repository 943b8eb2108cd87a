// Who is asking: the user and host names the system gives and this process's
// id, recorded with every request made of a run (ADR 0062).
import { readFileSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import type { DecisionRequest, Requester, RequestVia } from "../../ledger/index.ts";

export function requester(env: Record<string, string | undefined>): Requester {
  return { user: userName(env), host: hostname() || "unknown host", pid: process.pid };
}

/** The system's name for this user; Bun says "unknown" where it finds none (a container's
 *  uid), then the environment's, then the passwd file's, then the number. */
function userName(env: Record<string, string | undefined>): string {
  try {
    const name = userInfo().username;
    if (name && name !== "unknown") return name;
  } catch {
    // No passwd entry: the environment may still say.
  }
  if (env.USER || env.LOGNAME) return (env.USER || env.LOGNAME)!;
  const uid = process.getuid?.();
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.split(":")[2] === String(uid));
    if (line) return line.split(":")[0]!;
  } catch {
    // No passwd file: the number it is.
  }
  return `uid ${uid ?? "?"}`;
}

const VIA_TEXT: Record<Exclude<RequestVia, "command">, string> = {
  tui: "the live view",
  flag: "a flag",
  watch: "vouch watch",
  mcp: "an MCP client",
};

/** "alice@box (vouch approve)": who decided, as node.finished's evidence says it. */
export function byLine(r: Pick<DecisionRequest, "by" | "via" | "decision">): string {
  return `${r.by.user}@${r.by.host} (${r.via === "command" ? `vouch ${r.decision}` : VIA_TEXT[r.via]})`;
}
