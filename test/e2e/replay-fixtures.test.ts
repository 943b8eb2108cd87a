// Replayed edits through the binary (issue 27 item 16): a recorded delete of a
// symlink removes the link, not the file it points at; a recording with an edit
// vouch will not apply is reported as a bad fixture, never as an unavailable harness.
import { lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { ofType, vouch } from "../shipped/run-shipped.ts";

beforeAll(() => {
  ensureBinary();
}, 60_000);

const RESULT = JSON.stringify({ type: "result", subtype: "success", is_error: false, num_turns: 1, total_cost_usd: 0.001, result: "done" });

function project(edits: unknown): { dir: string; replay: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "vouch-replay-e2e-"));
  const replay = mkdtempSync(join(tmpdir(), "vouch-replay-fixtures-"));
  writeFileSync(join(replay, "edit.jsonl"), `${RESULT}\n`);
  writeFileSync(join(replay, "edit.edits.json"), JSON.stringify(edits));
  const file = join(dir, "g.yaml");
  writeFileSync(file, "version: 1\nname: replayed\nnodes:\n  edit: { kind: agent, prompt: tidy up }\n");
  return { dir, replay, file };
}

test("a replayed delete of a symlink deletes the link; the file it points at stays", () => {
  const p = project({ edits: [{ path: "shortcut", delete: true }] });
  writeFileSync(join(p.dir, "precious.txt"), "keep me\n");
  symlinkSync(join(p.dir, "precious.txt"), join(p.dir, "shortcut"));
  const r = vouch(["run", p.file, "--harness", "replay", "--replay-dir", p.replay, "--json"], { cwd: p.dir });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(readFileSync(join(p.dir, "precious.txt"), "utf8")).toBe("keep me\n");
  expect(() => lstatSync(join(p.dir, "shortcut"))).toThrow();
});

test("a recorded edit that climbs out of the folder is a bad fixture, said as such (not 'the harness is unavailable')", () => {
  const p = project({ edits: [{ path: "../escape.txt", content: "x" }] });
  const r = vouch(["run", p.file, "--harness", "replay", "--replay-dir", p.replay, "--json"], { cwd: p.dir });
  expect(r.exitCode, r.stderr).toBe(3);
  const f = ofType(r.events, "node.finished")[0]!;
  expect(f.status).toBe("error");
  expect(f.error).toContain('bad replay fixture edit.jsonl: replay edit "../escape.txt" climbs out with ..');
  expect(f.error).not.toContain("unavailable");
});
