// When a usage or rate limit resets, read from what a harness printed (issue
// 16; the forms in test/fixtures/limits/). Pure: the moment the text is read
// against (`now`) and the zone of a clock time printed without one are
// arguments. Every form the pinned CLIs print: an epoch, an ISO date, a clock
// time with an IANA zone ("resets 4pm (Europe/Berlin)", "resets Dec 4,
// 10:30am (UTC)"), a clock time with an abbreviation ("3:15 PM PST"), a bare
// local clock time and date ("try again at Dec 3rd, 2026 3:00 PM"), and a
// duration ("retry in 42.5s", "in 3 hours", "20m0s").
//
// A reset is believed only inside (now, now + MAX_RESET_AHEAD_MS]: a date
// absurdly far away is no reset (null), so a hostile or garbled text can never
// make vouch wait forever; and a reset already past is no reset either (null:
// the engine's backoff applies), never "now" — codex names its reset to the
// minute, and a restart at a moment already past only meets the same limit
// again (issue 28 item 2: 18 sittings in 10.7 s). A time given to the minute
// ("try again at 4:32 PM", an ISO stamp without seconds) means the end of that
// minute: the limit may lift at any second of it, and waiting less restarts
// the harness into it.

/** Longest text read: a limit message is one line; a huge one is scanned at its start. */
export const MAX_RESET_TEXT = 8 * 1024;
/** A reset further ahead than this is not believed (the longest window any CLI names is a week). */
export const MAX_RESET_AHEAD_MS = 31 * 24 * 3600 * 1000;
/** A clock time this far in the past is taken as today's (just past: no reset), not as tomorrow's. */
const SKEW_MS = 5 * 60 * 1000;
/** What a time given to the minute adds: the end of that minute. */
export const MINUTE_MS = 60_000;

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
/** Zone abbreviations the CLIs print (en-US `timeZoneName: short`), in minutes east of UTC. */
const ABBREVIATIONS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  PST: -480,
  PDT: -420,
  MST: -420,
  MDT: -360,
  CST: -360,
  CDT: -300,
  EST: -300,
  EDT: -240,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  CET: 60,
  CEST: 120,
  BST: 60,
  IST: 330,
  JST: 540,
};

export interface ResetContext {
  /** Epoch ms the text is read against (when the sitting ended). */
  now: number;
  /** IANA zone of a clock time printed without one (the harness's own local zone); default UTC. */
  localZone?: string;
}

/** The reset a text names, as epoch ms, or null when it names none (or none believable). */
export function parseResetTime(text: string, ctx: ResetContext): number | null {
  const t = text.length > MAX_RESET_TEXT ? text.slice(0, MAX_RESET_TEXT) : text;
  // The first form that names a believable moment: a stale ISO stamp in the text does not hide a later "retry in 42s".
  for (const read of [readIso, readClock, readDuration]) {
    const at = read(t, ctx);
    const b = at === null ? null : believable(at, ctx.now);
    if (b !== null) return b;
  }
  return null;
}

/** An epoch in seconds or milliseconds (a JSON field such as claude's resetsAt), as epoch ms, or null. */
export function resetFromEpoch(value: unknown, now: number): number | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return null;
  const ms = value < 1e12 ? value * 1000 : value;
  return believable(ms, now);
}

/** The reset when it is still ahead and not absurdly far; null otherwise (unknown: vouch backs off). */
function believable(at: number, now: number): number | null {
  if (!Number.isFinite(at) || at <= now || at > now + MAX_RESET_AHEAD_MS) return null;
  return at;
}

const ISO = /\b(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})/;

function readIso(t: string): number | null {
  const m = ISO.exec(t);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}${normalOffset(m[7]!)}`);
  if (Number.isNaN(ms)) return null;
  // Given to the minute: the end of it.
  return m[6] === undefined ? ms + MINUTE_MS : ms;
}

function normalOffset(o: string): string {
  return o === "Z" || o.includes(":") ? o : `${o.slice(0, 3)}:${o.slice(3)}`;
}

// "resets Dec 4, 2027, 10:30am (Europe/Berlin)", "try again at Dec 3rd, 2026 3:00 PM.", "Access resets at 3:15 PM PST."
const CLOCK = new RegExp(
  String.raw`\b(?:resets?|again|at)\s+(?:at\s+)?` +
    String.raw`(?:(${MONTHS.join("|")})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?)?` +
    String.raw`(\d{1,2})(?::(\d{2}))?\s?([ap])\.?m\.?` +
    String.raw`(?:\s*\(([A-Za-z_]+(?:/[A-Za-z0-9_+-]+){0,2})\)|\s+([A-Z]{1,5})\b)?`,
  "i",
);

function readClock(t: string, ctx: ResetContext): number | null {
  const m = CLOCK.exec(t);
  if (!m) return null;
  let hour = Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  if (hour < 1 || hour > 12 || minute > 59) return null;
  hour = (hour % 12) + (m[6]!.toLowerCase() === "p" ? 12 : 0);
  const zone = zoneOf(m[7], m[8], ctx.localZone);
  if (zone === null) return null;
  const month = m[1] === undefined ? null : MONTHS.indexOf(m[1].toLowerCase().slice(0, 3));
  const day = m[2] === undefined ? null : Number(m[2]);
  const year = m[3] === undefined ? null : Number(m[3]);
  if (day !== null && (day < 1 || day > 31)) return null;
  const at = nextOccurrence({ month, day, year, hour, minute }, zone, ctx.now);
  // A clock time is given to the minute (or the hour, read as its first minute): the end of that minute.
  return at === null ? null : at + MINUTE_MS;
}

type Zone = { iana: string } | { offsetMin: number };

function zoneOf(iana: string | undefined, abbreviation: string | undefined, local: string | undefined): Zone | null {
  if (iana !== undefined) return validZone(iana) ? { iana } : null;
  if (abbreviation !== undefined) {
    const off = ABBREVIATIONS[abbreviation.toUpperCase()];
    // An unknown word after the time ("3:00 PM. Then") is no zone: the local one applies.
    if (off !== undefined) return { offsetMin: off };
  }
  const l = local ?? "UTC";
  return validZone(l) ? { iana: l } : { offsetMin: 0 };
}

/** Whether Intl knows the IANA zone. */
export function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface Wall {
  month: number | null;
  day: number | null;
  year: number | null;
  hour: number;
  minute: number;
}

/** The first moment at or after now (less the skew) with that wall-clock time in that zone. */
function nextOccurrence(w: Wall, zone: Zone, now: number): number | null {
  const today = wallDate(now, zone);
  if (w.month === null) {
    for (let add = 0; add <= 1; add++) {
      const at = toEpoch({ y: today.y, mo: today.mo, d: today.d + add, h: w.hour, mi: w.minute }, zone);
      if (at >= now - SKEW_MS) return at;
    }
    return null;
  }
  const years = w.year !== null ? [w.year] : [today.y, today.y + 1];
  for (const y of years) {
    const at = toEpoch({ y, mo: w.month, d: w.day!, h: w.hour, mi: w.minute }, zone);
    if (at >= now - SKEW_MS || w.year !== null) return at;
  }
  return null;
}

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
}

function wallDate(at: number, zone: Zone): { y: number; mo: number; d: number } {
  const shifted = new Date(at + offsetAt(at, zone) * 60_000);
  return { y: shifted.getUTCFullYear(), mo: shifted.getUTCMonth(), d: shifted.getUTCDate() };
}

/** Wall time in a zone → epoch ms (the offset looked up twice: right across a DST change). */
function toEpoch(p: Parts, zone: Zone): number {
  const naive = Date.UTC(p.y, p.mo, p.d, p.h, p.mi);
  const first = naive - offsetAt(naive, zone) * 60_000;
  return naive - offsetAt(first, zone) * 60_000;
}

/** Minutes east of UTC of the zone at that moment. */
function offsetAt(at: number, zone: Zone): number {
  if ("offsetMin" in zone) return zone.offsetMin;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone.iana,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((x) => x.type === type)?.value ?? 0);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"));
  return Math.round((wall - Math.floor(at / 60_000) * 60_000) / 60_000);
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  millisecond: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};
// "retry in 42.5s", "try again in 20m0s", "resets in 2 days 3 hours", "Suggested retry after 42.5s", "in 3 hours"
const UNIT = String.raw`(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)(?![a-z])`;
const DURATION_LEAD = new RegExp(String.raw`\b(?:in|after)\s+((?:\d{1,9}(?:\.\d{1,6})?\s?${UNIT},?\s*(?:and\s+)?){1,6})`, "i");
const DURATION_PART = new RegExp(String.raw`(\d{1,9}(?:\.\d{1,6})?)\s?${UNIT}`, "gi");

function readDuration(t: string, ctx: ResetContext): number | null {
  const m = DURATION_LEAD.exec(t);
  if (!m) return null;
  let total = 0;
  for (const part of m[1]!.matchAll(DURATION_PART)) {
    const unit = part[2]!.toLowerCase();
    const ms = UNIT_MS[unit] ?? UNIT_MS[unit.slice(0, -1)];
    if (ms === undefined) return null;
    total += Number(part[1]) * ms;
  }
  return ctx.now + total;
}
