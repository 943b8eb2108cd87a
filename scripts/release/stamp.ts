// The version and commit a release stamps into `vouch --version`: the version
// from package.json, the commit from git (12 hex digits, "-dirty" when tracked
// files differ from it, so a binary never claims a commit it was not built from).
import { ReleaseError } from "./release-error.ts";

function git(args: string[], cwd: string): { code: number; out: string } {
  const r = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode ?? -1, out: r.stdout.toString().trim() };
}

export function commitOf(root: string): string {
  const head = git(["rev-parse", "--short=12", "HEAD"], root);
  if (head.code !== 0 || !/^[0-9a-f]{12}$/.test(head.out)) {
    throw new ReleaseError(
      `${root} is not a git checkout with a commit: a release stamps the commit into vouch --version`,
      "run npm run release in a clone of the repository",
    );
  }
  const dirty = git(["diff", "--quiet", "HEAD", "--"], root).code !== 0;
  return dirty ? `${head.out}-dirty` : head.out;
}

/** A release version must be one npm accepts and a tag can carry: x.y.z with an optional -pre part. */
export function checkVersion(version: string): string {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    throw new ReleaseError(`package.json's version "${version}" is not x.y.z (or x.y.z-pre)`, "set a release version in package.json");
  }
  return version;
}
