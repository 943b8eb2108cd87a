// Where each CLI keeps a session's transcript (src/spawn/harness/transcript.ts),
// laid out as the pinned claude, codex and gemini write them (seen against the
// fake servers, docs/real-clis.md): found by session id alone.
import { afterEach, expect, test } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { findTranscript } from "../../src/spawn/harness/transcript.ts";

let home: string;
afterEach(() => rmSync(home, { recursive: true, force: true }));
const put = (path: string, text = "{}\n") => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
};

test("claude, codex and gemini transcripts are found by session id; another id is not", () => {
  home = mkdtempSync(join(tmpdir(), "vouch-transcripts-"));
  const claude = put(join(home, ".claude/projects/-tmp-work/4e1305c3-b8d2-45c3-b3db-6df6fd1993b1.jsonl"));
  const codex = put(join(home, ".codex/sessions/2026/12/01/rollout-2026-12-01T08-57-36-01a230d2-e366-7cc1-882d-5eb5a519f069.jsonl"));
  const gemini = put(
    join(home, ".gemini/tmp/w-vue7l9/chats/session-2026-12-01T08-57-a0818663.jsonl"),
    '{"sessionId":"a0818663-41d9-47b9-9cbe-9c3df5fac1eb","projectHash":"x"}\n',
  );
  // Same first 8 characters, another session: the file name alone is not enough.
  put(
    join(home, ".gemini/tmp/w-other/chats/session-2026-12-01T09-00-a0818663.jsonl"),
    '{"sessionId":"a0818663-0000-0000-0000-000000000000"}\n',
  );
  const env = { HOME: home };
  expect(findTranscript("4e1305c3-b8d2-45c3-b3db-6df6fd1993b1", env)).toBe(claude);
  expect(findTranscript("01a230d2-e366-7cc1-882d-5eb5a519f069", env)).toBe(codex);
  expect(findTranscript("a0818663-41d9-47b9-9cbe-9c3df5fac1eb", env)).toBe(gemini);
  expect(findTranscript("a0818663-1111-0000-0000-000000000000", env)).toBeNull();
  expect(findTranscript("01a230d2-e366-7cc1-882d-000000000000", env)).toBeNull();
  // CODEX_HOME and CLAUDE_CONFIG_DIR move the stores.
  expect(findTranscript("01a230d2-e366-7cc1-882d-5eb5a519f069", { HOME: "/nonexistent", CODEX_HOME: join(home, ".codex") })).toBe(codex);
});

test("an id that is not a session id never walks out of the stores", () => {
  home = mkdtempSync(join(tmpdir(), "vouch-transcripts-"));
  put(join(home, ".claude/projects/x/secret.jsonl"));
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.constantFrom("../x/secret", "-rf", "\u001b[2J", "..", "/etc/passwd", "a/../../secret")), (id) => {
      const found = findTranscript(id, { HOME: home });
      if (found !== null) expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]*$/);
    }),
  );
});
