// The version compiled into the binary by build.ts (from package.json), and the
// commit a release build (`npm run release`, ADR 0027) stamps in beside it.
declare const VOUCH_VERSION: string | undefined;
declare const VOUCH_COMMIT: string | undefined;
export const version: string = typeof VOUCH_VERSION === "string" ? VOUCH_VERSION : "0.0.0-dev";
export const commit: string | undefined = typeof VOUCH_COMMIT === "string" ? VOUCH_COMMIT : undefined;

/** What `vouch --version` prints: `vouch 0.1.0`, or `vouch 0.1.0 (commit 1a2b3c4d5e6f)` from a release build. */
export function versionLine(): string {
  return commit ? `vouch ${version} (commit ${commit})` : `vouch ${version}`;
}
