// docs/mcp.md's configurations for Codex and the Gemini CLI, as written there (the
// binary under test and a test root filled in), read by the pinned real CLIs: codex
// lists the server enabled, gemini connects to it (in a folder it trusts). (Claude
// Code's is run end to end by mcp-claude.test.ts.)
import { expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeCli } from "./lib/skip.ts";
import { cliPath } from "./lib/clis.ts";
import { throwawayHome } from "./lib/home.ts";
import { contractPath } from "./lib/run.ts";
import { codexConfig, geminiConfig } from "./lib/mcp-docs.ts";
import { ensureBinary } from "../graph/binary.ts";
import { mcpWorld } from "../e2e/mcp-helpers.ts";

const TIMEOUT = 90_000;

async function listed(argv: string[], home: string, cwd: string, env: Record<string, string> = {}) {
  const p = Bun.spawn(argv, {
    cwd,
    env: { PATH: contractPath(), HOME: home, TZ: "UTC", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code };
}

describeCli("codex", "docs/mcp.md's Codex configuration", () => {
  it("codex mcp list shows vouch, enabled, with the documented command", { timeout: TIMEOUT }, async () => {
    await ensureBinary();
    const h = throwawayHome("mcp-codex");
    try {
      const w = mcpWorld(h.root);
      mkdirSync(join(h.home, ".codex"), { recursive: true });
      writeFileSync(join(h.home, ".codex", "config.toml"), codexConfig(w.root));
      const r = await listed([cliPath("codex"), "mcp", "list"], h.home, w.root);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(new RegExp(`^vouch +\\S*dist/vouch +mcp serve --root ${w.root} .*enabled`, "m"));
    } finally {
      h.cleanup();
    }
  });
});

describeCli("gemini", "docs/mcp.md's Gemini CLI configuration", () => {
  it("gemini mcp list connects to vouch mcp serve", { timeout: TIMEOUT }, async () => {
    await ensureBinary();
    const h = throwawayHome("mcp-gemini");
    try {
      const w = mcpWorld(h.root);
      mkdirSync(join(h.home, ".gemini"), { recursive: true });
      writeFileSync(join(h.home, ".gemini", "settings.json"), geminiConfig(w.root));
      const r = await listed([cliPath("gemini"), "mcp", "list"], h.home, w.root, { GEMINI_CLI_TRUST_WORKSPACE: "true" });
      expect(r.code, r.err).toBe(0);
      expect(r.out + r.err).toMatch(/✓ vouch: \S*dist\/vouch mcp serve --root \S+ \(stdio\) - Connected/);
    } finally {
      h.cleanup();
    }
  });
});
