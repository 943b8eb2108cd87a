// The fleet key (ADR 0045) as a user meets it, through the binary: a fleet never runs
// unauthenticated — a coordinator or a worker without a key, or with a short one, is
// refused (exit 2) before anything connects, saying how to make one; the key is never
// taken from the command line; a file holds it as well as the environment. And the key's
// MAC as a property: any change to a sealed job's text or id makes it refuse to open.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { FleetKey, MIN_KEY_LENGTH } from "../../src/executor/fleet-key.ts";
import { openJob, sealJob } from "../../src/executor/job-seal.ts";
import type { BranchJob } from "../../src/engine/ports.ts";

const GRAPH =
  "version: 1\nname: k\ninputs:\n  xs: { default: [1] }\nnodes:\n  m: { kind: map, over: inputs.xs, branch: { s: { kind: script, run: 'true' } } }\n";

describe("through the binary: no fleet without a key", () => {
  let dir: TempDir;
  beforeAll(async () => {
    await ensureBinary();
    dir = tempDir("fleet-key");
    writeFileSync(join(dir.path, "g.yaml"), GRAPH);
    writeFileSync(join(dir.path, "short"), "abc\n");
    writeFileSync(join(dir.path, "empty"), "\n");
  });
  afterAll(() => dir.cleanup());
  // Nothing listens on port 1: a command that got as far as connecting would say "cannot reach".
  const URL = "redis://127.0.0.1:1";
  const run = (args: string[], env: Record<string, string> = {}) => vouch(args, { home: join(dir.path, ".vouch"), cwd: dir.path, env });

  test("run, resume's path and worker without a key: exit 2, how to make one, nothing connected, no run recorded", async () => {
    for (const args of [
      ["run", "g.yaml", "--executor", URL],
      ["worker", URL],
    ]) {
      const r = await run(args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("needs a fleet key");
      expect(r.stderr).toContain("openssl rand -hex 32");
      expect(r.stderr).not.toContain("cannot reach");
    }
    const runs = await run(["runs", "--json"]);
    expect(runs.stdout.trim() === "" || runs.stdout.trim() === "[]").toBe(true);
  });

  test("a short key, an empty or missing key file: exit 2 naming where the key came from, never the key", async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [
        ["worker", URL],
        { VOUCH_FLEET_KEY: "s3cr3t" },
        `VOUCH_FLEET_KEY: the fleet key has 6 characters; it needs at least ${MIN_KEY_LENGTH}`,
      ],
      [["worker", URL, "--fleet-key-file", "short"], {}, "--fleet-key-file short: the fleet key has 3 characters"],
      [["run", "g.yaml", "--executor", URL, "--fleet-key-file", "empty"], {}, "--fleet-key-file empty: the file is empty"],
      [["worker", URL], { VOUCH_FLEET_KEY_FILE: "missing" }, "VOUCH_FLEET_KEY_FILE=missing: cannot read it (ENOENT)"],
    ];
    for (const [args, env, message] of cases) {
      const r = await run(args, env);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toContain("s3cr3t");
    }
  });

  test("a key given on the command line is no option: refused as unknown", async () => {
    const r = await run(["worker", URL, "--fleet-key", "0123456789abcdef0123456789abcdef"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--fleet-key");
  });

  test("a key from a file is taken (the command goes on to connect)", async () => {
    writeFileSync(join(dir.path, "key"), `${"k".repeat(MIN_KEY_LENGTH)}\n`);
    const r = await run(["worker", URL, "--fleet-key-file", "key"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot reach Redis at redis://127.0.0.1:1");
  });
});

describe("a sealed job opens only as it was sealed", () => {
  const key = FleetKey.of("property-test-key-0123456789abcdef0123", "t");
  const job = {
    runId: "20261201-000000-abcdef",
    jobId: "20261201-000000-abcdef.each.3.1",
    version: "1.0.0",
    dispatch: 1,
    map: "each",
    index: 3,
    item: { id: "F-3" },
    graph: { version: 1, name: "g", nodes: {} },
    graphDigest: "d",
    graphPath: "g.yaml",
    inputs: {},
    upstream: {},
    kept: {},
    passEnv: [],
    baseDir: "/tmp",
    concurrency: 1,
  } as BranchJob;

  test("any change to the text, the MAC or the id is refused; the untouched job opens", () => {
    const sealed = sealJob(job, key);
    expect(openJob(sealed, job.jobId, key, "1.0.0")).toEqual({ ok: true, job });
    fc.assert(
      fc.property(fc.nat(sealed.job.length - 1), fc.string({ minLength: 1, maxLength: 3 }), (at, insert) => {
        const text = sealed.job.slice(0, at) + insert + sealed.job.slice(at + 1);
        fc.pre(text !== sealed.job);
        expect(openJob({ ...sealed, job: text }, job.jobId, key, "1.0.0").ok).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.nat(63), fc.constantFrom(..."0123456789abcdef"), (at, c) => {
        const mac = sealed.mac.slice(0, at) + c + sealed.mac.slice(at + 1);
        fc.pre(mac !== sealed.mac);
        expect(openJob({ ...sealed, mac }, job.jobId, key, "1.0.0").ok).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (id) => {
        fc.pre(id !== job.jobId);
        expect(openJob(sealed, id, key, "1.0.0").ok).toBe(false);
      }),
    );
  });

  test("hostile envelopes are refused, never thrown on", () => {
    fc.assert(
      fc.property(fc.anything(), (data) => {
        expect(openJob(data, job.jobId, key, "1.0.0").ok).toBe(false);
      }),
    );
    for (const mac of [undefined, null, 1, "", "g".repeat(64), "A".repeat(64), `${"0".repeat(63)}`, { toString: () => "x" }])
      expect(openJob({ seal: 1, job: JSON.stringify(job), mac }, job.jobId, key, "1.0.0").ok).toBe(false);
  });
});
