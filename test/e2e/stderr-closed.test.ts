// stderr is for people: when its reader has gone (a log pipe that died,
// `2>&1 >out | true`), a message vouch writes there must not change the exit
// code, which is the verdict (docs/architecture.md §5). Before the fix Bun's unhandled EPIPE
// on stderr made a passed run exit 1 ("failed") after it had recorded exit 0.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BINARY, ensureBinary } from "../graph/binary.ts";

let dir: string;
beforeAll(() => {
  ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "vouch-stderr-"));
  writeFileSync(join(dir, "ok.yaml"), "version: 1\nname: ok\nnodes:\n  a: { kind: script, run: \"sleep 0.2; echo '{}'\" }\n");
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a passed run exits 0 though its stderr message met a closed pipe", () => {
  // VOUCH_LEDGER=off makes the run print one line to stderr; `| true` has gone by then.
  const script = `VOUCH_LEDGER=off "$1" run ok.yaml --json 2>&1 >out.json | true; echo "\${PIPESTATUS[0]}"`;
  const r = Bun.spawnSync(["bash", "-c", script, "bash", BINARY], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", VOUCH_HOME: join(dir, ".vouch") },
    stdout: "pipe",
    stderr: "pipe",
  });
  const last = JSON.parse(readFileSync(join(dir, "out.json"), "utf8").trim().split("\n").at(-1)!);
  expect(last).toMatchObject({ type: "run.finished", exit_code: 0 });
  expect(r.stdout.toString().trim()).toBe("0");
});
