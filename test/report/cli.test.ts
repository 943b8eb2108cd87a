// `vouch report` and `--report` through the real binary: the usage errors a
// person makes (exit 2, clear message, nothing half-written), and reports
// written however the run ends: failed, error, paused, interrupted, resumed.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanEnv, E2E_GRAPHS, ensureBinary, STACK_LINE, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { hostileRun } from "./helpers.ts";

let home: TempDir;
beforeEach(() => {
  ensureBinary();
  home = tempDir("report-cli");
});
afterEach(() => home.cleanup());

const GRAPHS = join(import.meta.dirname, "graphs");
const at = (name: string) => join(home.path, name);

describe("vouch report: usage errors", () => {
  test("an unknown run: exit 2, naming the run, with or without a ledger", async () => {
    const none = await vouch(["report", "nope"], { home: home.path });
    expect(none).toMatchObject({ code: 2, stdout: "" });
    expect(none.stderr).toContain('vouch: no run "nope": no runs are recorded in');
    await hostileRun(home.path);
    const r = await vouch(["report", "nope", "--format", "junit"], { home: home.path });
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toContain('no run matches "nope"');
    expect(r.stderr).toContain("hint: see the recorded runs with: vouch runs");
  });

  test("an unknown format, a missing RUN, two RUNs: exit 2 with what to do", async () => {
    await hostileRun(home.path);
    const f = await vouch(["report", "last", "--format", "pdf"], { home: home.path });
    expect(f).toMatchObject({ code: 2, stdout: "" });
    expect(f.stderr).toContain('unknown report format "pdf" (formats: html, junit, markdown, github, sarif, codequality)');
    expect((await vouch(["report"], { home: home.path })).stderr).toContain("report needs a RUN");
    expect((await vouch(["report", "a", "b"], { home: home.path })).stderr).toContain("report takes one RUN (got 2)");
  });

  test("-o to a path that cannot be written: exit 2, nothing on stdout, no stack", async () => {
    await hostileRun(home.path);
    const missing = await vouch(["report", "last", "-o", at("no/such/dir/r.html")], { home: home.path });
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toContain(`-o ${at("no/such/dir/r.html")}: cannot write the report: its folder does not exist`);
    const folder = await vouch(["report", "last", "-o", home.path], { home: home.path });
    expect(folder.stderr).toContain("cannot write the report: it is a folder");
    if (process.getuid?.() !== 0) {
      mkdirSync(at("ro"));
      chmodSync(at("ro"), 0o500);
      expect((await vouch(["report", "last", "-o", at("ro/r.html")], { home: home.path })).stderr).toContain("permission denied");
    }
    for (const r of [missing, folder]) expect(r.stderr).not.toMatch(STACK_LINE);
  });

  test("-o writes the file and says where; the default is HTML on stdout", async () => {
    await hostileRun(home.path);
    const r = await vouch(["report", "last", "-f", "markdown", "-o", at("s.md")], { home: home.path });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr).toBe(`vouch: wrote the markdown report to ${at("s.md")}\n`);
    expect(readFileSync(at("s.md"), "utf8")).toMatch(/^### ❌ vouch: `hostile-report` failed/);
    expect((await vouch(["report", "last"], { home: home.path })).stdout).toMatch(/^<!DOCTYPE html>/);
  });

  test("report --help documents formats and exit codes", async () => {
    const r = await vouch(["report", "--help"], { home: home.path });
    expect(r.stdout).toContain("Usage: vouch report RUN [--format html|junit|markdown|github|sarif|codequality] [-o FILE] [--root DIR]");
    expect(r.stdout).toContain("2 unknown run or format, or FILE cannot be written");
    expect((await vouch(["--help"], { home: home.path })).stdout).toContain("vouch report RUN");
    expect((await vouch(["run", "--help"], { home: home.path })).stdout).toContain("--report FORMAT:FILE");
  });
});

// As show (ADR 0013): a ledger vouch may not write is still read. As root, the
// reader runs without the capabilities that override file permissions.
const SETPRIV = Bun.which("setpriv");
const ROOT_USER = process.getuid?.() === 0;
test.skipIf(ROOT_USER && !SETPRIV)("report reads a ledger whose folder and files are read-only", async () => {
  expect((await vouch(["run", join(E2E_GRAPHS, "scripts-pass.yaml"), "--plain"], { home: home.path })).code).toBe(0);
  const files = ["ledger.sqlite", "ledger.sqlite-wal", "ledger.sqlite-shm"].map(at).filter((f) => existsSync(f));
  for (const f of files) chmodSync(f, 0o400);
  chmodSync(home.path, 0o500);
  try {
    const argv = ROOT_USER ? [SETPRIV!, "--bounding-set=-dac_override,-dac_read_search", BINARY] : [BINARY];
    const p = Bun.spawn([...argv, "report", "last", "--format", "junit"], {
      env: cleanEnv({ home: home.path }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect([code, err]).toEqual([0, ""]);
    expect(out).toContain('<testsuite name="scripts-pass"');
  } finally {
    chmodSync(home.path, 0o700);
    for (const f of files) chmodSync(f, 0o600);
  }
});

describe("vouch run --report FORMAT:FILE", () => {
  test("a bad --report is refused before the run starts (exit 2, no run recorded)", async () => {
    const graph = join(E2E_GRAPHS, "scripts-pass.yaml");
    for (const [arg, msg] of [
      ["pdf:r.pdf", 'unknown report format "pdf"'],
      ["report.html", "give FORMAT:FILE"],
      [`html:${at("missing/r.html")}`, "its folder does not exist"],
    ] as const) {
      const r = await vouch(["run", graph, "--report", arg], { home: home.path });
      expect(r.code, arg).toBe(2);
      expect(r.stderr).toContain(msg);
    }
    expect(existsSync(join(home.path, "ledger.sqlite"))).toBe(false);
  });

  test("two --report to one file are refused before the run (one would overwrite the other)", async () => {
    const graph = join(E2E_GRAPHS, "scripts-pass.yaml");
    const r = await vouch(["run", graph, "--report", `junit:${at("out.xml")}`, "--report", `html:${at("./out.xml")}`], { home: home.path });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--report ${at("out.xml")}: given twice (junit and html)`);
    expect(existsSync(join(home.path, "ledger.sqlite"))).toBe(false);
  });

  test("failed and error runs still write every report, and keep their exit codes", async () => {
    const failed = await hostileRun(home.path, ["--report", `junit:${at("f.xml")}`, "--report", `html:${at("f.html")}`]);
    expect(failed.code).toBe(1);
    expect(readFileSync(at("f.xml"), "utf8")).toContain('<testcase classname="hostile-report" name="each[1].one"');
    expect(readFileSync(at("f.html"), "utf8")).toContain("<svg");
    const error = await vouch(["run", join(E2E_GRAPHS, "scripts-error.yaml"), "--plain", "--report", `markdown:${at("e.md")}`], {
      home: home.path,
    });
    expect(error.code).toBe(3);
    expect(readFileSync(at("e.md"), "utf8")).toContain("vouch: `scripts-error` error (exit 3)");
  }, 30_000);

  test("a report that cannot be written when the run ends: said on stderr, exit 0 becomes 3", async () => {
    mkdirSync(at("gone"));
    const r = await vouch(
      [
        "run",
        join(GRAPHS, "vanish.yaml"),
        "-i",
        `dir=${at("gone")}`,
        "--plain",
        "--report",
        `junit:${at("gone/j.xml")}`,
        "--report",
        `markdown:${at("kept.md")}`,
      ],
      { home: home.path },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`vouch: --report ${at("gone/j.xml")}: cannot write the report: its folder does not exist`);
    expect(readFileSync(at("kept.md"), "utf8")).toContain("`vanish` passed (exit 0)"); // the others are still written
    expect(r.stderr).not.toMatch(STACK_LINE);
  }, 30_000);

  test("VOUCH_LEDGER=off records nothing, so --report says it writes nothing", async () => {
    const r = await vouch(["run", join(E2E_GRAPHS, "scripts-pass.yaml"), "--plain", "--report", `html:${at("off.html")}`], {
      home: home.path,
      env: { VOUCH_LEDGER: "off" },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("VOUCH_LEDGER=off: the run is not recorded, so no --report is written");
    expect(existsSync(at("off.html"))).toBe(false);
  });

  test("a paused run writes its reports; resume --report writes the whole run's", async () => {
    const paused = await vouch(["run", join(GRAPHS, "gate.yaml"), "--plain", "--report", `junit:${at("p.xml")}`], { home: home.path });
    expect(paused.code).toBe(4);
    const p = readFileSync(at("p.xml"), "utf8");
    expect(p).toMatch(/<testcase classname="gate" name="gate"[^>]*><error type="waiting"/);
    const resumed = await vouch(["resume", "last", "--approve", "gate", "--plain", "--report", `markdown:${at("r.md")}`], {
      home: home.path,
    });
    expect(resumed.code).toBe(0);
    const md = readFileSync(at("r.md"), "utf8");
    expect(md).toContain("vouch: `gate` passed (exit 0)");
    expect(md).toMatch(/^\| gate \| ✅ passed \| approved \|/m);
    expect(md).toContain("2 session");
  }, 30_000);

  test("Ctrl-C: the interrupted run (exit 130) writes its reports, the sitting cancelled", async () => {
    const child = Bun.spawn([BINARY, "run", join(GRAPHS, "sleepy.yaml"), "--json", "--report", `junit:${at("i.xml")}`], {
      env: cleanEnv({ home: home.path }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = child.stdout.getReader();
    let seen = "";
    while (!seen.includes('"type":"node.started"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error("vouch ended before the node started");
      seen += new TextDecoder().decode(value);
    }
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    const xml = readFileSync(at("i.xml"), "utf8");
    expect(xml).toContain('<property name="status" value="interrupted"/>');
    expect(xml).toMatch(/<testcase classname="sleepy" name="nap"[^>]*><skipped message="cancelled/);
  }, 30_000);
});
