// `vouch doctor` through the compiled binary, against stub CLIs written like
// older releases whose parsers do not know a flag vouch now sends (codex
// without --skip-git-repo-check, gemini without --skip-trust), and the pure
// reading of each CLI's parser answers. The real CLIs: test/contract/codex-gemini-doctor.test.ts.
import { afterAll, describe, expect, test } from "vitest";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../graph/binary.ts";
import { HAVE_BWRAP } from "../spawn/helpers.ts";
import { classifyProbe, probeAssignments } from "../../src/spawn/harness/doctor-probes.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A folder of shell-script CLIs; each body reads its arguments as "$@". */
function binDir(scripts: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "vouch-doctor-bin-"));
  dirs.push(dir);
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

// Like clap in codex: an unknown flag is exit 2; otherwise the empty prompt stops it.
const OLD_CODEX = `for a in "$@"; do case "$a" in --skip-git-repo-check) printf "error: unexpected argument '%s' found\\n\\nUsage: codex exec [OPTIONS] [PROMPT]\\n" "$a" >&2; exit 2;; esac; done
echo "No prompt provided via stdin." >&2; exit 1`;
// Like yargs in gemini: usage, then "Unknown argument", exit 1; otherwise no auth: exit 41.
const OLD_GEMINI = `for a in "$@"; do case "$a" in --skip-trust) printf "Usage: gemini [options] [command]\\n\\nUnknown argument: skip-trust\\n" >&2; exit 1;; esac; done
echo "Please set an Auth method" >&2; exit 41`;
const GOOD_CODEX = `echo "No prompt provided via stdin." >&2; exit 1`;

async function doctor(path: string, json = true) {
  const p = Bun.spawn([ensureBinary(), "doctor", ...(json ? ["--json"] : [])], {
    env: { PATH: `${path}:/usr/bin:/bin`, HOME: tmpdir() },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

describe("vouch doctor", () => {
  test("an old codex that rejects --skip-git-repo-check: exit 1, the flag and codex's own message named", async () => {
    const r = await doctor(binDir({ codex: OLD_CODEX }));
    expect(r.code).toBe(1);
    const reports = JSON.parse(r.stdout) as {
      harness: string;
      verdict: string;
      probes: { verdict: string; detail: string; argv: string[] }[];
    }[];
    const codex = reports.find((x) => x.harness === "codex")!;
    expect(codex.verdict).toBe("rejected");
    expect(codex.probes[0]!.detail).toBe("error: unexpected argument '--skip-git-repo-check' found");
    expect(codex.probes[0]!.argv).toContain("--skip-git-repo-check");
    expect(reports.find((x) => x.harness === "claude")!.verdict).toBe("not_installed");
  });

  test("an old gemini that rejects --skip-trust: exit 1; the text report says what to do", async () => {
    const r = await doctor(binDir({ gemini: OLD_GEMINI }), false);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("rejected: gemini --output-format stream-json --skip-trust");
    expect(r.stdout).toContain("Unknown argument: skip-trust");
    expect(r.stdout).toContain("install @google/gemini-cli@0.61.0");
    expect(r.stdout).toContain("claude: not installed");
  });

  // Issue 28 item 6: doctor said "NOT tested" without saying how far from the tested version.
  test("a codex other than the tested one: how far it is, in the text and in the JSON", async () => {
    const newer = `case "$1" in --version) echo "codex-cli 0.173.2"; exit 0;; esac\n${GOOD_CODEX}`;
    const t = await doctor(binDir({ codex: newer }), false);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain("codex 0.173.2 at ");
    expect(t.stdout).toContain("NOT tested (vouch is tested with 0.171.0; this is 2 minor versions newer)");
    const j = JSON.parse((await doctor(binDir({ codex: newer }))).stdout) as { harness: string; distance: unknown }[];
    expect(j.find((x) => x.harness === "codex")!.distance).toEqual({ direction: "newer", part: "minor", by: 2 });
    const older = `case "$1" in --version) echo "codex-cli 0.171.0-alpha.3"; exit 0;; esac\n${GOOD_CODEX}`;
    const o = JSON.parse((await doctor(binDir({ codex: older }))).stdout) as { harness: string; distance: unknown; tested: boolean }[];
    expect(o.find((x) => x.harness === "codex")).toMatchObject({
      tested: false,
      distance: { direction: "older", part: "prerelease", by: 1 },
    });
  });

  test("the tested claude refusing one permission mode (bypassPermissions as root): the mode is named, no reinstall is suggested", async () => {
    const claude = `case "$1" in --version) echo "2.1.332 (Claude Code)"; exit 0;; esac
for a in "$@"; do case "$a" in *bypassPermissions) echo "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons" >&2; exit 1;; esac; done
echo "Error: Input must be provided either through stdin or as a prompt argument when using --print" >&2; exit 1`;
    const r = await doctor(binDir({ claude }), false);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("claude 2.1.332");
    expect(r.stdout).toContain("permission_mode bypassPermissions would fail here");
    expect(r.stdout).not.toContain("install @anthropic-ai/claude-code");
  });

  test("a CLI's own message with escape sequences reaches the terminal cleaned", async () => {
    const codex = `printf "error: unexpected argument '\\033]0;pwned\\007\\033[2J--x' found\\n" >&2; exit 2`;
    const r = await doctor(binDir({ codex }), false);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("unexpected argument");
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout).not.toContain("\u0007");
  });

  test("a CLI that accepts everything: exit 0; one that answers nothing recognisable: exit 3", async () => {
    expect((await doctor(binDir({ codex: GOOD_CODEX }))).code).toBe(0);
    const odd = await doctor(binDir({ codex: "exit 0" }));
    expect(odd.code).toBe(3);
    expect(JSON.parse(odd.stdout).find((x: { harness: string }) => x.harness === "codex").verdict).toBe("unknown");
  });

  // Review of issue 13: the probes must reach no credential of the user's: not
  // their environment, not their HOME; the provider URLs point at the closed port.
  test("every process doctor starts sees only PATH, a throwaway HOME and the closed-port URLs, never vouch's own variables", async () => {
    const seen = mkdtempSync(join(tmpdir(), "vouch-doctor-seen-"));
    dirs.push(seen);
    const bin = binDir({ codex: `env > "${seen}/env-$$"; cat > /dev/null; echo "No prompt provided via stdin." >&2; exit 1` });
    const userHome = mkdtempSync(join(tmpdir(), "vouch-doctor-user-"));
    dirs.push(userHome);
    const p = Bun.spawn([ensureBinary(), "doctor", "--json"], {
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: userHome, OPENAI_API_KEY: "sk-user-secret", CODEX_HOME: userHome },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await p.exited).toBe(0);
    const envs = readdirSync(seen).map((f) => readFileSync(join(seen, f), "utf8"));
    expect(envs.length).toBe(4); // --version, then one probe per command line (3)
    for (const text of envs) {
      expect(text).not.toContain("sk-user-secret");
      expect(text).not.toContain(userHome);
      expect(text).not.toMatch(/^CODEX_HOME=/m);
      expect(text).toMatch(/^HOME=.*vouch-/m);
    }
    expect(envs.filter((t) => t.includes("OPENAI_BASE_URL=http://127.0.0.1:9")).length).toBe(3);
  });

  test("no CLI installed: exit 0, each reported not installed; a stray argument is a usage error", async () => {
    const none = await doctor(binDir({}));
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout).map((x: { verdict: string }) => x.verdict)).toEqual([
      "not_installed",
      "not_installed",
      "not_installed",
      "available",
    ]);
    const p = Bun.spawnSync([ensureBinary(), "doctor", "--bogus"], { env: { PATH: "/usr/bin:/bin" } });
    expect(p.exitCode).toBe(2);
  });
});

describe("vouch doctor: the sandbox (ADR 0040)", () => {
  test.skipIf(!HAVE_BWRAP)("here sealing works: the last JSON element says so with bubblewrap's path; the text says it too", async () => {
    const r = await doctor(binDir({}));
    const last = JSON.parse(r.stdout).at(-1);
    expect(last).toMatchObject({
      check: "sandbox",
      verdict: "available",
      program: expect.stringMatching(/bwrap$/),
      version: expect.stringMatching(/bubblewrap/),
    });
    expect((await doctor(binDir({}), false)).stdout).toMatch(/^sandbox: sealing works here \(bubblewrap [\d.]+ at \/.*bwrap\)$/m);
  });

  test("without bubblewrap on PATH: why, and how to install it; the exit code is the CLIs' (0 here)", async () => {
    const p = Bun.spawn([ensureBinary(), "doctor"], { env: { PATH: binDir({}), HOME: tmpdir() }, stdout: "pipe", stderr: "pipe" });
    const [stdout, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    expect(code).toBe(0);
    expect(stdout).toContain("sandbox: sealing does NOT work here: bubblewrap (bwrap) is not installed");
    expect(stdout).toContain("apt-get install bubblewrap");
  });
});

describe("doctor probes", () => {
  test("one command line per permission mode, the first with every flag; the prompt channel empty", () => {
    const codex = probeAssignments("codex", "/tmp");
    expect(codex.map((a) => a.permissionMode)).toEqual(["read-only", "workspace-write", "danger-full-access"]);
    expect(codex.every((a) => a.prompt === "")).toBe(true);
    expect(probeAssignments("gemini", "/tmp").map((a) => a.permissionMode)).toContain("plan");
    expect(probeAssignments("claude", "/tmp")[0]).toMatchObject({
      caps: { turns: 3, budgetUsd: 0.5 },
      tools: ["Read", "Bash(git diff:*)"],
    });
  });

  test("each CLI's parse errors are rejected; its after-parse stops accepted; anything else unknown", () => {
    const a = (exit: number, stderr: string, stdout = "") => ({ exit, signal: null, stdout, stderr });
    expect(classifyProbe("codex", a(2, "error: invalid value 'x' for '--sandbox <SANDBOX_MODE>'\n")).verdict).toBe("rejected");
    expect(classifyProbe("codex", a(1, "No prompt provided via stdin.\n")).verdict).toBe("accepted");
    expect(classifyProbe("codex", a(0, "")).verdict).toBe("unknown");
    expect(classifyProbe("claude", a(1, "error: unknown option '--bogus'\n")).verdict).toBe("rejected");
    expect(
      classifyProbe("claude", a(1, "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n"))
        .verdict,
    ).toBe("rejected");
    expect(
      classifyProbe("claude", a(1, "Error: Input must be provided either through stdin or as a prompt argument when using --print\n"))
        .verdict,
    ).toBe("accepted");
    const invalid = classifyProbe(
      "gemini",
      a(1, 'Usage: gemini [options]\n\nInvalid values:\n  Argument: approval-mode, Given: "plan", Choices: "default", "yolo"\n'),
    );
    expect(invalid).toEqual({
      verdict: "rejected",
      detail: 'Invalid values: Argument: approval-mode, Given: "plan", Choices: "default", "yolo"',
    });
    expect(classifyProbe("gemini", a(41, "Please set an Auth method\n")).verdict).toBe("accepted");
    expect(classifyProbe("gemini", a(1, "something else\n")).verdict).toBe("unknown");
  });
});
