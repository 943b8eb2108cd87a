// `vouch show RUN --tui` (issue 7): the recorded events replayed into the live
// view, in a real terminal (tmux), left with q; refused clearly without one.
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { BINARY } from "../graph/binary.ts";
import { eventually } from "../spawn/helpers.ts";
import { ensureBinary, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
const socket = `vouch-show-tui-${process.pid}`;
const hasTmux = Bun.spawnSync(["tmux", "-V"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "pipe" });
const screen = () => tmux("capture-pane", "-p", "-t", "show").stdout.toString();

beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  p = tempProject();
  p.write(
    "graph.yaml",
    `version: 1
name: replayed
nodes:
  build: { kind: script, run: 'echo built' }
  lint: { kind: script, needs: [build], run: 'echo ok', success: { checks: [{ name: style, run: 'echo "bad indent at x.ts:3"; exit 1' }] } }
`,
  );
});
afterEach(() => {
  if (hasTmux) tmux("kill-server");
  p.cleanup();
});

test.skipIf(!hasTmux)(
  "replays a finished run in a terminal: header, nodes, the failed check's tail; q leaves with exit 0",
  async () => {
    const run = await vouch(p, ["run", "graph.yaml", "--json"]);
    expect(run.code).toBe(1);
    const id = (JSON.parse(run.stdout.split("\n")[0]!) as { run: string }).run;
    const command = `cd '${p.dir}' && env VOUCH_HOME='${p.home}' TERM=xterm-256color NO_COLOR=1 '${BINARY}' show ${id} --tui; echo "EXIT=$?"; sleep 60`;
    expect(tmux("new-session", "-d", "-s", "show", "-x", "100", "-y", "30", command).exitCode).toBe(0);
    // The first frame (drawn before the events are folded in) is empty: wait for the last row.
    expect(await eventually(() => /✗ lint/.test(screen()), 15_000)).toBe(true);
    const shown = screen();
    expect(shown).toContain(`run ${id}`);
    expect(shown).toMatch(/replayed +FAILED · exit 1/);
    expect(shown).toMatch(/✓ build +script +passed exit-only/);
    expect(shown).toMatch(/✗ lint +script +failed check_failed/);
    expect(shown).toContain("bad indent at x.ts:3");
    tmux("send-keys", "-t", "show", "q");
    expect(await eventually(() => screen().includes("EXIT=0"), 15_000)).toBe(true);
  },
  60_000,
);

test("without a terminal: exit 2 saying why and what to use instead; --json with --tui: exit 2", async () => {
  await vouch(p, ["run", "graph.yaml"]);
  const r = await vouch(p, ["show", "last", "--tui"]);
  expect(r).toEqual({
    code: 2,
    signal: null,
    stdout: "",
    stderr:
      "vouch: show --tui needs a terminal to draw in and read keys from (stdin and stdout are not terminals)\nhint: use vouch show RUN for text, or vouch show RUN --json\n",
  });
  const both = await vouch(p, ["show", "last", "--tui", "--json"]);
  expect(both).toMatchObject({ code: 2, stdout: "", stderr: "vouch: --json and --tui exclude each other\n" });
}, 30_000);
