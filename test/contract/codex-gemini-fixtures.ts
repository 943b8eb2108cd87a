// The captured outputs of the real codex and gemini kept as fixtures
// (test/fixtures/{codex,gemini}/<scenario>.jsonl) for the fast unit tests, and
// their normalized shape, which the contract test holds to what the pinned CLIs
// print today. Re-record after a version bump:
//   node_modules/.bin/bun test/contract/codex-gemini-fixtures.ts
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupScratch, rawRun, ROOT } from "./lib/index.ts";
import { startGemini } from "./servers/gemini.ts";
import { startOpenAiResponses } from "./servers/openai-responses.ts";
import type { Scenario } from "./servers/scenarios.ts";

export const FIXTURE_SCENARIOS: Readonly<Record<"codex" | "gemini", readonly Scenario[]>> = {
  codex: ["plain", "json", "blocks", "tools-then-answer", "rate-limited", "unauthorized", "disconnect"],
  gemini: ["plain", "json", "blocks", "tools-then-answer", "tools-same", "rate-limited", "unauthorized", "disconnect"],
};

export const fixturePath = (cli: "codex" | "gemini", scenario: Scenario) => join(ROOT, "test", "fixtures", cli, `${scenario}.jsonl`);
/** The exit status each recorded run ended with. */
export const exitsPath = (cli: "codex" | "gemini") => join(ROOT, "test", "fixtures", cli, "exits.json");
export const readExits = (cli: "codex" | "gemini") => JSON.parse(readFileSync(exitsPath(cli), "utf8")) as Record<string, number>;
export const readFixture = (cli: "codex" | "gemini", scenario: Scenario) => readFileSync(fixturePath(cli, scenario), "utf8");

/** Keys whose values are maps keyed by data (model names), not by the format. */
const DATA_KEYED = new Set(["models"]);

function shapeOfValue(v: unknown, key = ""): unknown {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shapeOfValue(v[0])];
  if (v !== null && typeof v === "object") {
    if (DATA_KEYED.has(key)) return "{map}";
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, k === "type" || k === "role" || k === "status" || k === "severity" ? o[k] : shapeOfValue(o[k], k)]),
    );
  }
  return v === null ? "null" : typeof v;
}

/** One line per JSON line: its event type, item type and the names and kinds of its fields; values dropped. */
export function shapeOf(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      try {
        return JSON.stringify(shapeOfValue(JSON.parse(l)));
      } catch {
        return "not JSON";
      }
    });
}

if (import.meta.main) {
  for (const cli of ["codex", "gemini"] as const) {
    const server = cli === "codex" ? startOpenAiResponses() : startGemini();
    mkdirSync(join(ROOT, "test", "fixtures", cli), { recursive: true });
    const exits: Record<string, number> = {};
    for (const scenario of FIXTURE_SCENARIOS[cli]) {
      const { stdout, exit } = await rawRun(cli, server.base(scenario));
      writeFileSync(fixturePath(cli, scenario), stdout);
      exits[scenario] = exit;
      console.log(`${cli} ${scenario}: exit ${exit}, ${shapeOf(stdout).length} lines`);
    }
    writeFileSync(exitsPath(cli), `${JSON.stringify(exits, null, 2)}\n`);
    await server.stop();
  }
  cleanupScratch();
}
