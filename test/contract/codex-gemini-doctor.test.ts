// `vouch harnesses` and `vouch doctor` against the real pinned codex and
// gemini: the versions read are the pinned ones, and every command line vouch
// sends them passes their own argument parsers, without any model call.
import { afterAll, expect, test } from "vitest";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../graph/binary.ts";
import { CLIS_BIN, cleanupScratch, describeCli, scratch, systemPath } from "./lib/index.ts";
import { classifyProbe, PROBE_ENV } from "../../src/spawn/harness/doctor-probes.ts";

afterAll(cleanupScratch);

/** A PATH folder holding only the real codex and gemini (claude is the other contract file's). */
function onlyCodexAndGemini(): string {
  const dir = scratch("bin");
  for (const cli of ["codex", "gemini"]) symlinkSync(join(CLIS_BIN, cli), join(dir, cli));
  return dir;
}

async function vouchWith(args: string[], bin: string) {
  const p = Bun.spawn([ensureBinary(), ...args], {
    env: { PATH: `${bin}:${systemPath()}`, HOME: scratch("home") },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

describeCli(["codex", "gemini"], "the real codex and gemini: versions and argument check", () => {
  test("vouch harnesses shows the pinned versions as tested", async () => {
    const r = await vouchWith(["harnesses", "--json"], onlyCodexAndGemini());
    expect(r.code).toBe(0);
    const reports = JSON.parse(r.stdout) as { name: string; version: string | null; tested: boolean | null }[];
    expect(reports.find((x) => x.name === "codex")).toMatchObject({ version: "0.171.0", tested: true });
    expect(reports.find((x) => x.name === "gemini")).toMatchObject({ version: "0.61.0", tested: true });
  });

  test("vouch doctor: both accept every command line vouch sends (every sandbox and approval mode), exit 0", {
    timeout: 120_000,
  }, async () => {
    const r = await vouchWith(["doctor", "--json"], onlyCodexAndGemini());
    const reports = JSON.parse(r.stdout) as {
      harness: string;
      verdict: string;
      probes: { argv: string[]; verdict: string; detail: string }[];
    }[];
    const codex = reports.find((x) => x.harness === "codex")!;
    const gemini = reports.find((x) => x.harness === "gemini")!;
    expect(codex.probes.map((p) => [p.verdict, p.detail])).toEqual(Array(3).fill(["accepted", "parsed; stopped at the empty prompt"]));
    expect(gemini.probes.map((p) => p.verdict)).toEqual(["accepted", "accepted", "accepted", "accepted"]);
    // vouch passes values as --flag=value (ADR 0019), so a value is never read as a flag.
    expect(gemini.probes.map((p) => p.argv.find((x) => x.startsWith("--approval-mode="))?.slice("--approval-mode=".length))).toEqual([
      "default",
      "auto_edit",
      "yolo",
      "plan",
    ]);
    expect(r.code).toBe(0);
  });

  // The reading of the parsers' answers, held to what the real parsers print.
  test.each([
    ["codex", ["exec", "--json", "--skip-git-repo-check", "--no-such-flag", "-"], "error: unexpected argument '--no-such-flag' found"],
    ["codex", ["exec", "--json", "-s", "no-such-sandbox", "-"], "error: invalid value 'no-such-sandbox' for '--sandbox <SANDBOX_MODE>'"],
    ["gemini", ["--output-format", "stream-json", "--bogus-flag", "-p", "x"], "Unknown arguments: bogus-flag"],
    ["gemini", ["--output-format", "stream-json", "--approval-mode", "nope", "-p", "x"], "Invalid values:"],
  ] as const)("the real %s's parse error is read as rejected (%s)", { timeout: 60_000 }, async (cli, args, detail) => {
    const home = scratch("probe-home");
    const p = Bun.spawn([join(CLIS_BIN, cli), ...args], {
      cwd: home,
      env: { PATH: systemPath(), HOME: home, ...PROBE_ENV },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, exit] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    const read = classifyProbe(cli, { exit, signal: null, stdout, stderr });
    expect(read.verdict).toBe("rejected");
    expect(read.detail).toContain(detail);
  });
});

describeCli(["gemini", "claude-code-acp"], "vouch doctor GRAPH on the real ACP agents (ADR 0080)", () => {
  test("gemini --acp and claude-code-acp answer initialize as tested agents; gemini without --acp never answers", {
    timeout: 120_000,
  }, async () => {
    const bin = scratch("acp-bin");
    for (const cli of ["gemini", "claude-code-acp"]) symlinkSync(join(CLIS_BIN, cli), join(bin, cli));
    const graph = join(scratch("acp-graph"), "agents.yaml");
    writeFileSync(
      graph,
      `version: 1\nname: agents\nnodes:\n${[["gemini", "--acp"], ["claude-code-acp"], ["gemini"]]
        .map((c, i) => `  a${i}: { kind: agent, harness: acp, acp: { command: ${JSON.stringify(c)} }, prompt: hi }`)
        .join("\n")}\n`,
    );
    const r = await vouchWith(["doctor", graph, "--json"], bin);
    const acp = (JSON.parse(r.stdout) as { check?: string; command: string[]; verdict: string; detail: string }[]).filter(
      (x) => x.check === "acp",
    );
    expect(acp.find((a) => a.command.join(" ") === "gemini --acp")).toMatchObject({
      verdict: "accepted",
      tested_agent: "gemini",
      agent_version: "0.61.0",
      protocol_version: 1,
    });
    expect(acp.find((a) => a.command.join(" ") === "claude-code-acp")).toMatchObject({
      verdict: "accepted",
      tested_agent: "claude-code-acp",
      agent_version: "0.16.2",
      load_session: true,
    });
    const plain = acp.find((a) => a.command.join(" ") === "gemini")!;
    expect(plain.verdict).toBe("rejected");
    expect(plain.detail).toContain("never answered ACP's initialize");
    expect(r.code).toBe(1);
  });
});
