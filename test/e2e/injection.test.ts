// docs/architecture.md §7 through the real binary: a model's answer (here the `command`
// harness playing the model) and a user's input both carry shell
// metacharacters. They reach a later script and its checks through
// VOUCH_STATE_FILE, VOUCH_OUTPUT_FILE, stdin and VOUCH_INPUT_<NAME> — as data.
// Nothing in them is ever executed: no marker file appears, the victim folder
// survives, and every copy the commands made holds the text byte for byte.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EventOf } from "../../src/engine/events.ts";
import { E2E_GRAPHS, ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("inject");
});
afterAll(() => dir.cleanup());

function hostile(root: string, tag: string): string {
  const mark = (n: number) => join(root, `pwned-${tag}-${n}`);
  return [
    `$(touch ${mark(1)}); "; rm -rf ${join(root, "victim")}; \`touch ${mark(2)}\``,
    `'; touch ${mark(3)}; echo '`,
    `$(touch ${mark(4)}) && touch ${mark(5)} | touch ${mark(6)} > ${mark(7)}`,
  ].join("\n");
}

describe("model output and inputs never run as shell", () => {
  test("a hostile title and note flow through a script and three checks intact, and nothing runs", async () => {
    const root = dir.path;
    const out = join(root, "seen");
    mkdirSync(out);
    mkdirSync(join(root, "victim"));
    writeFileSync(join(root, "victim", "keep.txt"), "still here\n");
    const title = hostile(root, "model");
    const note = hostile(root, "input");
    // The "model": records the prompt it was given, answers with the hostile title as JSON.
    writeFileSync(join(root, "answer.json"), `${JSON.stringify({ title })}\n`);
    const agent = ["sh", "-c", 'cat > "$0"; cat "$1"', join(root, "prompt.txt"), join(root, "answer.json")];

    const r = await vouch(["run", join(E2E_GRAPHS, "injection.yaml"), "--json", "-i", `note=${note}`, "-i", `out_dir=${out}`], {
      home: join(root, "home"),
      cwd: root,
      env: { VOUCH_COMMAND: JSON.stringify(agent) },
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);

    // Nothing ran: no marker, the victim folder intact.
    expect(readdirSync(root).filter((f) => f.startsWith("pwned"))).toEqual([]);
    expect(readFileSync(join(root, "victim", "keep.txt"), "utf8")).toBe("still here\n");

    // The data arrived intact everywhere it was handed over.
    const json = (f: string) => JSON.parse(readFileSync(join(out, f), "utf8")) as Record<string, unknown>;
    expect(readFileSync(join(root, "prompt.txt"), "utf8")).toBe(`Write a title for this note: ${note}`);
    expect(json("check-output.json")).toEqual({ title }); // the agent's check, VOUCH_OUTPUT_FILE
    const state = { inputs: { note, out_dir: out }, nodes: { write: expect.objectContaining({ output: { title } }) } };
    expect(json("script-state.json")).toEqual(state); // the script, VOUCH_STATE_FILE
    expect(json("script-stdin.json")).toEqual(state); // the script, stdin
    expect(readFileSync(join(out, "script-note.txt"), "utf8")).toBe(note); // VOUCH_INPUT_NOTE
    expect(json("check-script-output.json")).toEqual(state); // the script's check, VOUCH_OUTPUT_FILE (its stdout JSON)
    expect(json("check-state.json")).toEqual(state); // the script's check, VOUCH_STATE_FILE

    const events = parseNdjson(r.stdout);
    const finished = events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished");
    expect(finished.map((e) => [e.node, e.status, e.qualifier])).toEqual([
      ["write", "passed", "verified"],
      ["publish", "passed", "verified"],
    ]);
    expect(finished[0]!.output).toEqual({ title });
    const checks = events.filter((e) => e.type === "check.finished");
    expect(checks).toHaveLength(3);
  });

  test("the markers would appear if the text reached a shell (the test can see an injection)", async () => {
    const root = join(dir.path, "control");
    mkdirSync(join(root, "victim"), { recursive: true });
    const payload = hostile(root, "control");
    // What a broken engine would do: paste the text into a command line.
    const p = Bun.spawn(["sh", "-c", `echo "${payload}"`], { stdout: "ignore", stderr: "ignore" });
    await p.exited;
    expect(readdirSync(root).filter((f) => f.startsWith("pwned")).length).toBeGreaterThan(0);
    expect(existsSync(join(root, "victim"))).toBe(false);
  });
});
