// `vouch harnesses [--json]`: in process, and through the compiled binary.
import { describe, expect, test } from "vitest";
import { join } from "node:path";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import harnessesCommand from "../../src/cli/harnesses-command.ts";
import type { CliIO } from "../../src/cli/io.ts";
import { ROOT, STUBS } from "./helpers.ts";
import { ensureBinary } from "../graph/binary.ts";

function io(env: Record<string, string | undefined>) {
  let out = "";
  let err = "";
  const cli: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env,
    cwd: ROOT,
    streams: process,
  };
  return { cli, out: () => out, err: () => err };
}

describe("vouch harnesses", () => {
  test("--json lists all six with their guarantees and where each program was found", async () => {
    const t = io({ PATH: `/nonexistent:${STUBS}`, VOUCH_COMMAND: '["agent-cmd","--x"]' });
    expect(await harnessesCommand(["--json"], t.cli)).toBe(0);
    const reports = JSON.parse(t.out());
    expect(reports.map((r: { name: string }) => r.name)).toEqual(["claude", "codex", "gemini", "acp", "replay", "command"]);
    expect(reports[0]).toMatchObject({
      program: "claude",
      found: join(STUBS, "claude"),
      caps: { turns: "native", budget_usd: "native", wall: "supervised", idle: "supervised" },
      model: true,
      tools: true,
    });
    expect(reports[1]).toMatchObject({
      caps: { turns: "supervised", budget_usd: "none" },
      tools: false,
      permission_modes: ["read-only", "workspace-write", "danger-full-access"],
    });
    // acp: any agent keeps wall and idle; its tested agents each say what vouch keeps of them (issue 28).
    expect(reports[3]).toMatchObject({ name: "acp", program: null, caps: { turns: "none", budget_usd: "none", wall: "supervised" } });
    expect(reports[3].agents).toEqual([
      expect.objectContaining({ name: "gemini", command: ["gemini", "--acp"], found: join(STUBS, "gemini"), tested_version: "0.61.0" }),
      expect.objectContaining({ name: "claude-code-acp", command: ["claude-code-acp"], tested_version: "0.16.2" }),
    ]);
    for (const a of reports[3].agents)
      expect(a.caps).toEqual({ turns: "supervised", budget_usd: "none", wall: "supervised", idle: "supervised" });
    expect(reports[4]).toMatchObject({ program: null, found: null, recorded: true, caps: { turns: "observed" } });
    expect(reports[5]).toMatchObject({
      program: "agent-cmd",
      found: join(STUBS, "agent-cmd"),
      caps: { turns: "none", budget_usd: "none" },
    });
  });

  test("a program missing from PATH is reported as not found; an unset VOUCH_COMMAND says how to set it", async () => {
    const t = io({ PATH: "/nonexistent" });
    await harnessesCommand([], t.cli);
    const lines = t.out().split("\n");
    expect(lines[0]).toMatch(
      /^harness\s+program\s+installed\s+version\s+tested\s+turns\s+budget_usd\s+wall\s+idle\s+model\s+tools\s+permission_mode$/,
    );
    expect(lines.find((l) => l.startsWith("claude"))).toMatch(
      /^claude\s+claude\s+not found on PATH\s+-\s+\? \(tested: 2\.1\.332\)\s+native\s+native\s+supervised\s+supervised\s+yes\s+yes\s+yes$/,
    );
    expect(lines.find((l) => l.startsWith("command"))).toContain("no program: set VOUCH_COMMAND");
  });

  test("an installed agent CLI shows its version, and whether vouch was tested with it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-harnesses-"));
    try {
      const pkg = join(dir, "node_modules", "@openai", "codex");
      mkdirSync(join(pkg, "bin"), { recursive: true });
      writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@openai/codex", version: "0.170.0" }));
      writeFileSync(join(pkg, "bin", "codex.js"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
      mkdirSync(join(dir, "bin"));
      symlinkSync(join(pkg, "bin", "codex.js"), join(dir, "bin", "codex"));
      const t = io({ PATH: join(dir, "bin") });
      await harnessesCommand(["--json"], t.cli);
      expect(JSON.parse(t.out())[1]).toMatchObject({ name: "codex", version: "0.170.0", tested_version: "0.171.0", tested: false });
      const table = io({ PATH: join(dir, "bin") });
      await harnessesCommand([], table.cli);
      expect(
        table
          .out()
          .split("\n")
          .find((l) => l.startsWith("codex")),
      ).toMatch(/\s0\.170\.0\s+no \(tested: 0\.171\.0\)\s+supervised\s+none/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("through the compiled binary: exit 0, JSON on stdout only; a stray argument is exit 2", async () => {
    const bin = ensureBinary(); // built when missing or older than src/: never a stale binary
    const ok = Bun.spawnSync([bin, "harnesses", "--json"], { env: { PATH: `${STUBS}:/usr/bin:/bin` } });
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr.toString()).toBe("");
    expect(JSON.parse(ok.stdout.toString())[2]).toMatchObject({ name: "gemini", found: join(STUBS, "gemini") });
    const bad = Bun.spawnSync([bin, "harnesses", "extra"], { env: { PATH: "/usr/bin:/bin" } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.toString()).toContain('harnesses takes no arguments (got "extra")');
    expect(bad.stderr.toString()).not.toContain("    at ");
  });
});
