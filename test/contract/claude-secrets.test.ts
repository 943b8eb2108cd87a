// The key claude needs reaches claude only: passed by name (--pass-env), its
// value appears nowhere vouch writes — the --json events, stderr, the ledger's
// files, `vouch show` — on an answer and on a 401 (where an error text is kept).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeCli } from "./lib/skip.ts";
import { FAKE_ANTHROPIC_KEY, oneAgentGraph, runClaudeScenario } from "./lib/claude.ts";
import { vouchIn } from "./lib/run.ts";
import { always, answer, apiError } from "./servers/anthropic.ts";
import { MODEL } from "./claude-pricing.ts";

const CONTRACT_TIMEOUT = 90_000;
const graph = oneAgentGraph({ fields: [`model: ${MODEL}`] });
// Any long piece of the key would do; its distinctive middle and end.
const PIECES = [FAKE_ANTHROPIC_KEY, "contract-test-fake-key"];

describeCli("claude", "claude and the API key", () => {
  for (const [name, script] of [
    ["an answer", always(answer("Hello."))],
    ["a 401", always(apiError(401))],
  ] as const) {
    it(`${name}: the key's value is in no event, message, ledger file or show output`, { timeout: CONTRACT_TIMEOUT }, async () => {
      const r = await runClaudeScenario({ script, graph, keepHome: true });
      try {
        expect(r.finished("ask").status).toBe(name === "a 401" ? "error" : "passed");
        const ledgerFiles = readdirSync(r.home.vouchHome, { recursive: true, withFileTypes: true })
          .filter((d) => d.isFile())
          .map((d) => readFileSync(join(d.parentPath, d.name)).toString("latin1"));
        const show = await vouchIn(r.home, ["show", "last", "--json"]);
        const text = await vouchIn(r.home, ["show", "last"]);
        expect(show.code).toBe(0);
        // The name is recorded (what was passed), the value never.
        expect(show.stdout).toContain("ANTHROPIC_API_KEY");
        for (const where of [r.stdout, r.stderr, show.stdout, text.stdout, ...ledgerFiles]) {
          for (const piece of PIECES) expect(where.includes(piece)).toBe(false);
        }
      } finally {
        r.home.cleanup();
      }
    });
  }
});
