// The recorded sequences are valid runs: every line matches the event schema,
// one run id, seq counts up from 0, times never go back.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { eventSchema } from "../../src/engine/events.ts";

const dir = join(import.meta.dirname, "fixtures");
const files = readdirSync(dir).filter((f) => f.endsWith(".ndjson"));

test("there are the fixtures the tests name", () => {
  expect(files.sort()).toEqual([
    "approval.ndjson",
    "big-map.ndjson",
    "failed-check.ndjson",
    "map-mixed.ndjson",
    "overruns.ndjson",
    "retry-fallback.ndjson",
  ]);
});

test.each(files)("%s is a valid event sequence", (file) => {
  const lines = readFileSync(join(dir, file), "utf8").split("\n").filter(Boolean);
  const events = lines.map((l) => eventSchema.parse(JSON.parse(l)));
  expect(events[0]!.type).toBe("run.started");
  expect(new Set(events.map((e) => e.run)).size).toBe(1);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  const times = events.map((e) => Date.parse(e.t));
  expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
});
