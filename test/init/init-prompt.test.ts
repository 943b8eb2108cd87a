// `vouch init` on a terminal (tmux: a real one) asks before it replaces a file:
// a no keeps the old file and writes nothing; a yes writes both; end of input
// (Ctrl-D) is a no. Without a terminal it refuses (init-binary.test.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { BINARY, cleanEnv, ensureBinary } from "../e2e/helpers.ts";
import { exitedWith, TMUX, TmuxScreen } from "../e2e/tmux.ts";
import { FIXTURES, project, type Project } from "./fixtures.ts";

beforeAll(() => void ensureBinary(), 180_000);

describe.skipIf(!TMUX)("the question on a terminal", () => {
  const screens: TmuxScreen[] = [];
  const made: Project[] = [];
  afterEach(() => {
    for (const s of screens.splice(0)) s.kill();
    for (const p of made.splice(0)) p.cleanup();
  });

  test.each([
    ["n", ["n", "Enter"], false],
    ["y", ["y", "Enter"], true],
    ["Ctrl-D", ["C-d"], false],
  ])("answering %s", async (_, keys, replaced) => {
    const p = project({ ...FIXTURES.node!, "vouch.checks.yaml": "checks: {}\n" });
    made.push(p);
    const screen = new TmuxScreen(p.root);
    screens.push(screen);
    screen.start(
      ["sh", "-c", `cd '${p.root}' && exec "$@"`, "sh", BINARY, "init", "--no-run-checks"],
      cleanEnv({ home: join(p.root, ".vouch") }),
    );
    await screen.waitFor("the question", (s) => s.some((l) => l.includes("vouch.checks.yaml exists. Replace it? [y/N]")));
    screen.keys(...keys);
    const done = await screen.waitFor("the exit", (s) => exitedWith(s) !== null, 20_000);
    expect(exitedWith(done)).toBe(0);
    const checks = readFileSync(join(p.root, "vouch.checks.yaml"), "utf8");
    if (replaced) {
      expect(checks).toContain("run: npm run test");
      expect(done.some((l) => l.startsWith("wrote vouch.graph.yaml"))).toBe(true);
    } else {
      expect(checks).toBe("checks: {}\n");
      expect(done.some((l) => l.includes("vouch: nothing written"))).toBe(true);
    }
  });
});
