// The pinned CLI versions have one home in src (tested-versions.ts) and must
// equal what clis/package.json installs for the contract tests.
import { describe, expect, test } from "vitest";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  describeDistance,
  TESTED_PACKAGES,
  TESTED_VERSIONS,
  testedWith,
  versionDistance,
  versionIn,
} from "../../src/spawn/harness/tested-versions.ts";
import { installedVersion, versionFromPackage } from "../../src/spawn/harness/cli-version.ts";
import { ROOT } from "./helpers.ts";

describe("tested CLI versions", () => {
  test("equal the pins of clis/package.json, package by package", async () => {
    const manifest = (await Bun.file(join(ROOT, "clis", "package.json")).json()) as { dependencies: Record<string, string> };
    const fromSrc = Object.fromEntries(TESTED_PACKAGES.map((t) => [t.package, t.version]));
    expect(fromSrc).toEqual(manifest.dependencies);
    // A package named twice (gemini: its harness and the acp agent) is tested at one version.
    for (const t of TESTED_PACKAGES) expect(t.version, t.package).toBe(manifest.dependencies[t.package]);
    expect(Object.values(TESTED_VERSIONS).every((t) => TESTED_PACKAGES.includes(t))).toBe(true);
  });

  test("a version is read from each CLI's own --version wording", () => {
    expect(versionIn("codex-cli 0.171.0\n")).toBe("0.171.0");
    expect(versionIn("2.1.332 (Claude Code)\n")).toBe("2.1.332");
    expect(versionIn("0.61.0\n")).toBe("0.61.0");
    expect(versionIn("0.62.0-nightly.20261201\n")).toBe("0.62.0-nightly.20261201");
    expect(versionIn("no digits here")).toBeNull();
  });

  test("tested: the pinned version only; unknown stays unknown", () => {
    expect(testedWith("codex", "0.171.0")).toBe(true);
    expect(testedWith("codex", "0.172.0")).toBe(false);
    expect(testedWith("gemini", null)).toBeNull();
  });

  test("the version comes from the package.json that holds the program, through a symlink, never another package's", () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-versions-"));
    try {
      const pkg = join(dir, "node_modules", "@openai", "codex");
      mkdirSync(join(pkg, "bin"), { recursive: true });
      writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@openai/codex", version: "9.9.9" }));
      writeFileSync(join(pkg, "bin", "codex.js"), "");
      mkdirSync(join(dir, "node_modules", ".bin"));
      symlinkSync(join(pkg, "bin", "codex.js"), join(dir, "node_modules", ".bin", "codex"));
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "__proto__", version: "1.0.0" }));
      expect(versionFromPackage(join(dir, "node_modules", ".bin", "codex"), "@openai/codex")).toBe("9.9.9");
      expect(versionFromPackage(join(dir, "node_modules", ".bin", "codex"), "@google/gemini-cli")).toBeNull();
      expect(versionFromPackage(join(dir, "missing"), "@openai/codex")).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Review of issue 13: `PROGRAM --version` ran with the user's own HOME (where
  // ~/.codex/auth.json and ~/.gemini/oauth_creds.json live), though the comment
  // said a throwaway environment.
  test("a program outside npm is asked --version in a throwaway HOME, never the user's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-versions-"));
    try {
      const program = join(dir, "codex");
      const seen = join(dir, "home-seen");
      writeFileSync(program, `#!/bin/sh\nprintf '%s' "$HOME" > '${seen}'\ntouch "$HOME/was-here"\necho "codex-cli 0.171.0"\n`);
      chmodSync(program, 0o755);
      const v = await installedVersion("codex", program, { PATH: "/usr/bin:/bin" });
      expect(v).toEqual({ version: "0.171.0", source: "--version" });
      const home = readFileSync(seen, "utf8");
      expect(home).not.toBe(process.env.HOME ?? "");
      expect(home.startsWith(join(tmpdir(), "vouch-version-"))).toBe(true);
      expect(existsSync(home)).toBe(false); // removed after the answer
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the distance from the tested version (vouch doctor, issue 28 item 6)", () => {
  test.each([
    ["0.171.0", "0.171.0", { direction: "same" }, ""],
    ["0.172.0", "0.171.0", { direction: "newer", part: "minor", by: 1 }, "1 minor version newer"],
    ["0.171.3", "0.171.0", { direction: "newer", part: "patch", by: 3 }, "3 patch versions newer"],
    ["2.1.332", "3.0.0", { direction: "older", part: "major", by: 1 }, "1 major version older"],
    // The first part that differs decides: 1.9.9 is one minor older than 1.10.0, not "newer by patch".
    ["1.9.9", "1.10.0", { direction: "older", part: "minor", by: 1 }, "1 minor version older"],
    ["0.61.0-nightly.2", "0.61.0", { direction: "older", part: "prerelease", by: 1 }, "another prerelease, older"],
    ["0.61.0", "0.61.0-preview.1", { direction: "newer", part: "prerelease", by: 1 }, "another prerelease, newer"],
  ] as const)("%s against %s", (installed, tested, distance, words) => {
    const d = versionDistance(installed, tested);
    expect(d).toEqual(distance);
    expect(describeDistance(d!)).toBe(words);
  });

  test("no plain version: no distance", () => {
    for (const v of ["", "latest", "1.2", "v1.2.3", "1.2.3.4", "01.2.3x", `${"9".repeat(20)}.0.0`])
      expect(versionDistance(v, "1.2.3")).toBeNull();
  });
});
