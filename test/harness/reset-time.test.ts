// The reset-time reader (src/spawn/harness/common/reset-time.ts): every form the CLIs
// print, and hostile text — huge, escape sequences, absurd numbers, dates in
// the past — never yields a reset outside (now, now + MAX_RESET_AHEAD_MS].
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { MAX_RESET_AHEAD_MS, MAX_RESET_TEXT, parseResetTime, resetFromEpoch } from "../../src/spawn/harness/common/reset-time.ts";
import { claudeRateLimit } from "../../src/spawn/harness/claude/limit.ts";
import { codexRateLimit } from "../../src/spawn/harness/codex/limit.ts";
import { geminiRateLimit } from "../../src/spawn/harness/gemini/limit.ts";

const NOW = Date.parse("2026-12-01T09:05:00Z");
const at = (text: string, localZone = "UTC") => {
  const r = parseResetTime(text, { now: NOW, localZone });
  return r === null ? null : new Date(r).toISOString();
};

describe("the forms", () => {
  test.each([
    ["resets 4pm (Europe/Berlin)", "2026-12-01T15:01:00.000Z"],
    ["resets 3:30pm (UTC)", "2026-12-01T15:31:00.000Z"],
    // Earlier today in that zone: the next one, tomorrow.
    ["resets 8am (UTC)", "2026-12-02T08:01:00.000Z"],
    ["resets Dec 4, 10:30am (Europe/Berlin)", "2026-12-04T09:31:00.000Z"],
    ["resets Dec 4, 4:30am (America/New_York)", "2026-12-04T09:31:00.000Z"],
    ["try again at 3:00 PM.", "2026-12-01T15:01:00.000Z"],
    ["try again at Dec 3rd, 2026 3:00 PM.", "2026-12-03T15:01:00.000Z"],
    ["Access resets at 3:15 PM PST.", "2026-12-01T23:16:00.000Z"],
    ["Please retry in 42.5s.", "2026-12-01T09:05:42.500Z"],
    ["Please retry in 1500ms.", "2026-12-01T09:05:01.500Z"],
    ["try again in 20m0s", "2026-12-01T09:25:00.000Z"],
    ["resets in 3 hours", "2026-12-01T12:05:00.000Z"],
    ["in 2 days 3 hours 4 minutes", "2026-12-03T12:09:00.000Z"],
    ["resets_at 2026-12-01T15:00:00Z", "2026-12-01T15:00:00.000Z"],
    ["until 2026-12-01T16:00:00+01:00", "2026-12-01T15:00:00.000Z"],
  ])("%s → %s", (text, expected) => {
    expect(at(text)).toBe(expected);
  });

  // Issue 28 item 2: codex names its reset to the minute ("try again at 4:32 PM"); vouch read
  // 4:32:00, a moment already past while the limit still held, waited 0 ms and restarted codex
  // into it (18 sittings in 10.7 s), and a paused run named a reset up to 59 s early.
  test("a reset given to the minute is the end of that minute", () => {
    const inMinute = (text: string, now: string, zone = "UTC") => {
      const r = parseResetTime(text, { now: Date.parse(now), localZone: zone });
      return r === null ? null : new Date(r).toISOString();
    };
    expect(inMinute("try again at 4:32 PM.", "2026-12-01T16:32:30Z")).toBe("2026-12-01T16:33:00.000Z");
    expect(inMinute("try again at 4:32 PM.", "2026-12-01T16:31:55Z")).toBe("2026-12-01T16:33:00.000Z");
    expect(inMinute("resets_at 2026-12-01T16:32Z", "2026-12-01T16:32:30Z")).toBe("2026-12-01T16:33:00.000Z");
    // Seconds given: to the second.
    expect(inMinute("resets_at 2026-12-01T16:32:10Z", "2026-12-01T16:32:05Z")).toBe("2026-12-01T16:32:10.000Z");
  });

  test("a reset already past is no reset (unknown: vouch's backoff), never now", () => {
    const past = (text: string, now: string) => parseResetTime(text, { now: Date.parse(now), localZone: "UTC" });
    // The minute is over: codex's clock time two minutes ago (on main: "now", a wait of 0 ms).
    expect(past("try again at 4:32 PM.", "2026-12-01T16:34:10Z")).toBeNull();
    expect(past("try again at 4:32 PM.", "2026-12-01T16:33:00Z")).toBeNull();
    expect(past("resets_at 2026-12-01T16:30:00Z", "2026-12-01T16:32:00Z")).toBeNull();
    expect(resetFromEpoch(Date.parse("2026-12-01T16:31:00Z") / 1000, Date.parse("2026-12-01T16:32:00Z"))).toBeNull();
    expect(resetFromEpoch(NOW, NOW)).toBeNull();
  });

  test("a form that names no believable moment does not hide the next one", () => {
    expect(at("logged 2020-01-01T00:00:00Z: quota exceeded, please retry in 42s")).toBe("2026-12-01T09:05:42.000Z");
  });

  test("a bare clock time is read in the harness's local zone", () => {
    expect(at("try again at 3:00 PM.", "Europe/Berlin")).toBe("2026-12-01T14:01:00.000Z");
    expect(at("try again at 3:00 PM.", "America/Los_Angeles")).toBe("2026-12-01T23:01:00.000Z");
    // An invalid local zone falls back to UTC rather than failing.
    expect(at("try again at 3:00 PM.", "Not/AZone")).toBe("2026-12-01T15:01:00.000Z");
  });

  test.each([
    ["no time at all", "You've hit your 5-hour limit"],
    ["a date in the past", "resets_at 2020-01-01T00:00:00Z"],
    ["a date years ahead", "resets_at 2099-01-01T00:00:00Z"],
    ["an absurd duration", "retry in 999999999 days"],
    ["an unknown zone", "resets 4pm (Mars/Olympus_Mons)"],
    ["a clock time out of range", "resets 13pm (UTC)"],
    ["minutes out of range", "resets 3:75pm (UTC)"],
    ["a day out of range", "resets Dec 45, 3pm (UTC)"],
  ])("%s: no reset", (_what, text) => {
    expect(at(text)).toBeNull();
  });

  test("epochs: seconds or milliseconds; past, absurd and non-numbers are no reset", () => {
    expect(resetFromEpoch(1796137200, NOW)).toBe(1796137200_000);
    expect(resetFromEpoch(1796137200_000, NOW)).toBe(1796137200_000);
    for (const bad of [0, -1, 1e300, Number.NaN, Infinity, 1_000_000, "1796137200", null, {}]) expect(resetFromEpoch(bad, NOW)).toBeNull();
  });
});

describe("hostile text", () => {
  const within = (r: number | null) => r === null || (r > NOW && r <= NOW + MAX_RESET_AHEAD_MS);
  const pieces = fc.oneof(
    fc.string(),
    fc.constantFrom(
      "resets ",
      "try again at ",
      "in ",
      "retry in ",
      "Dec ",
      "3rd, ",
      "2026 ",
      "pm",
      " PM",
      "(UTC)",
      "(Europe/Berlin)",
      " PST",
      "\u001b[31m",
      "\u0000",
      "\n",
      "·",
      "9999999999",
      "2020-01-01T00:00:00Z",
      "2099-12-31T23:59:59Z",
      "-5 hours",
      "1e308s",
      "s",
      "h",
      "d",
    ),
    fc.integer().map(String),
    fc.double().map(String),
  );
  const hostile = fc.array(pieces, { maxLength: 40 }).map((a) => a.join(""));

  test("whatever the text, a reset is null or within (now, now + the cap]: never now or past", () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom("UTC", "Europe/Berlin", "Pacific/Kiritimati", "Bad/Zone"), (text, zone) => {
        expect(within(parseResetTime(text, { now: NOW, localZone: zone }))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test("the classifiers never throw and keep the same bound", () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: -1, max: 300 }), (text, exit) => {
        const ctx = { now: NOW };
        for (const stop of [
          codexRateLimit(text, ctx),
          geminiRateLimit(exit, text, ctx),
          claudeRateLimit({ is_error: true, api_error_status: 429, result: text }, [{ status: "rejected", resetsAt: Number(text) }], ctx),
        ]) {
          if (stop) expect(within(stop.resetsAt)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("a huge text is read at its start only (MAX_RESET_TEXT)", () => {
    const huge = "x".repeat(5_000_000) + " retry in 42s";
    expect(parseResetTime(huge, { now: NOW })).toBeNull();
    const early = "retry in 42s " + "in 1 ".repeat(1_000_000);
    expect(parseResetTime(early, { now: NOW })).toBe(NOW + 42_000);
    // Near the cut: the form must lie wholly inside the read part.
    const cut = "y".repeat(MAX_RESET_TEXT - 5) + "retry in 42s";
    expect(parseResetTime(cut, { now: NOW })).toBeNull();
  });

  test("escape sequences around a form do not hide it or leak into the reset", () => {
    expect(at("\u001b[1mYou've hit your limit · resets 4pm (Europe/Berlin)\u001b[0m")).toBe("2026-12-01T15:01:00.000Z");
  });
});
