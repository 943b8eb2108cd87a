// readLimited: regular files only, never more than the limit, even when the
// size fstat reports is wrong (a /proc file says 0); parseByteSize and fileLimits.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { InputError, UsageError } from "../../src/engine/errors.ts";
import { DEFAULT_MAX_GRAPH_BYTES, DEFAULT_MAX_INPUT_BYTES, fileLimits, parseByteSize, readLimited } from "../../src/spawn/read-limited.ts";

const opts = (maxBytes: number) => ({ what: "the file", maxBytes, raise: "raise it" });

describe("readLimited", () => {
  test("a file whose reported size is 0 is still cut at the limit (the read stops one byte past it)", () => {
    // /proc/self/status is a regular file of reported size 0 and about 1 KiB of text.
    expect(new TextDecoder().decode(readLimited("/proc/self/status", opts(1 << 20)))).toMatch(/^Name:/);
    expect(() => readLimited("/proc/self/status", opts(16))).toThrow(new InputError("the file is over the limit of 16 bytes", "raise it"));
  });

  test("devices, directories and missing files are refused by kind", () => {
    expect(() => readLimited("/dev/null", opts(10))).toThrow(/^cannot read the file: it is a character device, not a regular file$/);
    expect(() => readLimited("/", opts(10))).toThrow(/^cannot read the file: it is a directory, not a regular file$/);
    expect(() => readLimited("/no/such/file", opts(10))).toThrow(/^cannot read the file: no such file$/);
  });

  test("a socket is refused by kind, not with the system's ENXIO text", async () => {
    // Opening a Unix socket fails (ENXIO) before fstat can say what it is.
    const dir = mkdtempSync(join(tmpdir(), "vouch-sock-"));
    const path = join(dir, "s.sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      expect(() => readLimited(path, opts(10))).toThrow(/^cannot read the file: it is a socket, not a regular file$/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sizes", () => {
  test("parseByteSize takes bytes and binary units, nothing else", () => {
    expect(parseByteSize("500")).toBe(500);
    expect(parseByteSize("4k")).toBe(4096);
    expect(parseByteSize("64MiB")).toBe(64 * 2 ** 20);
    expect(parseByteSize("1 GiB")).toBe(2 ** 30);
    for (const bad of ["", "0", "-1", "1.5M", "10 MB of it", "1e9", "99999999999999999999"])
      expect(parseByteSize(bad), bad).toBeUndefined();
  });

  test("fileLimits: documented defaults, raised by the environment, a bad value is a usage error", () => {
    expect(fileLimits({})).toEqual({ graphBytes: DEFAULT_MAX_GRAPH_BYTES, inputBytes: DEFAULT_MAX_INPUT_BYTES });
    expect(DEFAULT_MAX_GRAPH_BYTES).toBe(4 * 2 ** 20);
    expect(DEFAULT_MAX_INPUT_BYTES).toBe(64 * 2 ** 20);
    expect(fileLimits({ VOUCH_MAX_GRAPH_BYTES: "20MiB", VOUCH_MAX_INPUT_BYTES: "1g" })).toEqual({
      graphBytes: 20 * 2 ** 20,
      inputBytes: 2 ** 30,
    });
    expect(() => fileLimits({ VOUCH_MAX_INPUT_BYTES: "huge" })).toThrow(UsageError);
  });
});
