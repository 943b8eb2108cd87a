// gemini's shell commands and the end of a sitting (issue 28 item 1). gemini runs
// each shell command through a detached bash — a session of its own, out of reach
// of the process-group kill: on main, after a wall stop the command ran on (3 of 3
// runs) and 14 s later wrote into the kept folder, while vouch said the process
// group was killed. Now every process a sitting started ends with it: found by
// descent before the kill and by the sitting's marker in their environment.
import { afterAll, expect, test } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cleanupScratch, describeCli, GEMINI_FAST_ENV, geminiHome, oneNodeGraph, runContract, scratch } from "./lib/index.ts";
import { leftIn } from "./lib/acp.ts";
import { geminiAnswer, geminiCall, startGeminiScript } from "./servers/gemini.ts";

afterAll(() => cleanupScratch());

/** A model that runs `command` with gemini's shell tool, then answers. */
function shellModel(command: string) {
  return startGeminiScript((body) =>
    body.includes('"functionResponse"')
      ? geminiAnswer([{ text: "The command ran." }])
      : geminiCall("run_shell_command", { command, description: "run it" }),
  );
}

async function run(command: string, caps: string) {
  const server = shellModel(command);
  const cwd = scratch("strays-work");
  try {
    const { graph } = oneNodeGraph({ harness: "gemini", permissionMode: "yolo", caps, cwd });
    const env = { ...GEMINI_FAST_ENV, GEMINI_API_KEY: "fake-key", GOOGLE_GEMINI_BASE_URL: server.base };
    const r = await runContract(graph, geminiHome(), env);
    return { r, cwd, left: await leftIn(cwd) };
  } finally {
    await server.stop();
  }
}

describeCli("gemini", "gemini's shell commands end with the sitting", () => {
  test("a wall stop in the middle of a shell command: the command dies too, and the message says so", { timeout: 120_000 }, async () => {
    const { r, cwd, left } = await run("sleep 60 && echo late > LATE.txt", "{ wall: 12s }");
    expect(r.node).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "wall" });
    // Nothing of the sitting is left working in its folder (on main: bash and sleep, in their own session).
    expect(left).toEqual([]);
    console.log(
      "NODE",
      JSON.stringify({
        turns: r.node?.turns,
        wall: r.node?.wall_ms,
        error: r.node?.error,
        progress: r.events.filter((e) => e.type === "node.progress").map((e) => (e as { activity?: string }).activity),
      }),
    );
    expect(r.node?.error).toMatch(/process group killed, and \d+ process(es)? that had left it/);
    expect(existsSync(join(cwd, "LATE.txt"))).toBe(false);
  });

  test("a command gemini left running in the background: it ends when the sitting ends by itself", { timeout: 120_000 }, async () => {
    const { r, left } = await run("(sleep 60 && echo late > LATE.txt) > /dev/null 2>&1 &", "{ wall: 60s }");
    expect(r.node).toMatchObject({ status: "passed", stop_reason: "complete" });
    expect(left).toEqual([]);
  });
});
