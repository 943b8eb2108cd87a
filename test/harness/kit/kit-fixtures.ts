// The replay harness's side of each kit scenario: a recorded Claude Code
// stream written into the fixture folder, and the pacing to play it with.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Scenario } from "./kit-sitting.ts";

const SESSION = "9d2f4c1e-0b7a-4e3d-8c5f-1a2b3c4d5e6f";
const line = (o: unknown) => JSON.stringify(o);
const init = () => line({ type: "system", subtype: "init", session_id: SESSION, model: "recorded-model" });
const turn = (n: number) =>
  line({
    type: "assistant",
    message: {
      id: `msg_${n}`,
      content: [{ type: "tool_use", id: `t${n}`, name: "Read", input: {} }],
      usage: { input_tokens: 1, output_tokens: 5, cache_read_input_tokens: 50, cache_creation_input_tokens: 0 },
    },
  });
const result = (turns: number, cost: number, text: string) =>
  line({
    type: "result",
    subtype: "success",
    is_error: false,
    num_turns: turns,
    total_cost_usd: cost,
    session_id: SESSION,
    result: text,
    usage: { input_tokens: turns, output_tokens: 5 * turns, cache_read_input_tokens: 50 * turns, cache_creation_input_tokens: 0 },
    permission_denials: [],
  });

/** Writes DIR/NODE.jsonl for the scenario; returns the replay delay in ms. */
export function writeReplayScenario(dir: string, node: string, scenario: Scenario, prompt: string, stub: Record<string, string>): number {
  mkdirSync(dir, { recursive: true });
  const turns = Number(stub.STUB_TURNS ?? 1);
  const cost = Number(stub.STUB_TURN_COST ?? 0.01) * turns;
  const echo = JSON.stringify({ harness: "replay", prompt, model: null, tools: null, available: null, permissionMode: null, argv: [] });
  let lines: string[] = [];
  let delay = 0;
  switch (scenario) {
    case "success":
      lines = [init(), ...Array.from({ length: turns }, (_, i) => turn(i + 1)), result(turns, cost, echo)];
      delay = turns > 1 ? 20 : 0;
      break;
    case "garbage":
      lines = ["Welcome to the stub CLI!", "this is not JSON {at all"];
      break;
    case "cut":
      lines = [init(), '{"type":"assistant","message":{"id":"msg_cut","content":[{"type":"te'];
      break;
    case "hang":
      // Long enough that only the wall or idle cap (or a cancel) ends it.
      lines = [init(), ...Array.from({ length: 200 }, (_, i) => turn(i + 1)), result(200, 2, echo)];
      delay = 5_000;
      break;
    case "grandchild":
    case "flood":
      return 0; // no process: not applicable to replay
  }
  writeFileSync(join(dir, `${node}.jsonl`), `${lines.join("\n")}\n`);
  return delay;
}
