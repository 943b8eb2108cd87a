// `npm run release` for real (every target compiled, archived, packed; ADR 0027),
// then what a user does with its files: checks SHA256SUMS with sha256sum -c,
// unpacks an archive, and installs the wrapper and the linux-x64 package from
// their tarballs with npm, offline, into an empty prefix with no Bun on PATH,
// and runs vouch through the installed command. The arm64 and darwin binaries
// cannot run here: `file` checks their format.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, SAMPLE_REPO } from "../e2e/helpers.ts";
import platforms from "../../npm/platforms.json";
import { installGlobal, runRelease, sh, VERSION, type Prefix } from "./helpers.ts";
import { describeLauncherMessages, describeSignals } from "./launcher-cases.ts";

const KEYS = Object.keys(platforms.targets);
const FILE = Bun.which("file");
let out: string;
let commit: string;

const archive = (key: string) => join(out, `vouch-${VERSION}-${key}.tar.gz`);
const platformPack = (key: string) => join(out, `vouch-cli-${key}-${VERSION}.tgz`);
const wrapperPack = () => join(out, `vouch-cli-${VERSION}.tgz`);
const manifests = new Map<string, Record<string, unknown>>();
/** package/package.json of a packed package (read once: each read unpacks up to 110 MB). */
function manifestIn(tgz: string): Record<string, unknown> {
  if (!manifests.has(tgz)) manifests.set(tgz, JSON.parse(sh(["tar", "-xzOf", tgz, "package/package.json"]).out));
  return manifests.get(tgz)!;
}

const LC_CODE_SIGNATURE = 0x1d;
/** The load command types of a 64-bit little-endian Mach-O header (empty for anything else). */
function machLoadCommands(bytes: Buffer): number[] {
  if (bytes.length < 32 || bytes.readUInt32LE(0) !== 0xfeedfacf) return [];
  const commands: number[] = [];
  let at = 32;
  for (let i = 0; i < bytes.readUInt32LE(16) && at + 8 <= bytes.length; i++) {
    commands.push(bytes.readUInt32LE(at));
    at += bytes.readUInt32LE(at + 4);
  }
  return commands;
}

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "vouch-release-out-"));
  const head = sh(["git", "rev-parse", "--short=12", "HEAD"]).out.trim();
  const r = runRelease(out);
  // The commit the release stamped: HEAD's, "-dirty" when tracked files differed from it while it ran.
  commit = /^release: vouch \S+ \(commit (\S+)\)/m.exec(r.err)?.[1] ?? "";
  expect(commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
  expect(r.code).toBe(0);
  console.log(`[release] npm run release (${KEYS.length} targets, archives, npm packs, SHA256SUMS) took ${r.seconds.toFixed(1)} s`);
}, 900_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

// Each unpacking reads up to 110 MB: slow on a loaded machine, hence the long timeouts.
describe("npm run release", { timeout: 180_000 }, () => {
  test("writes an archive per target, the wrapper, a platform package per target, and SHA256SUMS", () => {
    const expected = [
      ...KEYS.map((k) => `vouch-${VERSION}-${k}.tar.gz`),
      ...KEYS.map((k) => `vouch-cli-${k}-${VERSION}.tgz`),
      `vouch-cli-${VERSION}.tgz`,
      "SHA256SUMS",
    ];
    expect(readdirSync(out).sort()).toEqual(expected.sort());
    expect(KEYS).toEqual(["linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64"]);
  });

  test("sha256sum -c accepts SHA256SUMS, which names every other file; a changed byte is caught", () => {
    const check = sh(["sha256sum", "-c", "SHA256SUMS"], { cwd: out });
    expect(check.err).toBe("");
    expect(check.code).toBe(0);
    const listed = check.out.trim().split("\n");
    expect(listed).toHaveLength(readdirSync(out).length - 1);
    for (const line of listed) expect(line).toMatch(/: OK$/);
    // A copy of the small wrapper package with one byte changed no longer matches.
    const bad = mkdtempSync(join(tmpdir(), "vouch-sums-"));
    try {
      cpSync(join(out, "SHA256SUMS"), join(bad, "SHA256SUMS"));
      const bytes = readFileSync(wrapperPack());
      bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
      writeFileSync(join(bad, `vouch-cli-${VERSION}.tgz`), bytes);
      const tampered = sh(["sha256sum", "-c", "--ignore-missing", "SHA256SUMS"], { cwd: bad });
      expect(tampered.code).toBe(1);
      expect(tampered.out).toContain(`vouch-cli-${VERSION}.tgz: FAILED`);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  test("each archive unpacks into one folder, vouch-<version>-<target>/, holding the executable vouch", () => {
    for (const key of KEYS) {
      const listing = sh(["tar", "-tvzf", archive(key)])
        .out.trim()
        .split("\n");
      const dir = `vouch-${VERSION}-${key}`;
      expect(listing.map((l) => l.split(/\s+/).at(-1))).toEqual([`${dir}/`, `${dir}/vouch`]);
      expect(listing[1]).toMatch(/^-rwxr-xr-x /);
    }
  });

  // Without `file` (.ci/run installs it) this is reported as skipped, not passed.
  test.skipIf(!FILE)("file names each binary's format: ELF x86-64 and aarch64, Mach-O arm64 and x86_64 (needs file)", () => {
    const expected: Record<string, RegExp> = {
      "linux-x64": /^ELF 64-bit LSB executable, x86-64\b/,
      "linux-arm64": /^ELF 64-bit LSB executable, ARM aarch64\b/,
      "darwin-arm64": /^Mach-O 64-bit arm64 executable\b/,
      "darwin-x64": /^Mach-O 64-bit x86_64 executable\b/,
    };
    for (const key of KEYS) {
      // The header is enough for file: the first 64 KiB of the unpacked binary, not 110 MB on disk.
      const kind = (path: string) =>
        sh([
          "sh",
          "-c",
          `tar -xzOf '${path}' ${path.endsWith(".tar.gz") ? `vouch-${VERSION}-${key}/vouch` : "package/bin/vouch"} | head -c 65536 | file -b -`,
        ]).out;
      expect(kind(archive(key))).toMatch(expected[key]!);
      expect(kind(platformPack(key))).toMatch(expected[key]!);
    }
  });

  test("the darwin binaries carry a code signature (Apple Silicon starts no unsigned binary)", () => {
    for (const key of ["darwin-arm64", "darwin-x64"]) {
      const head = Bun.spawnSync(["sh", "-c", `tar -xzOf '${archive(key)}' vouch-${VERSION}-${key}/vouch | head -c 65536`], {
        stdout: "pipe",
      }).stdout;
      expect(machLoadCommands(head)).toContain(LC_CODE_SIGNATURE);
    }
    // The reader can say no: a Linux binary is no Mach-O.
    const elf = Bun.spawnSync(["sh", "-c", `tar -xzOf '${archive("linux-x64")}' vouch-${VERSION}-linux-x64/vouch | head -c 65536`], {
      stdout: "pipe",
    }).stdout;
    expect(machLoadCommands(elf)).toEqual([]);
  });

  test("the linux-x64 archive's binary says the version and the commit it was built from", () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-unpacked-"));
    try {
      expect(sh(["tar", "-xzf", archive("linux-x64"), "-C", dir]).code).toBe(0);
      const r = sh([join(dir, `vouch-${VERSION}-linux-x64`, "vouch"), "--version"], { env: { PATH: "/usr/bin:/bin" } });
      expect(r).toMatchObject({ code: 0, out: `vouch ${VERSION} (commit ${commit})\n` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the README's archive commands, run on the release's files: the checksum line passes, a wrong file fails", () => {
    const block = /```sh\n(version=[\s\S]*?)```/.exec(readFileSync(join(ROOT, "README.md"), "utf8"))![1]!;
    // The install line needs root and a system folder: everything before it, with this release's version.
    const script = block
      .split("\n")
      .filter((l) => !l.startsWith("sudo "))
      .join("\n")
      .replace(/^version=\S+/m, `version=${VERSION}`);
    const dir = mkdtempSync(join(tmpdir(), "vouch-readme-install-"));
    try {
      cpSync(join(out, "SHA256SUMS"), join(dir, "SHA256SUMS"));
      cpSync(archive("linux-x64"), join(dir, `vouch-${VERSION}-linux-x64.tar.gz`));
      const r = sh(["sh", "-euc", `${script}\n./vouch-$version-$target/vouch --version`], { cwd: dir, env: { PATH: "/usr/bin:/bin" } });
      expect(r.err).toBe("");
      expect(r.out).toBe(`vouch-${VERSION}-linux-x64.tar.gz: OK\nvouch ${VERSION} (commit ${commit})\n`);
      writeFileSync(join(dir, `vouch-${VERSION}-linux-x64.tar.gz`), "not the archive");
      expect(sh(["sh", "-euc", script], { cwd: dir, env: { PATH: "/usr/bin:/bin" } }).code).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the packed manifests: os, cpu and libc per target; the wrapper names each at its own version; no install scripts", () => {
    for (const [key, t] of Object.entries(platforms.targets)) {
      const m = manifestIn(platformPack(key));
      expect(m).toMatchObject({ name: `@vouch-cli/${key}`, version: VERSION, os: [t.os], cpu: [t.cpu] });
      expect(m.libc).toEqual("libc" in t ? [t.libc] : undefined);
      expect(m.bin).toBeUndefined(); // the wrapper's launcher is the only `vouch` on PATH
      expect(
        sh(["tar", "-tzf", platformPack(key)])
          .out.trim()
          .split("\n")
          .sort(),
      ).toEqual(["package/README.md", "package/bin/vouch", "package/package.json"]);
    }
    const wrapper = manifestIn(wrapperPack());
    expect(wrapper).toMatchObject({ name: "vouch-cli", version: VERSION, bin: { vouch: "bin/vouch.js" } });
    expect(wrapper.optionalDependencies).toEqual(Object.fromEntries(KEYS.map((k) => [`@vouch-cli/${k}`, VERSION])));
    expect(sh(["tar", "-tzf", wrapperPack()]).out.trim().split("\n").sort()).toEqual([
      "package/README.md",
      "package/bin/vouch.js",
      "package/package.json",
    ]);
    for (const tgz of [wrapperPack(), ...KEYS.map(platformPack)]) expect(manifestIn(tgz).scripts).toBeUndefined();
  });
});

describe("npm install -g of the wrapper and the linux-x64 package from their tarballs, offline, no Bun on PATH", {
  timeout: 120_000,
}, () => {
  let prefix: Prefix;
  let work: string;
  const vouch = (args: string[], env: Record<string, string> = {}) => sh(["vouch", ...args], { cwd: work, env: { ...prefix.env, ...env } });

  beforeAll(() => {
    prefix = installGlobal([wrapperPack(), platformPack("linux-x64")]);
    expect(prefix.install.code, prefix.install.err).toBe(0);
    work = mkdtempSync(join(tmpdir(), "vouch-installed-"));
    cpSync(join(ROOT, "graphs"), join(work, "graphs"), { recursive: true });
    cpSync(SAMPLE_REPO, join(work, "sample"), { recursive: true });
  }, 120_000);
  afterAll(() => {
    prefix?.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  test("the PATH has no bun, and `vouch` on it is the installed launcher, run by Node", () => {
    expect(Bun.which("bun", { PATH: prefix.env.PATH })).toBeNull();
    expect(sh(["node", "-p", "typeof Bun"], { env: prefix.env }).out).toBe("undefined\n");
    expect(Bun.which("vouch", { PATH: prefix.env.PATH })).toBe(join(prefix.bin, "vouch"));
  });

  test("vouch --version runs the package's binary: the release's version and commit", () => {
    expect(vouch(["--version"])).toEqual({ code: 0, out: `vouch ${VERSION} (commit ${commit})\n`, err: "" });
  });

  test("the offline demo graph runs through the installed command, as in the README", () => {
    const r = vouch([
      "run",
      "graphs/finding-verifier.yaml",
      "--harness",
      "replay",
      "-i",
      "findings=@sample/REVIEW.md",
      "-i",
      "project_dir=sample",
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("F5  UNVERIFIABLE");
    expect(r.out).toContain("run passed · exit 0");
    expect(vouch(["runs"]).out).toContain("passed");
  });

  test("vouch's exit code comes through the launcher: 2 for a usage error", () => {
    const r = vouch(["nonsense"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('vouch: unknown command "nonsense"');
  });

  test("a binary that is not executable, or of another version, is a message and exit 3", () => {
    const dir = join(prefix.path, "lib", "node_modules", "@vouch-cli", "linux-x64");
    const binary = join(dir, "bin", "vouch");
    chmodSync(binary, 0o644);
    try {
      expect(vouch(["--version"])).toEqual({
        code: 3,
        out: "",
        err: `vouch: ${binary} is not executable (permission denied)\nhint: chmod +x ${binary}, or reinstall the package\n`,
      });
    } finally {
      chmodSync(binary, 0o755);
    }
    const manifest = readFileSync(join(dir, "package.json"), "utf8");
    writeFileSync(join(dir, "package.json"), manifest.replace(`"version": "${VERSION}"`, '"version": "9.9.9"'));
    try {
      const r = vouch(["--version"]);
      expect(r.code).toBe(3);
      expect(r.err).toContain(`vouch: vouch-cli ${VERSION} found @vouch-cli/linux-x64 9.9.9`);
      expect(r.err).toContain(`hint: reinstall: npm i -g vouch-cli@${VERSION}`);
    } finally {
      writeFileSync(join(dir, "package.json"), manifest);
    }
  });

  describeSignals(() => prefix);
});

describeLauncherMessages({ wrapper: wrapperPack, platform: platformPack });
