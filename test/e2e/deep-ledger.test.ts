// A ledger that already holds a value nested far deeper than MAX_JSON_DEPTH
// (issue 12 item 6, "a readable ledger"). vouch before the bound wrote any
// output it could stringify: 30,000 levels stringify fine, so such ledgers
// exist. Found in review: `vouch show RUN --json` on one printed "internal
// error" (stack / out of memory) instead of the run. Here the stored output of
// a finished run is replaced by such a value, as the older vouch stored it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, STACK_LINE, tempDir, vouch, type Ran, type TempDir } from "./helpers.ts";

const OLD_DEPTH = 30_000;
const deep = "[".repeat(OLD_DEPTH) + "]".repeat(OLD_DEPTH);
const TOO_DEEP = "nested deeper than 256 levels";

let dir: TempDir;
let home: string;
beforeAll(async () => {
  ensureBinary();
  dir = tempDir("deep-ledger");
  home = join(dir.path, "home");
  const g = join(dir.path, "g.yaml");
  writeFileSync(
    g,
    `version: 1\nname: g\nnodes:\n  a:\n    kind: script\n    argv: [printf, '{"k": 1}']\n    output: { format: json }\n  done:\n    kind: end\n    needs: [a]\n    output: "{{ nodes.a.output }}"\n`,
  );
  expect((await vouch(["run", g, "--plain"], { home })).code).toBe(0);
  plantDeepOutputs(join(home, "ledger.sqlite"));
});
afterAll(() => dir.cleanup());

/** Every stored `{"k":1}` becomes the deep value: node results, sessions and event bodies alike. */
function plantDeepOutputs(file: string): void {
  const db = new Database(file);
  const trigger = (db.query("SELECT sql FROM sqlite_master WHERE name = 'events_no_update'").get() as { sql: string }).sql;
  db.run("DROP TRIGGER events_no_update");
  db.run("UPDATE node_results SET output = ?1 WHERE output IS NOT NULL", [deep]);
  db.run("UPDATE sessions SET output = ?1 WHERE output IS NOT NULL", [deep]);
  db.run(`UPDATE events SET body = replace(body, '"output":{"k":1}', '"output":' || ?1)`, [deep]);
  db.run(trigger);
  db.close();
}

function clean(r: Ran): void {
  expect(r.stderr + r.stdout).not.toMatch(/internal error/);
  expect(r.stderr).not.toMatch(STACK_LINE);
}

describe("a ledger holding JSON nested 30,000 levels (written before the bound)", () => {
  test("show --json prints the run, the deep value cut at the bound and marked", async () => {
    const r = await vouch(["show", "last", "--json"], { home });
    clean(r);
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as { run: { output: unknown } };
    expect(JSON.stringify(shown.run.output)).toContain(TOO_DEEP);
  });

  test("show, runs --json and every report format read it", async () => {
    for (const args of [
      ["show", "last"],
      ["runs", "--json"],
      ...["html", "junit", "markdown"].map((f) => ["report", "last", "--format", f, "-o", join(dir.path, `r.${f}`)]),
    ]) {
      const r = await vouch(args, { home });
      clean(r);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
    }
  });
});
