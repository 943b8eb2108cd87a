// Holds the recorded real outputs (test/fixtures/claude-real/) to what the
// pinned claude prints today: same line types, subtypes and keys (ids,
// timestamps, costs and texts aside). A claude upgrade that renames a field or
// adds a line type fails here first; re-record with VOUCH_RECORD_FIXTURES=1
// and read the diff (docs/real-clis.md).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeCli } from "./lib/skip.ts";
import { claudeEnv } from "./lib/claude.ts";
import { throwawayHome } from "./lib/home.ts";
import { runCli } from "./lib/run.ts";
import { linesShape } from "./lib/shape.ts";
import { startFakeAnthropic } from "./servers/anthropic.ts";
import { BASE_FLAGS, REAL_FIXTURES, RECORDED } from "./claude-recorded.ts";

const RECORD = process.env.VOUCH_RECORD_FIXTURES === "1";
// modelUsage and model_usage_since_last_result are keyed by model name: data, not shape.
const SHAPE = { dictionaries: ["modelUsage", "model_usage_since_last_result"], depth: 5 };

/** The distinct line shapes, order-free (retry lines and system lines may interleave differently). */
const shapes = (ndjson: string) =>
  linesShape(ndjson, SHAPE)
    .map((s) => JSON.stringify(s))
    .sort();

describeCli("claude", "recorded claude output still matches the pinned claude", () => {
  for (const scenario of RECORDED) {
    it(`${scenario.name}.jsonl`, { timeout: 90_000 }, async () => {
      const server = startFakeAnthropic(scenario.script);
      const home = throwawayHome("claude-fixture");
      try {
        const r = await runCli("claude", { home, argv: [...BASE_FLAGS, ...scenario.flags], env: claudeEnv(server), stdin: "Say hello." });
        const file = join(REAL_FIXTURES, `${scenario.name}.jsonl`);
        if (RECORD) writeFileSync(file, r.stdout);
        expect(r.stdout.trim()).not.toBe("");
        expect(shapes(r.stdout)).toEqual(shapes(readFileSync(file, "utf8")));
      } finally {
        await server.stop();
        home.cleanup();
      }
    });
  }
});
