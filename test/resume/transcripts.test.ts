// `vouch show` locates each agent sitting's Claude Code transcript by its
// session id (issue 4): a file <session_id>.jsonl in any folder under
// $CLAUDE_CONFIG_DIR/projects (else ~/.claude/projects), looked up when shown.
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { ROOT } from "../graph/binary.ts";
import { ensureBinary, ledgerEvents, ndjson, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
let runId: string;
let sessions: Map<string, string>; // "parse" | "verify_one#3" -> session id
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(async () => {
  p = tempProject();
  // The shipped demo on the replay harness: every sitting reports a session id.
  const r = await vouch(p, [
    "run",
    join(ROOT, "graphs/finding-verifier.yaml"),
    "--harness",
    "replay",
    "-i",
    `findings=@${join(ROOT, "examples/sample-repo/REVIEW.md")}`,
    "-i",
    `project_dir=${join(ROOT, "examples/sample-repo")}`,
    "--json",
  ]);
  runId = ndjson(r.stdout)[0]!.run;
  sessions = new Map();
  for (const e of ledgerEvents(p, runId)) {
    // A retried attempt's session is on its node.retrying (ADR 0023), the last one's on node.finished.
    if ((e.type === "node.finished" || e.type === "node.retrying") && e.session_id)
      sessions.set(`${e.node}${e.branch ? `#${e.branch.index}` : ""}@${e.attempt}`, e.session_id);
  }
});
afterEach(() => p.cleanup());

test("with transcripts for two sittings: show lists their paths; --json sets transcript on every attempt with a session id", async () => {
  expect(sessions.size).toBeGreaterThanOrEqual(7);
  const parse = sessions.get("parse@1")!;
  const verify = sessions.get("verify_one#0@1")!;
  const parsePath = p.write(`claude/projects/-work-project/${parse}.jsonl`, "{}\n");
  const verifyPath = p.write(`claude/projects/-other-folder/${verify}.jsonl`, "{}\n");
  p.write(`claude/projects/-other-folder/not-a-session.jsonl`, "{}\n");
  const env = { CLAUDE_CONFIG_DIR: join(p.dir, "claude") };

  const text = await vouch(p, ["show", runId], env);
  expect(text.code).toBe(0);
  expect(
    text.stdout.endsWith(`\nTranscripts\n  parse attempt 1: ${parsePath}\n  verify_each[0].verify_one attempt 1: ${verifyPath}\n`),
  ).toBe(true);

  const json = JSON.parse((await vouch(p, ["show", runId, "--json"], env)).stdout);
  type A = { attempt: number; session_id: string | null; transcript?: string | null };
  const attempts: { label: string; a: A }[] = [
    ...json.nodes.flatMap((n: { node: string; attempts: A[] }) => n.attempts.map((a) => ({ label: n.node, a }))),
    ...json.branches.flatMap((b: { index: number; nodes: { node: string; attempts: A[] }[] }) =>
      b.nodes.flatMap((n) => n.attempts.map((a) => ({ label: `${n.node}#${b.index}`, a }))),
    ),
  ];
  const withSession = attempts.filter(({ a }) => a.session_id !== null);
  expect(withSession.map(({ label, a }) => sessions.get(`${label}@${a.attempt}`))).toEqual(withSession.map(({ a }) => a.session_id));
  const byLabel = Object.fromEntries(withSession.map(({ label, a }) => [`${label}@${a.attempt}`, a.transcript]));
  expect(byLabel["parse@1"]).toBe(parsePath);
  expect(byLabel["verify_one#0@1"]).toBe(verifyPath);
  expect(Object.values(byLabel).filter((t) => t === null)).toHaveLength(withSession.length - 2);
  expect(attempts.filter(({ a }) => a.session_id === null).every(({ a }) => !("transcript" in a))).toBe(true);
}, 60_000);

test("found under ~/.claude when CLAUDE_CONFIG_DIR is unset; nothing found: no Transcripts block, transcript null", async () => {
  const home = join(p.dir, "home");
  const path = p.write(`home/.claude/projects/-x/${sessions.get("parse@1")}.jsonl`, "{}\n");
  const found = await vouch(p, ["show", runId], { HOME: home });
  expect(found.stdout).toContain(`\nTranscripts\n  parse attempt 1: ${path}\n`);
  const none = await vouch(p, ["show", runId], { HOME: join(p.dir, "nobody") });
  expect(none.code).toBe(0);
  expect(none.stdout).not.toContain("Transcripts");
  const json = JSON.parse((await vouch(p, ["show", runId, "--json"], { HOME: join(p.dir, "nobody") })).stdout);
  expect(json.nodes.find((n: { node: string }) => n.node === "parse").attempts[0]).toMatchObject({
    session_id: sessions.get("parse@1"),
    transcript: null,
  });
}, 60_000);
