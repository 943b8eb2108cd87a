// `npm run release` (ADR 0027): builds every target of npm/platforms.json with
// the version and commit stamped into `vouch --version`, and writes into
// dist/release/ (or --out DIR): vouch-<version>-<target>.tar.gz per target, the
// packed npm packages (the wrapper and one per target) and SHA256SUMS over all
// of them. It publishes nothing: .github/workflows/release.yml does, on a tag.
import { copyFile, link, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compile } from "../build.ts";
import pkg from "../package.json";
import { inParallel, npmPack, tarGz, writeSums } from "./release/files.ts";
import { archiveName, platformManifest, TARGETS, wrapperManifest, type Target } from "./release/packages.ts";
import { ReleaseError } from "./release/release-error.ts";
import { checkVersion, commitOf } from "./release/stamp.ts";

const ROOT = resolve(import.meta.dirname, "..");
const LAUNCHER_DIR = join(ROOT, "npm", "vouch-cli");

function outDir(argv: string[]): string {
  const i = argv.indexOf("--out");
  if (i === -1) return join(ROOT, "dist", "release");
  const dir = argv[i + 1];
  if (!dir || dir.startsWith("-")) throw new ReleaseError("--out needs a folder", "npm run release -- --out DIR", 2);
  return resolve(dir);
}

/** What a release writes into its folder: the archives, the packed packages, SHA256SUMS. */
const RELEASE_FILE = /^(SHA256SUMS|vouch-.+\.(tar\.gz|tgz))$/;

/** Empties `dir` for the release, or makes it: only a folder that is new or holds nothing but
 *  an earlier (or failed) release's files; any other is refused before anything is removed. */
export async function clearOut(dir: string): Promise<void> {
  const other = (await readdir(dir).catch(() => [] as string[])).find((f) => !RELEASE_FILE.test(f));
  if (other !== undefined) {
    throw new ReleaseError(
      `${dir} holds ${other}, which no release wrote: a release empties its folder first, so it leaves this one alone`,
      "npm run release -- --out NEW_DIR",
      2,
    );
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A platform package's folder: package.json, a README, bin/vouch (compiled here). */
async function stagePlatform(work: string, t: Target, version: string, commit: string): Promise<string> {
  const dir = join(work, "npm", t.key);
  await mkdir(join(dir, "bin"), { recursive: true });
  const manifest = platformManifest(t, version, pkg.license);
  await writeFile(join(dir, "package.json"), json(manifest));
  await writeFile(
    join(dir, "README.md"),
    `# ${manifest.name}\n\nThe compiled vouch binary for ${t.key}. Install \`vouch-cli\` instead: it depends on this package and runs the binary.\n`,
  );
  console.error(`release: compiling ${t.key} (${t.bun})`);
  await compile(join(dir, "bin", "vouch"), t.bun, commit);
  return dir;
}

async function stageWrapper(work: string, version: string): Promise<string> {
  const dir = join(work, "npm", "wrapper");
  await mkdir(join(dir, "bin"), { recursive: true });
  await writeFile(join(dir, "package.json"), json(wrapperManifest(version, pkg.description, pkg.license)));
  await copyFile(join(LAUNCHER_DIR, "README.md"), join(dir, "README.md"));
  await copyFile(join(LAUNCHER_DIR, "bin", "vouch.js"), join(dir, "bin", "vouch.js"));
  return dir;
}

/** The archive's folder, vouch-<version>-<target>/vouch: a hard link to the package's binary, not a copy. */
async function stageArchive(work: string, platformDir: string, version: string, key: string): Promise<string> {
  const name = archiveName(version, key).replace(/\.tar\.gz$/, "");
  await mkdir(join(work, "archive", name), { recursive: true });
  await link(join(platformDir, "bin", "vouch"), join(work, "archive", name, "vouch"));
  return name;
}

async function release(argv: string[]): Promise<void> {
  const started = performance.now();
  const version = checkVersion(pkg.version);
  const commit = commitOf(ROOT);
  const out = outDir(argv);
  await clearOut(out);
  const work = await mkdtemp(join(tmpdir(), "vouch-release-"));
  try {
    const jobs: (() => Promise<unknown>)[] = [];
    for (const t of TARGETS) {
      const dir = await stagePlatform(work, t, version, commit);
      const name = await stageArchive(work, dir, version, t.key);
      jobs.push(
        () => tarGz(join(out, archiveName(version, t.key)), join(work, "archive"), name),
        () => npmPack(dir, out),
      );
    }
    const wrapper = await stageWrapper(work, version);
    jobs.push(() => npmPack(wrapper, out));
    await inParallel(jobs, availableParallelism());
    const files = await writeSums(out);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.error(`release: vouch ${version} (commit ${commit}) in ${out}: ${files.length} files and SHA256SUMS, in ${seconds} s`);
    for (const f of await readdir(out)) console.log(join(out, f));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  try {
    await release(process.argv.slice(2));
  } catch (e) {
    if (e instanceof ReleaseError) {
      console.error(`release: ${e.message}\nhint: ${e.hint}`);
      process.exit(e.exitCode);
    }
    console.error(`release: ${(e as Error).message}`);
    process.exit(3);
  }
}
