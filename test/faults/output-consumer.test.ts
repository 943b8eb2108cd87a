// A bug in an output consumer (a TUI reducer that throws, a writer that breaks)
// is vouch's error, not a node's: the run ends with exit 3 and an OutputError,
// and no agent is recorded as `crashed` for it. Before the fix the exception
// travelled back through the sitting's line callback (the live event is
// pushed while the agent's stdout line is being read) and the agent node
// ended as error "the agent runner failed: …" — blamed on the harness.
// A real session: the real ledger, a real agent process (the `command` harness).
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FatalError, OutputError } from "../../src/engine/errors.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { runSession } from "../../src/cli/run-session.ts";
import { readGraphFile } from "../../src/cli/graph-file.ts";
import type { CliIO } from "../../src/cli/io.ts";
import { tempHome } from "../ledger/temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

const GRAPH = "version: 1\nname: g\nnodes:\n  ask: { kind: agent, harness: command, prompt: hi }\n";
// The agent prints lines (each one is a node.progress), then exits 0.
const AGENT = JSON.stringify(["sh", "-c", "cat >/dev/null; echo one; echo two; echo three"]);

async function session(env: Record<string, string>) {
  const dir = join(t.home, "..", "work");
  mkdirSync(dir, { recursive: true });
  const graphPath = join(dir, "g.yaml");
  writeFileSync(graphPath, GRAPH);
  const g = readGraphFile(graphPath, dir, {});
  const ledger = openLedger({ home: t.home });
  const runId = "r-consumer";
  const lock = ledger.acquireRunLock(runId);
  const lines: string[] = [];
  // The broken consumer: it throws on the live progress of the sitting.
  const out = (text: string) => {
    if (text.includes('"type":"node.progress"')) throw new TypeError("Cannot read properties of undefined (reading 'turns')");
    lines.push(text);
  };
  // VOUCH_COMMAND only in io.env: the session takes vouch's environment from its CliIO.
  const io: CliIO = {
    out,
    err: () => {},
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env: { PATH: process.env.PATH, VOUCH_COMMAND: AGENT, ...env },
    cwd: dir,
    streams: process,
  };
  const ran = await runSession({
    io,
    flags: { json: true },
    ledger,
    lock,
    options: { runId, graph: g.graph, graphPath: g.path, graphDigest: g.digest, inputs: {}, baseDir: dir, version: "test" },
  }).then(
    (code) => ({ code }),
    (error: unknown) => ({ error }),
  );
  const events = lines
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; status?: string; error?: string });
  return { ran, events };
}

describe("a throwing output consumer ends the run as vouch's error, not a node's", () => {
  for (const [name, env] of [
    ["events forwarded at once (VOUCH_LEDGER=off)", { VOUCH_LEDGER: "off" }],
    ["events forwarded after each commit (the ledger)", {}],
  ] as const) {
    test(name, async () => {
      const { ran, events } = await session(env);
      expect("error" in ran ? ran.error : ran).toBeInstanceOf(OutputError);
      const error = (ran as { error: OutputError }).error;
      expect(error).toBeInstanceOf(FatalError);
      expect(error.exitCode).toBe(3);
      expect(error.message).toMatch(/output.*Cannot read properties of undefined/);
      // No node took the blame for it.
      const blamed = events.filter((e) => e.type === "node.finished" && /agent runner failed/.test(e.error ?? ""));
      expect(blamed).toEqual([]);
      expect(events.some((e) => e.type === "run.finished")).toBe(false);
    });
  }
});
