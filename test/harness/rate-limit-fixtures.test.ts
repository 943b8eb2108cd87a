// Usage and rate limits as the pinned CLIs print them (test/fixtures/limits/,
// provenance in its README.md): each adapter's parser stops the sitting as
// rate_limited, with the reset the CLI named (issue 16, ADR 0022).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createClaudeParser } from "../../src/spawn/harness/claude/stream.ts";
import { createCodexParser } from "../../src/spawn/harness/codex/stream.ts";
import { createGeminiParser } from "../../src/spawn/harness/gemini/stream.ts";
import { parseResetTime } from "../../src/spawn/harness/common/reset-time.ts";
import { codexRateLimit } from "../../src/spawn/harness/codex/limit.ts";
import { geminiRateLimit } from "../../src/spawn/harness/gemini/limit.ts";
import { HIT_LIMIT_FORM, localZone } from "../../src/spawn/harness/common/usage-limit.ts";
import type { StreamParser } from "../../src/spawn/harness/types.ts";
import { ROOT, parseAll } from "./helpers.ts";

const LIMITS = join(ROOT, "test", "fixtures", "limits");
const read = (cli: string, name: string) => readFileSync(join(LIMITS, cli, `${name}.jsonl`), "utf8");
/** The fixtures were recorded on 2026-12-01 around 09:05 UTC: relative forms count from there. */
const RECORDED = Date.parse("2026-12-01T09:05:00Z");
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function sit(parser: StreamParser, cli: string, name: string, exit: number) {
  return parseAll(parser, read(cli, name), { exit, endedAt: RECORDED }).sitting;
}

describe("claude", () => {
  const claude = (name: string) => sit(createClaudeParser(), "claude", name, 1);
  test.each([
    ["five-hour-berlin", "2026-12-01T15:00:00.000Z", "resets 4pm (Europe/Berlin)"],
    ["five-hour-utc", "2026-12-01T15:00:00.000Z", "resets 3pm (UTC)"],
    ["weekly-berlin", "2026-12-04T09:30:00.000Z", "weekly limit"],
    ["weekly-new-york", "2026-12-04T09:30:00.000Z", "weekly limit"],
  ])("%s: rate_limited, resets_at from the rate_limit_event", (name, resets, said) => {
    const s = claude(name);
    expect(s.stopReason).toBe("rate_limited");
    expect(iso(s.resetsAt)).toBe(resets);
    expect(s.error).toContain(said);
    expect(s.turns).toBe(0);
  });

  // The text names the reset to the minute (or the hour): read as the end of that minute, so
  // never earlier than the event's moment and at most a minute later (issue 28 item 2).
  test("the text alone gives the event's reset, to the end of its minute (the event line removed)", () => {
    for (const name of ["five-hour-berlin", "five-hour-utc", "weekly-berlin", "weekly-new-york"]) {
      const text = read("claude", name)
        .split("\n")
        .filter((l) => !l.includes('"rate_limit_event"'))
        .join("\n");
      const s = parseAll(createClaudeParser(), text, { exit: 1, endedAt: RECORDED }).sitting;
      expect([name, s.stopReason, iso(s.resetsAt)]).toEqual([
        name,
        "rate_limited",
        name.startsWith("weekly") ? "2026-12-04T09:31:00.000Z" : "2026-12-01T15:01:00.000Z",
      ]);
    }
  });

  test.each(["five-hour-no-reset", "api-key-429-retry-after", "api-key-429-reset-headers"])(
    "%s: rate_limited with no reset (the CLI names none)",
    (name) => {
      const s = claude(name);
      expect(s.stopReason).toBe("rate_limited");
      expect(s.resetsAt).toBeUndefined();
      expect(s.error).toContain("no reset time given");
    },
  );

  test("the other API errors stay crashed: a disconnect is no limit", () => {
    const s = parseAll(createClaudeParser(), readFileSync(join(ROOT, "test", "fixtures", "claude-real", "disconnect.jsonl"), "utf8"), {
      exit: 1,
      endedAt: RECORDED,
    }).sitting;
    expect(s.stopReason).toBe("crashed");
  });
});

describe("codex", () => {
  // Recorded with TZ=UTC: codex prints its local time with no zone; vouch reads it in its own zone.
  test.each([
    // "try again at 3:00 PM": the end of that minute.
    ["usage-limit", "2026-12-01T15:01:00.000Z"],
    ["usage-limit-days", "2026-12-03T15:01:00.000Z"],
    ["usage-limit-noreset", undefined],
    ["429-headers", undefined],
    ["insufficient-quota", undefined],
  ])("%s: rate_limited, resets %s", (name, resets) => {
    const s = parseAll(createCodexParser(), read("codex", name), { exit: 1, endedAt: RECORDED, localZone: "UTC" }).sitting;
    expect(s.stopReason).toBe("rate_limited");
    expect(iso(s.resetsAt)).toBe(resets);
  });

  test("codex's bare clock time is read in the zone it was given (its TZ)", () => {
    const s = parseAll(createCodexParser(), read("codex", "usage-limit"), {
      exit: 1,
      endedAt: RECORDED,
      localZone: "Europe/Berlin",
    }).sitting;
    expect(iso(s.resetsAt)).toBe("2026-12-01T14:01:00.000Z");
  });

  test("a 401 stays unavailable", () => {
    const s = parseAll(createCodexParser(), readFileSync(join(ROOT, "test", "fixtures", "codex", "unauthorized.jsonl"), "utf8"), {
      exit: 1,
      endedAt: RECORDED,
    }).sitting;
    expect(s.stopReason).toBe("unavailable");
  });
});

describe("gemini", () => {
  test("a daily quota (exit 173): rate_limited, no reset named", () => {
    const s = sit(createGeminiParser(), "gemini", "quota-day", 173);
    expect(s.stopReason).toBe("rate_limited");
    expect(s.resetsAt).toBeUndefined();
    expect(s.error).toContain("daily quota");
  });

  test("a per-minute quota: rate_limited, reset 42.5 s after the sitting ended", () => {
    const s = sit(createGeminiParser(), "gemini", "quota-minute", 173);
    expect(s.stopReason).toBe("rate_limited");
    expect(s.resetsAt).toBe(RECORDED + 42_500);
  });

  test("the older rate-limited fixture (exit 173, 'Quota exceeded') is rate_limited too", () => {
    const s = parseAll(createGeminiParser(), readFileSync(join(ROOT, "test", "fixtures", "gemini", "rate-limited.jsonl"), "utf8"), {
      exit: 173,
      endedAt: RECORDED,
    }).sitting;
    expect(s.stopReason).toBe("rate_limited");
  });

  test("a 401 (exit 145) stays unavailable", () => {
    const s = parseAll(createGeminiParser(), readFileSync(join(ROOT, "test", "fixtures", "gemini", "unauthorized.jsonl"), "utf8"), {
      exit: 145,
      endedAt: RECORDED,
    }).sitting;
    expect(s.stopReason).toBe("unavailable");
  });
});

describe("forms read from the CLIs' sources (sources.json)", () => {
  const sources = JSON.parse(readFileSync(join(LIMITS, "sources.json"), "utf8")) as {
    forms: { cli: string; text: string; now: string; tz?: string; resets_at: string | null }[];
  };
  test.each(sources.forms.map((f) => [f.cli, f.text.split("\n")[0]!, f] as const))("%s: %s", (cli, _line, f) => {
    const ctx = { now: Date.parse(f.now), localZone: f.tz ?? "UTC" };
    const expected = f.resets_at === null ? null : Date.parse(f.resets_at);
    expect(parseResetTime(f.text, ctx)).toBe(expected);
    // And each is recognised as a limit by its CLI's classifier.
    if (cli === "codex") expect(codexRateLimit(f.text, ctx)).not.toBeNull();
    else if (cli === "gemini") expect(geminiRateLimit(1, f.text, ctx)).not.toBeNull();
    else expect(HIT_LIMIT_FORM.test(f.text)).toBe(true);
  });
});

describe("localZone", () => {
  test("a valid TZ is kept; an invalid one is UTC (the C library's fallback); none is the system's", () => {
    expect(localZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(localZone("Not/A_Zone")).toBe("UTC");
    expect(localZone(undefined)).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  });
});
