// Executors by URL scheme (ADR 0037): the registry has one entry per scheme the
// graph language names, an unknown scheme is a usage error (exit 2) on every
// command that takes an executor URL, and redis:// and rediss:// mean what they
// meant before (the URL checked by the Redis transport, the password never shown).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { UsageError } from "../../src/engine/errors.ts";
import { listOr } from "../../src/engine/graph/did-you-mean.ts";
import { EXECUTOR_SCHEMES } from "../../src/engine/graph/executor-url.ts";
import { EXECUTORS, executorEndpoint } from "../../src/executor/registry.ts";

const KNOWN = listOr(EXECUTOR_SCHEMES.map((s) => `${s}://`));

describe("the registry", () => {
  test("one entry per scheme of the graph language, and no other", () => {
    expect(Object.keys(EXECUTORS).sort()).toEqual([...EXECUTOR_SCHEMES].sort());
  });

  test("redis:// and rediss:// reach the Redis transport; a URL with a password is refused without echoing it", async () => {
    expect(await executorEndpoint("redis://user@h:6380/2", "--executor", {}, ".")).toMatchObject({ display: "redis://user@h:6380/2" });
    expect(await executorEndpoint("rediss://h", "--executor", {}, ".")).toMatchObject({ display: "rediss://h" });
    const refused = await executorEndpoint("redis://user:s3cret@h:6380/2", "--executor", {}, ".").catch((e: unknown) => e as UsageError);
    expect(refused).toBeInstanceOf(UsageError);
    expect(`${(refused as UsageError).message} ${(refused as UsageError).hint}`).not.toContain("s3cret");
    expect((refused as UsageError).hint).toContain("VOUCH_REDIS_PASSWORD");
    // And a URL of an unknown scheme, refused before any transport looks at it.
    const other = await executorEndpoint("http://u:s3cret@h:1", "--executor", {}, ".").catch((e: unknown) => e as Error);
    expect((other as Error).message).not.toContain("s3cret");
    // A URL's scheme is case-insensitive on the command line, as it was.
    expect((await executorEndpoint("REDIS://h:1", "--executor", {}, ".")).display).toBe("redis://h:1");
  });

  test("an unknown scheme names the flag, the known schemes and a close one", async () => {
    const refused = async (url: string) => {
      const e = await executorEndpoint(url, "--executor", {}, ".").then(
        () => null,
        (x: unknown) => x,
      );
      expect(e, url).toBeInstanceOf(UsageError);
      return (e as Error).message;
    };
    expect(await refused("redsi://h:1")).toBe(
      `--executor "redsi://h:1": the scheme "redsi" names no executor vouch knows (did you mean redis?): use ${KNOWN}`,
    );
    expect(await refused("http://h:1")).toBe(`--executor "http://h:1": the scheme "http" names no executor vouch knows: use ${KNOWN}`);
    expect(await refused("not a url")).toBe('--executor "not a url": not a URL');
    // The Redis transport still checks the rest of its URL.
    expect(await refused("redis://h:1/x")).toMatch(/^--executor "redis:\/\/h:1\/x": the database after "\/" must be a number/);
  });
});

describe("through the binary", () => {
  let dir: TempDir;
  beforeAll(async () => {
    await ensureBinary();
    dir = tempDir("registry");
  });
  afterAll(() => dir?.cleanup());

  test("run, worker, workers and export refuse an unknown scheme with exit 2, no stack, no run recorded", async () => {
    const home = join(dir.path, ".vouch");
    const graph = join(dir.path, "g.yaml");
    writeFileSync(
      graph,
      "version: 1\nname: g\ninputs:\n  xs: { default: [1] }\nnodes:\n  m: { kind: map, over: inputs.xs, branch: { s: { kind: script, run: 'true' } } }\n",
    );
    for (const args of [
      ["run", graph, "--executor", "redsi://127.0.0.1:1"],
      ["worker", "redsi://127.0.0.1:1"],
      ["workers", "redsi://127.0.0.1:1"],
      ["export", "k8s", "--executor", "redsi://127.0.0.1:1", "--image", "img"],
    ]) {
      const r = await vouch(args, { home, cwd: dir.path });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain('the scheme "redsi" names no executor vouch knows (did you mean redis?)');
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
    const runs = await vouch(["runs", "--json"], { home, cwd: dir.path });
    expect(runs.stdout.trim() === "" || runs.stdout.trim() === "[]").toBe(true);
  });
});
