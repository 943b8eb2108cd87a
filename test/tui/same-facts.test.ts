// Plain and --json output of the same run carry the same facts: every node
// verdict, branch verdict, failed check, overrun, retry, pause and the run's
// end. The JSON side is read back from the NDJSON text, the plain side is
// parsed from the printed lines, so a fact dropped by either writer fails here.
import { describe, expect, test } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { createNdjsonOutput } from "../../src/tui/ndjson-output.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { loadFixture } from "./helpers/fake-terminal.ts";
import { factsFromJson, factsFromPlain } from "./helpers/facts.ts";

const FIXTURES = ["map-mixed", "failed-check", "overruns", "approval", "retry-fallback", "big-map"];

async function both(events: VouchEvent[]): Promise<{ json: string[]; plain: string[] }> {
  let ndjson = "";
  let text = "";
  const outputs = [createNdjsonOutput((t) => (ndjson += t)), createPlainOutput((t) => (text += t), { color: false, width: 1000 })];
  for (const e of events) for (const o of outputs) o.push(e);
  for (const o of outputs) await o.close();
  return { json: factsFromJson(ndjson), plain: factsFromPlain(text.split("\n")) };
}

describe("plain and --json carry the same facts", () => {
  test.each(FIXTURES)("%s", async (name) => {
    const { json, plain } = await both(loadFixture(name));
    expect(json.length).toBeGreaterThan(1);
    expect(plain).toEqual(json);
  });

  test("the comparison notices a fact missing from the plain side", async () => {
    const events = loadFixture("map-mixed");
    const { json } = await both(events);
    const { plain } = await both(events.filter((e) => e.type !== "cap.overrun"));
    expect(plain).not.toEqual(json);
  });
});
