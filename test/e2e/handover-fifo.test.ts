// Review of ADR 0032 (released handover files rewritten in place): the rewrite opens the
// released file by its path. A command may replace its handover file with anything (the
// folder is its user's); a FIFO there made that open wait for a reader for ever, with
// vouch's one thread blocked: no wall cap, no Ctrl-C, the run hung. Through the binary.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { BINARY, cleanEnv, ensureBinary, parseNdjson, tempDir, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  dir = tempDir("handover-fifo");
});
afterEach(() => dir.cleanup());

test("a script that puts a FIFO where its state file was: the later nodes run and the run ends passed", async () => {
  // Enough nodes after it, each with a new state, for the released files to be recycled.
  const later = Array.from({ length: 20 }, (_, i) => `  n${i + 1}:\n    kind: script\n    needs: [n${i}]\n    run: "true"\n`).join("");
  const graph = join(dir.path, "g.yaml");
  writeFileSync(
    graph,
    `version: 1\nname: fifo\nnodes:\n  n0:\n    kind: script\n    run: 'rm -f "$VOUCH_STATE_FILE" && mkfifo "$VOUCH_STATE_FILE"'\n${later}`,
  );
  const p = Bun.spawn([BINARY, "run", graph, "--json"], {
    cwd: dir.path,
    env: cleanEnv({ home: join(dir.path, "home") }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  // A guard, not a measure: a hung vouch cannot end by itself (its timers cannot fire).
  let killed = false;
  const guard = setTimeout(() => {
    killed = true;
    p.kill("SIGKILL");
  }, 60_000);
  const [stdout, , code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(guard);
  expect(killed).toBe(false);
  const events = parseNdjson(stdout);
  expect(events.filter((e) => e.type === "node.finished").length).toBe(21);
  expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "passed" });
  expect(code).toBe(0);
}, 90_000);
