// A retry with session: continue that cannot continue (its failed attempt
// reported no usable session id) starts a fresh sitting: the plain output says
// so, with why (ADR 0023); a retry that does continue prints nothing extra.
import { expect, test } from "vitest";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { RunRecorder } from "./helpers/event-builder.ts";

async function plain(session: { mode: "resume" | "fresh"; id?: string; note?: string }): Promise<string[]> {
  const r = new RunRecorder();
  r.started([{ id: "work", kind: "agent", needs: [] }]);
  r.emit({
    type: "node.started",
    node: "work",
    kind: "agent",
    attempt: 2,
    harness: "claude",
    session: { ...session, node: "work", attempt: 1 },
  });
  let text = "";
  const out = createPlainOutput((t) => (text += t), { color: false, width: 200 });
  for (const e of r.events) out.push(e);
  await out.close();
  return text.split("\n").slice(2, -1);
}

test("fresh: one warning line naming the attempt and why; resume: no line", async () => {
  const note = "attempt 1 reported no session id: this retry is a fresh sitting with the whole prompt";
  expect(await plain({ mode: "fresh", note })).toEqual([`⚠ work attempt 2: no session to continue: ${note}`]);
  expect(await plain({ mode: "resume", id: "x1" })).toEqual([]);
});
