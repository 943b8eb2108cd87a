// Every reader says whether a node ran sealed (ADR 0040): the read model's text,
// the plain lines' last line, the live view's details pane and final header —
// and, through the real binary, vouch show and the three reports of the demo.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventBody, VouchEvent } from "../../src/engine/events.ts";
import { sealSummary, sealText } from "../../src/read/seal.ts";
import { lineText } from "../../src/tui/lines.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { reduceAll, selectDetails, selectFrame } from "../../src/tui/view-model.ts";
import { RunRecorder } from "../tui/helpers/event-builder.ts";
import { demoRun, reportOf } from "../report/helpers.ts";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { HAVE_BWRAP } from "../spawn/helpers.ts";

describe("the read model's words", () => {
  test("sealText: sealed, unsealed with its reason, nothing when nothing was recorded", () => {
    expect(sealText({ sealed: true })).toBe("sealed");
    expect(sealText({ sealed: false, unsealed_reason: "sandbox: off" })).toBe("unsealed: sandbox: off");
    expect(sealText({})).toBeNull();
  });

  test("sealSummary: counts the recorded nodes, names each distinct reason once (at most three)", () => {
    expect(sealSummary([{}, { sealed: true }, { sealed: true }])).toBe("2 sealed");
    expect(sealSummary([{ sealed: true }, { sealed: false, unsealed_reason: "a" }, { sealed: false, unsealed_reason: "a" }])).toBe(
      "1 sealed, 2 unsealed (a)",
    );
    const many = ["a", "b", "c", "d"].map((r) => ({ sealed: false, unsealed_reason: r }));
    expect(sealSummary(many)).toBe("0 sealed, 4 unsealed (a; b; c; …)");
    expect(sealSummary([{}, {}])).toBeNull();
  });
});

function run(): VouchEvent[] {
  const r = new RunRecorder();
  r.started([
    { id: "impl", kind: "agent", needs: [] },
    { id: "setup", kind: "script", needs: [] },
  ]);
  const done = (node: string, more: Record<string, unknown>) =>
    ({
      type: "node.finished",
      node,
      attempt: 1,
      status: "passed",
      qualifier: "exit-only",
      stop_reason: "complete",
      cause: null,
      cost_usd: 0,
      turns: null,
      wall_ms: 5,
      ...more,
    }) as EventBody;
  r.emit({ type: "node.started", node: "impl", kind: "agent", attempt: 1, harness: "command", sealed: true });
  r.emit(done("impl", { sealed: true }));
  r.emit({ type: "node.started", node: "setup", kind: "script", attempt: 1, sealed: false });
  r.emit(done("setup", { sealed: false, unsealed_reason: "a script without a workspace runs unconfined in the shared folder" }));
  r.emit({
    type: "run.finished",
    status: "passed",
    exit_code: 0,
    cost_usd: 0,
    cost_unknown: 0,
    wall_ms: 10,
    counts: { passed: 2, failed: 0, error: 0, skipped: 0, cancelled: 0 },
  });
  return r.events;
}

describe("the outputs", () => {
  test("the plain lines end with the run's sandbox line", () => {
    const printed: string[] = [];
    const out = createPlainOutput((t) => void printed.push(t), { color: false, width: 200 });
    for (const e of run()) out.push(e);
    expect(printed.join("")).toContain(
      "  sandbox: 1 sealed, 1 unsealed (a script without a workspace runs unconfined in the shared folder)\n",
    );
  });

  test("the live view: each node's details say it, the header says it for the run once it ended", () => {
    const state = reduceAll(run());
    const details = (id: string) => selectDetails(state, id, { now: 0, width: 120 }).map(lineText).join("\n");
    expect(details("impl")).toMatch(/sandbox +sealed/);
    expect(details("setup")).toMatch(/sandbox +unsealed: a script without a workspace/);
    const frame = selectFrame(state, { width: 160, height: 40, now: 0 }).lines.map(lineText).join("\n");
    expect(frame).toContain("· 1 sealed, 1 unsealed");
  });
});

describe.skipIf(!HAVE_BWRAP)("through the binary: the demo, sealed by default", () => {
  let dir: TempDir;
  beforeAll(async () => {
    ensureBinary();
    dir = tempDir("seal-readers");
    const r = await demoRun(dir.path);
    expect(r.stdout).toMatch(/^ {2}sandbox: \d+ sealed$/m);
  }, 120_000);
  afterAll(() => dir?.cleanup());

  test("vouch show has a sandbox line", async () => {
    const r = await vouch(["show", "last"], { home: dir.path });
    expect(r.stdout).toMatch(/^sandbox +\d+ sealed$/m);
  });

  test("the HTML, JUnit and Markdown reports say it", async () => {
    expect(await reportOf(dir.path, "html")).toMatch(/<th>sandbox<\/th><td>\d+ sealed<\/td>/);
    expect(await reportOf(dir.path, "junit")).toMatch(/<property name="parse\.sealed" value="true"\/>/);
    expect(await reportOf(dir.path, "markdown")).toMatch(/sandbox: \d+ sealed/);
  });
});
