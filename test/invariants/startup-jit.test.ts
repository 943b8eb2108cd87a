// The JIT policy of ADR 0031: the binary starts with JavaScriptCore's tier-up
// thresholds scaled up (build.ts STARTUP_JIT_POLICY), and vouch puts the normal
// policy back (Bun.unsafe.setJITPolicy(1)) before any work that can run long:
// a run's session, every command but the listed ones, and a listed command once
// it has read more than LARGE_INPUT_BYTES of files. Observed through a spy on
// the real API, driving main() in-process; no timing.
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli.ts";
import type { CliIO } from "../../src/cli/io.ts";
import { LARGE_INPUT_BYTES } from "../../src/cli/jit-policy.ts";
import { compile, STARTUP_JIT_POLICY } from "../../build.ts";

const dir = mkdtempSync(join(tmpdir(), "vouch-jit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SMALL = join(dir, "small.yaml");
writeFileSync(SMALL, "version: 1\nname: small\nnodes:\n  a: { kind: end }\n");
/** A valid graph just over the limit: its inputs: mapping is padded with keys. */
const BIG = join(dir, "big.yaml");
const keys: string[] = [];
for (let i = 0; keys.join("").length < LARGE_INPUT_BYTES; i++) keys.push(`  k${i}: { default: v }\n`);
writeFileSync(BIG, `version: 1\nname: big\ninputs:\n${keys.join("")}nodes:\n  a: { kind: end }\n`);

const policy = vi.fn<(scale: number) => void>();
beforeEach(() => void vi.spyOn(Bun.unsafe, "setJITPolicy").mockImplementation(policy));
afterEach(() => {
  vi.restoreAllMocks();
  policy.mockReset();
});

const SCRIPT = join(dir, "script.yaml");
writeFileSync(SCRIPT, "version: 1\nname: script\ninputs:\n  items: { default: none }\nnodes:\n  a: { kind: script, run: 'true' }\n");

async function run(...args: string[]): Promise<number> {
  const env = { PATH: process.env.PATH, VOUCH_HOME: join(dir, "home") };
  const io: CliIO = { out: () => {}, err: () => {}, stdoutIsTTY: false, stdinIsTTY: false, env, cwd: dir, streams: process };
  return main(args, io);
}

describe("the JIT policy per command", () => {
  test("vouch --version and vouch validate of a small graph keep the startup policy", async () => {
    expect(await run("--version")).toBe(0);
    expect(await run("validate", SMALL)).toBe(0);
    expect(await run("validate", SMALL, SMALL, SMALL)).toBe(0);
    expect(policy).not.toHaveBeenCalled();
  });

  test("vouch validate of a graph over LARGE_INPUT_BYTES gets the normal policy, and still validates it", async () => {
    expect(await run("validate", BIG)).toBe(0);
    expect(policy).toHaveBeenCalledWith(1);
  });

  test("the bytes of several small files add up, per command", async () => {
    const files = Array.from({ length: Math.ceil(LARGE_INPUT_BYTES / statSync(SMALL).size) + 1 }, () => SMALL);
    expect(await run("validate", ...files)).toBe(0);
    expect(policy).toHaveBeenCalledWith(1);
    policy.mockReset();
    expect(await run("validate", SMALL)).toBe(0); // a new command starts from zero
    expect(policy).not.toHaveBeenCalled();
  });

  test("vouch run keeps the startup policy while it reads the graph, and gets the normal one when its session starts", async () => {
    expect(await run("run", SCRIPT, "--dry-run")).toBe(0);
    expect(policy).not.toHaveBeenCalled();
    expect(await run("run", SCRIPT, "--json")).toBe(0);
    expect(policy).toHaveBeenCalledWith(1);
  });

  test("vouch run -i NAME=@FILE of a file over the limit gets the normal policy before the session", async () => {
    const items = join(dir, "items.txt");
    writeFileSync(items, "x\n".repeat(LARGE_INPUT_BYTES));
    expect(await run("run", SCRIPT, "--dry-run", "-i", `items=@${items}`)).toBe(0);
    expect(policy).toHaveBeenCalledWith(1);
  });

  test.each(["resume", "worker", "show", "report", "runs", "plan"])(
    "vouch %s gets the normal policy before its command is loaded",
    async (name) => {
      // No arguments: each is a usage error, reached after the policy was set.
      await run(name);
      expect(policy).toHaveBeenCalledWith(1);
    },
  );
});

test("the binary is compiled with the startup policy", async () => {
  expect(STARTUP_JIT_POLICY).toBeGreaterThan(1);
  const build = vi.spyOn(Bun, "build").mockResolvedValue({ success: true, outputs: [], logs: [] } as unknown as Bun.BuildOutput);
  await compile(join(dir, "vouch"));
  expect(build.mock.calls[0]![0].compile).toMatchObject({ jitPolicy: STARTUP_JIT_POLICY });
});
