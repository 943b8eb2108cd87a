// The worker's name in what a person watches (issue 19), through the real binary:
// a real redis-server and one `vouch worker --name w-view`; `vouch run --plain`
// says where each branch ran, and `vouch show RUN --tui` (the live view replayed,
// in a real terminal: tmux) puts the worker on each branch's row.
import { afterEach, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { eventually } from "../spawn/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { FLEET_ENV, useRedis, WorkerProc } from "./fleet.ts";

const HAVE_TMUX = Bun.spawnSync(["sh", "-c", "command -v tmux"]).exitCode === 0;
const socket = `vouch-fleet-view-${process.pid}`;
const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "pipe" });
const screen = () => tmux("capture-pane", "-p", "-t", "view").stdout.toString();

const GRAPH = `version: 1
name: view
nodes:
  items: { kind: script, run: "echo '[\\"alpha\\",\\"beta\\",\\"gamma\\"]'", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work: { kind: script, run: 'test "$(cat "$VOUCH_ITEM_FILE")" != "\\"beta\\""' }
`;

describe.skipIf(!HAVE_REDIS)("the worker's name in the live view", { timeout: 120_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  let worker: WorkerProc | null = null;
  afterEach(async () => {
    if (HAVE_TMUX) tmux("kill-server");
    await worker?.term();
    worker = null;
    dir.cleanup();
  });

  test("--plain names the worker of each branch; show --tui puts it on each branch row", async () => {
    dir = tempDir("fleet-view");
    const home = join(dir.path, ".vouch");
    worker = await WorkerProc.start(redis().url, "w-view", home, 3);
    writeFileSync(join(dir.path, "view.yaml"), GRAPH);
    const ran = await vouch(["run", "view.yaml", "--plain", "--executor", redis().url], { home, cwd: dir.path, env: FLEET_ENV });
    expect(ran.code, ran.stderr).toBe(1);
    const lines = ran.stdout.split("\n");
    for (const [i, word] of [
      [0, "PASSED"],
      [1, "FAILED"],
      [2, "PASSED"],
    ] as const) {
      expect(
        lines.find((l) => l.includes(`each[${i}] `) && l.includes(word)),
        ran.stdout,
      ).toMatch(/\s+on w-view$/);
    }
    expect(lines.find((l) => l.includes("each[1].work"))).toMatch(/on w-view$/);
    if (!HAVE_TMUX) return;
    const command = `cd '${dir.path}' && env VOUCH_HOME='${home}' TERM=xterm-256color NO_COLOR=1 '${BINARY}' show last --tui; echo "EXIT=$?"; sleep 60`;
    expect(tmux("new-session", "-d", "-s", "view", "-x", "110", "-y", "30", command).exitCode).toBe(0);
    expect(await eventually(() => /#2 .*on w-view/.test(screen()), 15_000)).toBe(true);
    const shown = screen();
    expect(shown).toMatch(/#0 +"?alpha"? +PASSED +on w-view/);
    expect(shown).toMatch(/#1 +"?beta"? +FAILED +on w-view/);
    tmux("send-keys", "-t", "view", "q");
    expect(await eventually(() => screen().includes("EXIT=0"), 15_000)).toBe(true);
  });
});
