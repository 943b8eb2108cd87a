// Ctrl-C (SIGINT) mid-run, in a real process using the ledger API as the CLI
// will: the run is recorded `interrupted` (exit 130) and can be resumed.
import { afterEach, beforeEach, expect, test } from "vitest";
import { join } from "node:path";
import { openLedger } from "../../src/ledger/index.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

test("SIGINT: the run ends interrupted with exit 130, its lock is free, and resumeCheck accepts it", async () => {
  const child = Bun.spawn([process.execPath, join(import.meta.dirname, "interrupted-run.ts"), t.home, "r-int"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  let seen = "";
  while ((seen.match(/node\.progress/g) ?? []).length < 3) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`child exited: ${await new Response(child.stderr).text()}`);
    seen += new TextDecoder().decode(value);
  }
  child.kill("SIGINT");
  expect(await child.exited).toBe(130);

  const ledger = openLedger({ home: t.home });
  expect(ledger.listRuns()[0]).toMatchObject({ id: "r-int", status: "interrupted", exit_code: 130, live: false });
  const events = ledger.runEvents("r-int");
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "interrupted", exit_code: 130 });
  expect(ledger.runSummary("r-int").nodes.find((n) => n.node === "review")).toMatchObject({
    status: "cancelled",
    stop_reason: "cancelled",
  });
  const ticket = ledger.resumeCheck("r-int", "sha256:aaaa", false);
  expect(ticket).toMatchObject({ status: "interrupted", lastSeq: events.length - 1 });
  ticket.lock.release();
  ledger.close();
});
