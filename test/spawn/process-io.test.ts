// runProcess input and output with real processes: exit status, tails, byte
// counts, stdin, live line callbacks, and clear errors for what cannot start.
import { afterAll, describe, expect, test } from "vitest";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "../../src/spawn/process.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { stub, tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());
const opts = { cwd: dir.path, env: TEST_ENV };

describe("exit status and output", () => {
  test("exit code, both tails and byte counts of a failing command", async () => {
    const r = await runProcess({ argv: [stub("fail-with-output.sh"), "3"] }, opts);
    expect(r).toMatchObject({
      exit: 3,
      signal: null,
      terminationReason: "exit",
      stdoutTail: "out: something went wrong\n",
      stderrTail: "err: details on stderr\n",
      stdoutBytes: 26,
      stderrBytes: 23,
      truncated: false,
    });
    expect(r.spawnError).toBeUndefined();
  });

  test("runs in the given directory with exactly the given environment", async () => {
    const r = await runProcess(
      { shell: 'pwd; echo "[$ONLY_THIS]"; env | wc -l' },
      { cwd: dir.path, env: { PATH: "/usr/bin:/bin", ONLY_THIS: "x" } },
    );
    const [pwd, only, count] = r.stdoutTail.trim().split("\n");
    expect(pwd).toBe(dir.path);
    expect(only).toBe("[x]");
    // PATH, ONLY_THIS and what sh itself sets (PWD, maybe SHLVL, OLDPWD, _): nothing from the parent.
    expect(Number(count)).toBeLessThanOrEqual(6);
  });

  test("keepBytes bounds each tail; byte counts stay exact; truncated is flagged", async () => {
    const r = await runProcess({ shell: "printf '%s' 0123456789abcdef; printf '%s' ABCDEFGHIJ >&2" }, { ...opts, keepBytes: 4 });
    expect(r.stdoutTail).toBe("cdef");
    expect(r.stderrTail).toBe("GHIJ");
    expect(r.stdoutBytes).toBe(16);
    expect(r.stderrBytes).toBe(10);
    expect(r.truncated).toBe(true);
  });

  test("a tail cut inside a UTF-8 character starts at the next whole character", async () => {
    // "é" is 2 bytes, "€" 3: keeping 4 bytes of "é€x" cuts into the é.
    const r = await runProcess({ shell: "printf 'é€x'" }, { ...opts, keepBytes: 4 });
    expect(r.stdoutTail).toBe("€x");
    expect(r.stdoutBytes).toBe(6);
  });

  test("invalid UTF-8 decodes to U+FFFD instead of failing", async () => {
    const r = await runProcess({ shell: "printf '\\377\\376ok'" }, opts);
    expect(r.stdoutTail).toBe("\uFFFD\uFFFDok");
    expect(r.stdoutBytes).toBe(4);
  });

  test("the group is registered while it runs and unregistered after", async () => {
    let seen: number[] = [];
    const supervisor = new ProcessSupervisor();
    const r = await runProcess(
      { shell: "echo x; sleep 0.3" },
      { ...opts, supervisor, onStdoutLine: () => (seen = supervisor.liveGroups()) },
    );
    expect(seen).toContain(r.pid);
    expect(supervisor.liveGroups()).not.toContain(r.pid);
  });
});

describe("stdin", () => {
  test("a given text is written to stdin, then stdin is closed", async () => {
    const r = await runProcess({ argv: ["cat"] }, { ...opts, stdin: "line one\nline two", wallMs: 10_000 });
    expect(r.terminationReason).toBe("exit");
    expect(r.stdoutTail).toBe("line one\nline two");
  });

  test("without stdin text the child reads end-of-file at once (no hang)", async () => {
    const r = await runProcess({ argv: ["cat"] }, { ...opts, wallMs: 10_000 });
    expect(r.terminationReason).toBe("exit");
    expect(r.stdoutBytes).toBe(0);
  });

  test("a child that never reads a large stdin neither hangs nor throws", async () => {
    const r = await runProcess({ shell: "exit 4" }, { ...opts, stdin: "x".repeat(5_000_000), wallMs: 10_000 });
    expect(r.terminationReason).toBe("exit");
    expect(r.exit).toBe(4);
  });
});

describe("live lines", () => {
  test("lines arrive in order as they are printed, a final partial line included, with cut=false", async () => {
    const lines: [string, boolean][] = [];
    const errs: string[] = [];
    const r = await runProcess(
      { shell: "echo one; sleep 0.05; echo two; echo oops >&2; printf 'three'" },
      { ...opts, onStdoutLine: (l, cut) => lines.push([l, cut]), onStderrLine: (l) => errs.push(l) },
    );
    expect(r.exit).toBe(0);
    expect(lines).toEqual([
      ["one", false],
      ["two", false],
      ["three", false],
    ]);
    expect(errs).toEqual(["oops"]);
  });

  test("multibyte characters split across writes arrive whole", async () => {
    const lines: string[] = [];
    // € = e2 82 ac, written in two pieces with a pause between them.
    await runProcess({ shell: "printf '\\342\\202'; sleep 0.1; printf '\\254 ok\\n'" }, { ...opts, onStdoutLine: (l) => lines.push(l) });
    expect(lines).toEqual(["€ ok"]);
  });

  test("a line longer than maxLineLength arrives cut, flagged, and the next line is intact", async () => {
    const lines: [string, boolean][] = [];
    await runProcess(
      { shell: "head -c 100000 /dev/zero | tr '\\0' a; echo; echo next" },
      { ...opts, maxLineLength: 1000, onStdoutLine: (l, c) => lines.push([l, c]) },
    );
    expect(lines).toEqual([
      ["a".repeat(1000), true],
      ["next", false],
    ]);
  });

  test("a throwing callback stops the group and surfaces once the group is dead", async () => {
    const boom = new Error("callback bug");
    const t0 = performance.now();
    const supervisor = new ProcessSupervisor();
    await expect(
      runProcess(
        { shell: "echo x; sleep 30" },
        {
          ...opts,
          supervisor,
          onStdoutLine: () => {
            throw boom;
          },
        },
      ),
    ).rejects.toBe(boom);
    expect(performance.now() - t0).toBeLessThan(10_000); // not the 30 s sleep
    expect(supervisor.liveGroups()).toEqual([]);
  });
});

describe("what cannot start is a clear result, not a throw", () => {
  test("a missing binary names itself and the PATH searched", async () => {
    const r = await runProcess({ argv: ["no-such-tool-xyz", "--flag"] }, { ...opts, env: { PATH: "/usr/bin:/bin" } });
    expect(r.terminationReason).toBe("spawn_failed");
    expect(r.spawnError).toBe("command not found: no-such-tool-xyz (searched PATH=/usr/bin:/bin)");
    expect(r.exit).toBeNull();
    expect(r.spawnError).not.toMatch(/\n\s+at /); // no stack
  });

  test("the binary is looked up in the child's PATH, not vouch's", async () => {
    const r = await runProcess({ argv: ["sh", "-c", "true"] }, { ...opts, env: {} });
    expect(r.terminationReason).toBe("spawn_failed");
    expect(r.spawnError).toBe("command not found: sh (searched PATH=(empty))");
  });

  test("a missing working directory is named, checked before spawning", async () => {
    const missing = join(dir.path, "nope", "deeper");
    const r = await runProcess({ argv: ["true"] }, { ...opts, cwd: missing });
    expect(r.terminationReason).toBe("spawn_failed");
    expect(r.spawnError).toBe(`working directory ${missing} does not exist`);
    expect(r.pid).toBeUndefined();
  });

  test("a working directory that is a file is named as such", async () => {
    const file = join(dir.path, "a-file");
    writeFileSync(file, "");
    const r = await runProcess({ shell: "true" }, { ...opts, cwd: file });
    expect(r.spawnError).toBe(`working directory ${file} is not a directory`);
  });

  test("a path to a file that is not executable is refused with the path", async () => {
    const file = join(dir.path, "script.sh");
    writeFileSync(file, "#!/bin/sh\necho hi\n");
    chmodSync(file, 0o644);
    const r = await runProcess({ argv: ["./script.sh"] }, opts);
    expect(r.terminationReason).toBe("spawn_failed");
    expect(r.spawnError).toBe(`command not found: ./script.sh (${file} is missing or not executable)`);
  });

  test("an executable file without a #! line is named as such", async () => {
    const file = join(dir.path, "no-shebang");
    writeFileSync(file, "echo hi\n");
    chmodSync(file, 0o755);
    const r = await runProcess({ argv: [file] }, opts);
    expect(r.terminationReason).toBe("spawn_failed");
    expect(r.spawnError).toBe(`could not start ${file}: not an executable format (a script needs a #! line)`);
  });

  test("an empty argv is refused", async () => {
    const r = await runProcess({ argv: [] }, opts);
    expect(r.spawnError).toBe("empty command: argv has no program");
  });
});
