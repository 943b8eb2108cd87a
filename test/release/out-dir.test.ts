// `npm run release -- --out DIR` empties DIR first: only a folder that is new or
// holds nothing but an earlier (or failed) release's files; any other is refused
// before anything in it is removed (`--out ~` must not empty the home folder).
import { afterAll, expect, test } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clearOut } from "../../scripts/release.ts";
import { ReleaseError } from "../../scripts/release/release-error.ts";

const dir = mkdtempSync(join(tmpdir(), "vouch-release-out-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a folder that holds other files is refused and left as it was", async () => {
  const other = join(dir, "other");
  mkdirSync(other);
  writeFileSync(join(other, "notes.txt"), "mine\n");
  await expect(clearOut(other)).rejects.toBeInstanceOf(ReleaseError);
  expect(existsSync(join(other, "notes.txt"))).toBe(true);
});

test("a new folder and an earlier or failed release's are made empty", async () => {
  const fresh = join(dir, "fresh");
  await clearOut(fresh);
  expect(existsSync(fresh)).toBe(true);
  const earlier = join(dir, "earlier");
  mkdirSync(earlier);
  writeFileSync(join(earlier, "SHA256SUMS"), "");
  writeFileSync(join(earlier, "vouch-0.1.0-linux-x64.tar.gz"), "");
  await clearOut(earlier);
  expect(existsSync(join(earlier, "vouch-0.1.0-linux-x64.tar.gz"))).toBe(false);
  expect(existsSync(earlier)).toBe(true);
  const failed = join(dir, "failed");
  mkdirSync(failed);
  writeFileSync(join(failed, "vouch-cli-linux-x64-0.1.0.tgz"), "");
  await clearOut(failed);
  expect(existsSync(join(failed, "vouch-cli-linux-x64-0.1.0.tgz"))).toBe(false);
});
