// The version compiled into the binary by build.ts (from package.json).
declare const VOUCH_VERSION: string | undefined;
export const version: string = typeof VOUCH_VERSION === "string" ? VOUCH_VERSION : "0.0.0-dev";
