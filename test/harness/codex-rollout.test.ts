// codex's responses counted from its session file (ADR 0050). The fixtures in
// test/fixtures/codex-rollout/ are what the pinned codex 0.171.0 wrote (its
// rollout, instructions and message texts left out) and printed on stdout with
// CODEX_HOME under TMPDIR: its sandbox helper was never created, every command
// failed before it started, and the stream shows no command item at all.
import { afterEach, describe, expect, test } from "vitest";
import fc from "fast-check";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { responseOf, rolloutCounter, ROLLOUT_READ_BYTES } from "../../src/spawn/harness/codex/rollout.ts";
import { createCodexParser } from "../../src/spawn/harness/codex/stream.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "codex-rollout");
const ROLLOUT = readFileSync(join(FIXTURES, "rollout-temp-home.jsonl"), "utf8");
const STREAM = readFileSync(join(FIXTURES, "stream-temp-home.jsonl"), "utf8");
const THREAD = "01a232e8-8cd8-74c3-a70f-093be3b01167";
const DAY = "2026/12/01";
const AT = Date.parse("2026-12-01T18:40:30Z");

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** A CODEX_HOME with the rollout of THREAD (or `name`) holding `text`, in `day`'s folder. */
function codexHome(text: string, o: { day?: string; name?: string } = {}) {
  const home = mkdtempSync(join(tmpdir(), "vouch-rollout-"));
  homes.push(home);
  const dir = join(home, "sessions", o.day ?? DAY);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, o.name ?? `rollout-2026-12-01T18-40-30-${THREAD}.jsonl`);
  writeFileSync(file, text);
  return { env: { CODEX_HOME: home }, file };
}

const record = (id: string, at: string) =>
  JSON.stringify({ timestamp: at, type: "token_usage_record", payload: { response_id: id, usage: { input_tokens: 1 } } });

describe("the rollout counter", () => {
  test("the recorded file: one response per token_usage_record (9), where the stream showed no item", () => {
    const { env } = codexHome(ROLLOUT);
    const counter = rolloutCounter({ env, startedAt: AT, now: () => AT });
    expect(counter.read(THREAD)).toBe(true);
    expect(counter.responses).toBe(9);
    expect(counter.found).toBe(true);
    // The stream alone: no response at all.
    const parser = createCodexParser();
    for (const line of STREAM.split("\n")) parser.feed(line);
    expect(parser.progress().turns).toBe(0);
  });

  test("the codex parser given the child's environment takes the file's count", () => {
    const { env } = codexHome(ROLLOUT);
    const parser = createCodexParser({ env, startedAt: AT });
    for (const line of STREAM.split("\n")) parser.feed(line);
    expect(parser.poll?.()).toMatchObject({ turns: 9 });
    expect(parser.poll?.()).toBeNull(); // nothing new
    const sitting = parser.finish({ exit: null, signal: "SIGTERM", stdoutTail: "", stderrTail: "", truncated: false });
    expect(sitting.turns).toBe(9);
    expect(sitting.sessionId).toBe(THREAD);
  });

  test("read as it grows: only what was appended, a line split across writes counted once it is whole", () => {
    const { env, file } = codexHome("");
    const counter = rolloutCounter({ env, startedAt: AT, now: () => AT });
    expect(counter.read(THREAD)).toBe(false);
    const line = record("resp_1", "2026-12-01T18:40:31.000Z");
    appendFileSync(file, line.slice(0, 20));
    expect(counter.read(THREAD)).toBe(false);
    appendFileSync(file, `${line.slice(20)}\n`);
    expect(counter.read(THREAD)).toBe(true);
    appendFileSync(file, `${record("resp_1", "2026-12-01T18:40:32.000Z")}\n${record("resp_2", "2026-12-01T18:40:33.000Z")}\n`);
    expect(counter.read(THREAD)).toBe(true);
    expect(counter.responses).toBe(2); // resp_1 twice is one response
  });

  test("a resumed thread's earlier sittings (stamped before this one started) do not count", () => {
    const text = [
      record("old_1", "2026-12-01T18:00:00.000Z"),
      record("old_2", "2026-12-01T18:40:29.999Z"),
      record("new_1", "2026-12-01T18:40:30.000Z"),
    ];
    const { env } = codexHome(`${text.join("\n")}\n`);
    const counter = rolloutCounter({ env, startedAt: AT, now: () => AT });
    counter.read(THREAD);
    expect(counter.responses).toBe(1);
  });

  test("found by CODEX_HOME, else HOME/.codex; in yesterday's folder too; the newest file of the thread", () => {
    const home = mkdtempSync(join(tmpdir(), "vouch-rollout-home-"));
    homes.push(home);
    const dir = join(home, ".codex", "sessions", "2026", "11", "30");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `rollout-2026-11-30T23-59-00-${THREAD}.jsonl`), `${record("a", "2026-12-01T18:40:31.000Z")}\n`);
    writeFileSync(
      join(dir, `rollout-2026-11-30T23-59-59-${THREAD}.jsonl`),
      `${record("b", "2026-12-01T18:40:31.000Z")}\n${record("c", "2026-12-01T18:40:31.000Z")}\n`,
    );
    const counter = rolloutCounter({ env: { HOME: home }, startedAt: AT, now: () => AT });
    counter.read(THREAD);
    expect(counter.responses).toBe(2);
  });

  test("a thread id that is no plain id is never looked up; no thread yet, nothing read", () => {
    const { env } = codexHome(ROLLOUT, { name: "rollout-x-..jsonl" });
    for (const id of [undefined, "", "..", "../x", "a/b", "x".repeat(129)]) {
      const counter = rolloutCounter({ env, startedAt: AT, now: () => AT });
      expect(counter.read(id)).toBe(false);
      expect(counter.found).toBe(false);
    }
  });

  test("a line longer than the read bound is skipped whole; the records after it count", () => {
    const huge = JSON.stringify({
      timestamp: "2026-12-01T18:40:31.000Z",
      type: "response_item",
      payload: { output: "x".repeat(ROLLOUT_READ_BYTES + 10) },
    });
    const { env } = codexHome(`${huge}\n${record("after", "2026-12-01T18:40:32.000Z")}\n`);
    const counter = rolloutCounter({ env, startedAt: AT, now: () => AT });
    for (let i = 0; i < 4; i++) counter.read(THREAD);
    expect(counter.responses).toBe(1);
  });

  test("no file: nothing counted, never throws", () => {
    const counter = rolloutCounter({ env: {}, startedAt: AT });
    expect(counter.read(THREAD)).toBe(false);
    expect(counter.found).toBe(false);
  });
});

describe("responseOf", () => {
  test("only a token_usage_record with a string response id, stamped at or after the start", () => {
    expect(responseOf(record("r", "2026-12-01T18:40:31.000Z"), AT)).toBe("r");
    expect(responseOf(record("r", "2026-12-01T18:40:29.000Z"), AT)).toBeNull();
    expect(responseOf(record("r", "not a date"), AT)).toBeNull();
    expect(
      responseOf(JSON.stringify({ type: "token_usage_record", timestamp: "2026-12-01T18:40:31Z", payload: { response_id: 7 } }), AT),
    ).toBeNull();
    expect(
      responseOf(JSON.stringify({ type: "event_msg", timestamp: "2026-12-01T18:40:31Z", payload: { type: "token_usage_record" } }), AT),
    ).toBeNull();
    expect(responseOf('{"type":"token_usage_record"', AT)).toBeNull();
  });

  test("hostile lines never throw", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => `${j}"token_usage_record"`),
          fc.jsonValue().map((v) => JSON.stringify({ type: "token_usage_record", timestamp: "2026-12-01T18:40:31Z", payload: v })),
        ),
        (line) => {
          const r = responseOf(line, AT);
          expect(r === null || typeof r === "string").toBe(true);
        },
      ),
    );
  });
});
