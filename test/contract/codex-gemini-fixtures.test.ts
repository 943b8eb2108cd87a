// The recorded fixtures (test/fixtures/{codex,gemini}) must still be what the
// pinned CLIs print: each scenario is run again on the real CLI and its
// normalized shape (event types, item types, field names and kinds; no values)
// compared with the fixture's, and its exit status with the recorded one.
import { afterAll, beforeAll, expect, test } from "vitest";
import { cleanupScratch, cliInstalled, describeCli, rawRun } from "./lib/index.ts";
import { FIXTURE_SCENARIOS, readExits, readFixture, shapeOf } from "./codex-gemini-fixtures.ts";
import { startGemini } from "./servers/gemini.ts";
import { startOpenAiResponses } from "./servers/openai-responses.ts";
import type { FakeServer } from "./servers/scenarios.ts";

afterAll(cleanupScratch);

for (const cli of ["codex", "gemini"] as const) {
  describeCli(cli, `${cli}: the fixtures match what the pinned CLI prints`, () => {
    let server: FakeServer;
    beforeAll(() => {
      server = cli === "codex" ? startOpenAiResponses() : startGemini();
    });
    afterAll(() => server?.stop());
    const exits = cliInstalled(cli) ? readExits(cli) : {};
    test.each(FIXTURE_SCENARIOS[cli])(`${cli} %s`, { timeout: 120_000 }, async (scenario) => {
      const { stdout, exit } = await rawRun(cli, server.base(scenario));
      expect(shapeOf(stdout)).toEqual(shapeOf(readFixture(cli, scenario)));
      expect(exit).toBe(exits[scenario]);
    });
  });
}
