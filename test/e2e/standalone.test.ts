// The binary as a person who downloads it runs it: copied alone into a folder
// with no node_modules and no project around it, started with an empty
// environment (env -i). Every command must work from what is inside the file,
// including the live UI (ink and React, loaded lazily from the binary itself).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, ensureBinary, ROOT } from "./helpers.ts";
import { TMUX, TmuxScreen } from "./tmux.ts";

let dir: string;
let vouch: string;

beforeAll(() => {
  ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "vouch-standalone-"));
  vouch = join(dir, "vouch");
  copyFileSync(BINARY, vouch);
  Bun.spawnSync(["chmod", "+x", vouch]);
  cpSync(join(ROOT, "graphs"), join(dir, "graphs"), { recursive: true });
  cpSync(join(ROOT, "examples", "sample-repo"), join(dir, "sample"), { recursive: true });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** env -i, in the copied folder: nothing from the test runner leaks in. */
function bare(args: string[], env: Record<string, string> = {}) {
  const r = Bun.spawnSync([vouch, ...args], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

describe("the binary alone, under env -i, in a folder with no node_modules", () => {
  test("the folder really has nothing else", () => {
    expect(existsSync(join(dir, "node_modules"))).toBe(false);
    expect(existsSync(join(dir, "package.json"))).toBe(false);
  });

  test("--version, --help, schema and validate work with an empty environment", () => {
    expect(bare(["--version"])).toMatchObject({ code: 0, out: expect.stringMatching(/^vouch \d+\.\d+\.\d+\n$/) });
    expect(bare(["--help"]).out).toContain("vouch run GRAPH");
    expect(JSON.parse(bare(["schema"]).out).title).toBe("vouch graph");
    const v = bare(["validate", "graphs"]);
    expect(v.code).toBe(0);
    expect(v.err).toContain("6 files valid"); // plan.yaml (vouch plan's planner) and parallel-implement.yaml among them
  });

  test("a run (plain and --json) records to ./.vouch beside it and reads it back", () => {
    const env = { PATH: "/usr/bin:/bin" };
    const run = bare(["run", "graphs/checks-only.yaml", "-i", "project_dir=sample", "--json"], env);
    expect(run.code).toBe(0);
    expect(run.out.trim().split("\n").at(-1)).toContain('"type":"run.finished"');
    expect(existsSync(join(dir, ".vouch", "ledger.sqlite"))).toBe(true);
    const plain = bare(
      ["run", "graphs/finding-verifier.yaml", "--harness", "replay", "-i", "findings=@sample/REVIEW.md", "-i", "project_dir=sample"],
      env,
    );
    expect(plain.code).toBe(0);
    expect(plain.out).toContain("F5  UNVERIFIABLE");
    expect(
      bare(["runs"], env)
        .out.split("\n")
        .filter((l) => l.includes("passed")),
    ).toHaveLength(2);
  });

  test("report draws the graph with the Graphviz WebAssembly inside the binary", () => {
    const env = { PATH: "/usr/bin:/bin" };
    const html = bare(["report", "last"], env);
    expect(html.err).toBe("");
    expect(html.code).toBe(0);
    expect(html.out.match(/<g id="node\d+" class="node">/g)).toHaveLength(5);
    expect(bare(["report", "last", "--format", "junit"], env).out).toContain('name="verify_each[4].verify_one"');
  });

  test.skipIf(!TMUX)(
    "the live UI starts and draws from the binary alone (ink is inside it)",
    async () => {
      const screen = new TmuxScreen(dir);
      try {
        // cd into the copied folder and clear the environment, as a person with the downloaded file would.
        const command = `cd '${dir}' && exec env -i PATH=/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 HOME='${dir}' VOUCH_HOME='${dir}/tui-ledger' ./vouch run graphs/finding-verifier.yaml --harness replay -i findings=@sample/REVIEW.md -i project_dir=sample`;
        screen.start(["sh", "-c", command], {});
        const end = await screen.waitFor("the final frame", (s) => s.some((l) => l.includes("PASSED · exit 0")));
        expect(end.join("\n")).toContain("turns 9/8");
        screen.keys("q");
        await screen.waitFor("vouch to exit", (s) => s.some((l) => l === "vouch exited 0"));
      } finally {
        screen.kill();
      }
    },
    60_000,
  );
});
