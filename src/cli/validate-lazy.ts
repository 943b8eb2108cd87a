// What `vouch validate` loads only when a file needs it (ADR 0074): start-up is most
// of validate's cost, and the ledger's code (bun:sqlite and the SQL layer, ~5 ms to
// load) and git's (~2 ms) are not needed for a folder without a ledger or a graph
// without a worktree workspace.
import { existsSync } from "node:fs";
import type { GitPort } from "../engine/ports.ts";
import { checkedLedgerHome, ledgerFile } from "../ledger/home.ts";
import type { CheckHistory } from "../read/check-history.ts";
import type { CliIO } from "./io.ts";

/** The ledger's check histories (check-history.ts's historiesOrNone), its code loaded only
 *  when there is a ledger. A ledger folder that is a file is left to historiesOrNone to say. */
export async function historiesIfLedger(io: Pick<CliIO, "env" | "cwd" | "err">): Promise<CheckHistory[]> {
  try {
    if (!existsSync(ledgerFile(checkedLedgerHome(io.env, io.cwd)))) return [];
  } catch {
    // historiesOrNone reads the home again and reports the problem as it always has.
  }
  return (await import("./check-history.ts")).historiesOrNone(io);
}

/** The real git port, its module loaded at the first call (every GitPort method is async). */
export const lazyGit: GitPort = new Proxy({} as GitPort, {
  get(_target, name) {
    // Not a thenable: `await lazyGit` (or returning it from an async function) must not hang.
    if (name === "then") return undefined;
    return async (...args: unknown[]) => {
      const { realGit } = await import("../workspace/git.ts");
      const method = realGit[name as keyof GitPort] as (...a: unknown[]) => Promise<unknown>;
      return method.apply(realGit, args);
    };
  },
});
