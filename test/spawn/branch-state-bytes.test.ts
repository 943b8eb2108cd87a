// A map branch's state file names the run's inputs by a file, it does not copy them
// (issue 29): every branch's state held every input, so an N-item map over an N-line
// input wrote N copies of it (116 KiB per branch at 10,000 items). Bytes are counted,
// not timed: the bytes a branch writes must not depend on the size of the inputs.
import { afterAll, describe, expect, test } from "vitest";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandInput } from "../../src/engine/ports.ts";
import { stateOf } from "../../src/engine/run/node-view.ts";
import { createCommandRunner } from "../../src/spawn/command-runner.ts";
import { HandoverStore } from "../../src/spawn/handover-files.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { tempDir } from "./helpers.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());
const tmpRoot = join(dir.path, "tmp");
mkdirSync(tmpRoot);

/** A run whose one input is a list of `lines` items, and the branches of a map over it. */
function run(lines: number) {
  const items = Array.from({ length: lines }, (_, i) => `item-${String(i).padStart(6, "0")}`);
  const inputs = { items, note: "x" };
  const commandInputs: CommandInput[] = [
    { stem: "ITEMS", text: JSON.stringify(items) },
    { stem: "NOTE", text: "x" },
  ];
  const branch = (i: number) => {
    const place = { item: items[i]!, index: i };
    return {
      state: stateOf(inputs, { check: { status: "passed", output: { ok: true } } }, place),
      item: place.item,
      inputs: commandInputs,
    };
  };
  return { inputs, branch };
}

/** Bytes written per branch over branches 2..41 of a map over `lines` items (the first writes the run's files). */
function bytesPerBranch(lines: number): number {
  const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
  const { branch } = run(lines);
  store.acquire(branch(0)).release();
  const before = store.bytes;
  for (let i = 1; i <= 40; i++) store.acquire(branch(i)).release();
  const per = (store.bytes - before) / 40;
  void store.close();
  return per;
}

describe("a map branch's state file", () => {
  test("bytes written per branch are the same at 1,000 and 10,000 input lines, and small", () => {
    const small = bytesPerBranch(1000);
    const large = bytesPerBranch(10_000);
    expect(large).toBe(small); // before: 16 KiB vs 160 KiB
    expect(large).toBeLessThan(512);
  });

  test("the run's inputs are written once for the whole map, not once per branch", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const { branch } = run(10_000);
    for (let i = 0; i < 50; i++) store.acquire(branch(i)).release();
    // Per branch: its state and its item; once: the inputs JSON and the two input files.
    expect(store.writes).toBe(50 * 2 + 3);
    void store.close();
  });

  test("a branch's command reads the inputs through inputs_file, and its item and index in the state", async () => {
    const runner = createCommandRunner({ parentEnv: { PATH: "/usr/local/bin:/usr/bin:/bin" }, tmpRoot });
    const { inputs, branch } = run(3);
    const b = branch(2);
    const o = await runner.runScript(
      {
        run: 'f=$(jq -r .inputs_file); jq -c . "$f"; jq -c "[.item, .index, .inputs]" "$VOUCH_STATE_FILE"',
        timeoutMs: 10_000,
        keepStdoutBytes: 4096,
      },
      {
        runId: "r",
        node: "n",
        attempt: 1,
        cwd: dir.path,
        passEnv: [],
        vars: {},
        inputs: b.inputs,
        state: b.state,
        item: b.item,
        branch: { map: "m", index: 2 },
        signal: new AbortController().signal,
      } as never,
    );
    const [first, second] = o.stdoutTail.trim().split("\n");
    expect(JSON.parse(first!)).toEqual(inputs);
    expect(JSON.parse(second!)).toEqual(["item-000002", 2, null]);
    await runner.close();
  });

  test("outside a map the state still holds the inputs themselves", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const h = store.acquire({ state: stateOf({ a: "1" }, {}), inputs: [{ stem: "A", text: "1" }] });
    expect(JSON.parse(readFileSync(h.vars.VOUCH_STATE_FILE!, "utf8"))).toEqual({ inputs: { a: "1" }, nodes: {} });
    h.release();
    void store.close();
  });
});
