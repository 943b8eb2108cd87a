// What comes from the user (Redis URLs) and from Redis (stream messages, job
// data) is untrusted: checked once, with a clear message or dropped.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { parseRedisUrl } from "../../src/executor/redis/url.ts";
import { decodeMessage, encodeMessage } from "../../src/executor/protocol.ts";
import { parseJob } from "../../src/executor/job-shape.ts";
import { UsageError } from "../../src/engine/errors.ts";
import { refuseForWorkers } from "../../src/cli/executor-option.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";

describe("redis URLs", () => {
  test("host, port and db; the displayed URL never has the password", () => {
    expect(parseRedisUrl("redis://127.0.0.1:6380/3", "--executor")).toMatchObject({
      host: "127.0.0.1",
      port: 6380,
      db: 3,
      display: "redis://127.0.0.1:6380/3",
    });
    expect(parseRedisUrl("redis://h", "--executor")).toMatchObject({ port: 6379, db: 0, display: "redis://h" });
    expect(parseRedisUrl("redis://user@h:1/2", "--executor").display).toBe("redis://user@h:1/2");
    // A password is never in a URL (ps shows command lines): refused, and not echoed.
    for (const url of ["redis://user:s3cret@h:1/2", "redis://:s3cret@h", "rediss://:s3cret@h:1/x"]) {
      expect(() => parseRedisUrl(url, "--executor")).toThrow(/holds a password/);
      try {
        parseRedisUrl(url, "--executor");
      } catch (e) {
        expect(`${(e as UsageError).message} ${(e as UsageError).hint}`).not.toContain("s3cret");
      }
    }
  });

  test.each(["http://h:1", "h:6379", "redis://", "redis://h:1/x", "redis://h:1/2?a=b", "-rf", "redis://h:1/99999"])(
    "%s is a usage error naming the flag",
    (bad) => {
      expect(() => parseRedisUrl(bad, "--executor")).toThrow(UsageError);
      try {
        parseRedisUrl(bad, "--executor");
      } catch (e) {
        expect((e as Error).message).toMatch(/^--executor /);
      }
    },
  );

  test("any string: a RedisTarget or a UsageError, never anything else", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        try {
          const t = parseRedisUrl(s, "--executor");
          expect(t.display).not.toMatch(/:[^@/]*@/);
          expect(t.password).toBeUndefined();
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
        }
      }),
    );
  });
});

describe("stream messages and job data", () => {
  test("a message round-trips; anything else is dropped", () => {
    const m = { kind: "attempt" as const, job: "r.m.0.1", worker: "w", attempt: 2 };
    expect(decodeMessage(encodeMessage(m))).toEqual(m);
    for (const junk of [
      "",
      "{",
      "null",
      '{"kind":"result","job":"x"}',
      '{"kind":"__proto__"}',
      JSON.stringify({ kind: "event", job: "j", event: { worker: "w", attempt: 0, seq: 0, body: { type: "x" } } }),
    ]) {
      expect(decodeMessage(junk)).toBeNull();
    }
  });

  // The coordinator adds a result's counts to the run's: a worker cannot take passes or failures away.
  test("a result's counts are whole numbers, none below zero", () => {
    const result = (counts: Record<string, number>) =>
      JSON.stringify({
        kind: "result",
        job: "j",
        outcome: {
          worker: "w",
          attempt: 1,
          status: "passed",
          output: null,
          error: null,
          counts: { passed: 1, failed: 0, error: 0, skipped: 0, cancelled: 0, ...counts },
          costUnknown: 0,
        },
      });
    expect(decodeMessage(result({}))).not.toBeNull();
    expect(decodeMessage(result({ self_reported: 2 }))).not.toBeNull();
    for (const bad of [{ failed: -3 }, { passed: 0.5 }, { self_reported: -1 }] as Record<string, number>[])
      expect(decodeMessage(result(bad)), JSON.stringify(bad)).toBeNull();
  });

  test("a worker's event cannot be a coordinator's (run.*, branch.dispatched, branch.cut_off) nor carry a negative or non-numeric cost", () => {
    const event = (body: Record<string, unknown>) =>
      JSON.stringify({ kind: "event", job: "j", event: { worker: "w", attempt: 1, seq: 0, body } });
    expect(decodeMessage(event({ type: "node.finished", node: "a", cost_usd: 0.25 }))).not.toBeNull();
    expect(decodeMessage(event({ type: "node.finished", node: "a", cost_usd: null }))).not.toBeNull();
    expect(decodeMessage(event({ type: "node.started", node: "a" }))).not.toBeNull();
    for (const type of ["run.finished", "run.started", "run.paused", "run.waiting", "branch.dispatched", "branch.cut_off"]) {
      expect(decodeMessage(event({ type })), type).toBeNull();
    }
    for (const cost of [-1, -0.01, "0.5"])
      expect(decodeMessage(event({ type: "node.finished", node: "a", cost_usd: cost })), String(cost)).toBeNull();
  });

  test("job data of the wrong shape is refused (an env var value or a bad name cannot sneak in)", () => {
    expect(parseJob(null)).toBeNull();
    expect(parseJob({ runId: "r" })).toBeNull();
    const good = {
      runId: "r",
      jobId: "r.m.0.1",
      dispatch: 1,
      map: "m",
      index: 0,
      item: 1,
      graph: {},
      graphDigest: "d",
      graphPath: "/g",
      inputs: {},
      upstream: {},
      kept: {},
      passEnv: ["API_KEY"],
      baseDir: "/",
      concurrency: 1,
      version: "0",
    };
    expect(parseJob(good)).not.toBeNull();
    expect(parseJob({ ...good, passEnv: ["API_KEY=sk-123"] })).toBeNull();
    expect(parseJob({ ...good, passEnv: ["-rf"] })).toBeNull();
  });
});

describe("what cannot run on workers is refused at load", () => {
  test("an approval inside a map branch", () => {
    const g = graphSchema.parse({
      version: 1,
      name: "g",
      nodes: { each: { kind: "map", over: "inputs.x", branch: { ok: { kind: "approval" } } } },
    });
    expect(() => refuseForWorkers(g, "redis://h:1")).toThrow(/each\.branch\.ok is an approval/);
    const plain = graphSchema.parse({
      version: 1,
      name: "g",
      nodes: { ok: { kind: "approval" }, each: { kind: "map", over: "inputs.x", branch: { s: { kind: "script", run: "true" } } } },
    });
    expect(() => refuseForWorkers(plain, "redis://h:1")).not.toThrow();
    const sub = graphSchema.parse({
      version: 1,
      name: "g",
      nodes: { each: { kind: "map", over: "inputs.x", branch: { inner: { kind: "graph", use: "./other.yaml" } } } },
    });
    expect(() => refuseForWorkers(sub, "redis://h:1")).toThrow(/each\.branch\.inner runs a sub-graph/);
  });
});
