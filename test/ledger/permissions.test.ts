// The ledger holds inputs, outputs and model answers: through dist/vouch, its
// folder is created 0700 and its database files (ledger.sqlite, -wal, -shm)
// 0600 whatever the umask, and an older, looser ledger is tightened once, with
// a notice (docs/ledger.md, "Permissions").
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { BINARY, ensureBinary } from "../graph/binary.ts";
import { tempProject, vouchEnv, type Project } from "../resume/vouch-process.ts";

let p: Project;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => (p = tempProject("vouch-perms-")));
afterEach(() => p.cleanup());

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, "0");

/** dist/vouch under `umask`, so nothing but vouch itself decides the modes. */
async function vouchUnder(umask: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const proc = Bun.spawn(["sh", "-c", `umask ${umask} && exec "$0" "$@"`, BINARY, ...args], {
    cwd: p.dir,
    env: vouchEnv(p),
    stdout: "ignore",
    stderr: "pipe",
  });
  const stderr = await new Response(proc.stderr).text();
  return { code: await proc.exited, stderr };
}

// The script runs while vouch holds the ledger open, so -wal and -shm exist: it
// writes their modes (and the folder's) to a file the test reads afterwards.
function writeGraph(): void {
  const home = p.home;
  const files = [home, join(home, "ledger.sqlite"), join(home, "ledger.sqlite-wal"), join(home, "ledger.sqlite-shm"), join(home, "locks")];
  p.write("modes.sh", `stat -c '%a %n' ${files.map((f) => `'${f}'`).join(" ")} > modes.txt\n`);
  p.write("graph.yaml", "version: 1\nname: modes\nnodes:\n  look: { kind: script, argv: [sh, ./modes.sh] }\n");
}

const seenModes = () =>
  readFileSync(join(p.dir, "modes.txt"), "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(" ")[0]!.padStart(4, "0"));

test.each(["000", "022", "077"])(
  "umask %s: the ledger folder is 0700 and ledger.sqlite, -wal and -shm are 0600 while a run writes them",
  async (umask) => {
    writeGraph();
    const r = await vouchUnder(umask, ["run", "graph.yaml", "--plain"]);
    expect(r.code, r.stderr).toBe(0);
    // folder, ledger.sqlite, -wal, -shm, locks/
    expect(seenModes()).toEqual(["0700", "0600", "0600", "0600", "0700"]);
    expect(mode(p.home)).toBe("0700");
    expect(mode(join(p.home, "ledger.sqlite"))).toBe("0600");
    expect(r.stderr).toBe("");
  },
);

test("a ledger folder made by an older vouch (0755, files 0644) is tightened at the next run, with one notice", async () => {
  writeGraph();
  mkdirSync(p.home, { mode: 0o755 });
  chmodSync(p.home, 0o755);
  expect((await vouchUnder("022", ["run", "graph.yaml", "--plain"])).code).toBe(0);
  chmodSync(p.home, 0o755);
  chmodSync(join(p.home, "ledger.sqlite"), 0o644);
  const r = await vouchUnder("022", ["run", "graph.yaml", "--plain"]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain(
    `vouch: tightened the ledger's permissions (it holds inputs, outputs and model answers): ${p.home} 0755 → 0700, ` +
      // SQLite made -wal and -shm with the file's mode while vouch checked it was a ledger.
      `${join(p.home, "ledger.sqlite")} 0644 → 0600, ${join(p.home, "ledger.sqlite-wal")} 0644 → 0600, ${join(p.home, "ledger.sqlite-shm")} 0644 → 0600\n`,
  );
  expect(seenModes()).toEqual(["0700", "0600", "0600", "0600", "0700"]);
  // Once: the next run finds nothing to tighten and says nothing.
  const again = await vouchUnder("022", ["run", "graph.yaml", "--plain"]);
  expect([again.code, again.stderr]).toEqual([0, ""]);
});

test("reading commands change no permission", async () => {
  writeGraph();
  expect((await vouchUnder("022", ["run", "graph.yaml", "--plain"])).code).toBe(0);
  chmodSync(p.home, 0o750);
  const r = await vouchUnder("022", ["runs"]);
  expect([r.code, r.stderr]).toEqual([0, ""]);
  expect(mode(p.home)).toBe("0750");
  expect(existsSync(join(p.home, "ledger.sqlite-wal"))).toBe(false);
});

// Tightening takes group and other bits away and adds none: a ledger its owner
// made read-only (chmod a-w) stays read-only for the owner too.
test("a ledger its owner made read-only is not made writable by the tightening", async () => {
  writeGraph();
  expect((await vouchUnder("022", ["run", "graph.yaml", "--plain"])).code).toBe(0);
  chmodSync(join(p.home, "ledger.sqlite"), 0o444);
  chmodSync(p.home, 0o555);
  try {
    await vouchUnder("022", ["run", "graph.yaml", "--plain"]);
    expect(mode(p.home)).toBe("0500");
    expect(mode(join(p.home, "ledger.sqlite"))).toBe("0400");
  } finally {
    chmodSync(p.home, 0o700); // so the cleanup can remove it
  }
});

// What a symbolic link in the ledger folder points at is not the ledger's:
// its permissions are not changed through the link.
test("no permission is changed through a symbolic link in the ledger folder", async () => {
  writeGraph();
  mkdirSync(p.home, { mode: 0o700 });
  const victim = join(p.dir, "victim.txt");
  p.write("victim.txt", "someone else's\n");
  chmodSync(victim, 0o644);
  symlinkSync(victim, join(p.home, "ledger.sqlite-shm"));
  await vouchUnder("022", ["run", "graph.yaml", "--plain"]);
  expect(mode(victim)).toBe("0644");
});

// A file vouch refuses (another program's SQLite database) is left as it was.
test("a foreign ledger.sqlite that vouch refuses keeps its permissions", async () => {
  writeGraph();
  mkdirSync(p.home, { mode: 0o700 });
  const file = join(p.home, "ledger.sqlite");
  const db = new Database(file, { create: true });
  db.run("CREATE TABLE other (x)");
  db.close();
  chmodSync(file, 0o644);
  const r = await vouchUnder("022", ["run", "graph.yaml", "--plain"]);
  expect(r.code, r.stderr).toBe(3);
  expect(r.stderr).toContain("is not a vouch ledger");
  expect(mode(file)).toBe("0644");
});
