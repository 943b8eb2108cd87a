// docs/architecture.md §7: credentials never pass by default; when the graph (env:) or the
// command line (--pass-env) names one, the child gets it and the ledger records
// the NAME — never the value — through the real binary.
import { afterAll, beforeAll, expect, test } from "vitest";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("env-names");
});
afterAll(() => dir?.cleanup());

const SECRET = "sk-canary-7f3a9c1e";

/** The first node.finished event of a run's NDJSON. */
const nodeFinished = (stdout: string) =>
  stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((e) => e.type === "node.finished");

test("names passed by env: and --pass-env reach the child and the ledger; the values reach the child only", async () => {
  const graph = join(dir.path, "env.yaml");
  writeFileSync(
    graph,
    `version: 1
name: env
nodes:
  named:
    kind: script
    env: [GRAPH_TOKEN]
    run: 'echo "graph=[$GRAPH_TOKEN] cli=[$CLI_TOKEN] unnamed=[$UNNAMED_TOKEN]"'
`,
  );
  const home = join(dir.path, "home");
  const env = { GRAPH_TOKEN: SECRET, CLI_TOKEN: `${SECRET}-cli`, UNNAMED_TOKEN: `${SECRET}-unnamed` };
  const run = await vouch(["run", graph, "--pass-env", "CLI_TOKEN", "--json"], { home, env });
  expect(run.code).toBe(0);
  const finished = nodeFinished(run.stdout);
  expect(finished.output).toBe(`graph=[${SECRET}] cli=[${SECRET}-cli] unnamed=[]\n`);

  const show = JSON.parse((await vouch(["show", "last", "--json"], { home })).stdout);
  expect(show.pass_env).toEqual(["CLI_TOKEN"]);
  expect(show.graph_env).toEqual(["GRAPH_TOKEN"]);
  const text = (await vouch(["show", "last"], { home })).stdout;
  expect(text).toContain("CLI_TOKEN (--pass-env");
  expect(text).toContain("GRAPH_TOKEN (the graph's env: lists");

  // The ledger holds the script's own output (it printed the values: the author's choice),
  // but no event field vouch writes carries a value it was only asked to pass.
  const started = run.stdout.split("\n").find((l) => l.includes('"type":"run.started"'))!;
  expect(started).not.toContain(SECRET);
  expect(started).toContain('"graph_env":["GRAPH_TOKEN"]');
  for (const f of readdirSync(home).filter((n) => n.startsWith("ledger.sqlite"))) {
    expect(readFileSync(join(home, f)).includes(`${SECRET}-unnamed`)).toBe(false);
  }
});

test("a --pass-env name that is not set is said on stderr (the run may rely on it), and the run goes on", async () => {
  const graph = join(dir.path, "plain.yaml");
  writeFileSync(graph, 'version: 1\nname: p\nnodes:\n  a: { kind: script, run: "true" }\n');
  const run = await vouch(["run", graph, "--pass-env", "NOT_SET_ANYWHERE_42", "--json"], { home: join(dir.path, "home2") });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("--pass-env NOT_SET_ANYWHERE_42: not set in this environment, so no child gets it");
});

test("names shaped like object members (__proto__, constructor, toString) are ordinary variables end to end", async () => {
  // POSIX allows them, so the graph may name them; a plain-object environment would drop
  // __proto__ or hand an inherited function for toString. Null-prototype records do neither.
  const graph = join(dir.path, "proto.yaml");
  writeFileSync(
    graph,
    `version: 1
name: proto
nodes:
  show:
    kind: script
    env: [__proto__, constructor, toString]
    argv: [sh, -c, 'env | grep -E "^(__proto__|constructor|toString|hasOwnProperty)=" | sort']
`,
  );
  const run = await vouch(["run", graph, "--json"], {
    home: join(dir.path, "home3"),
    // JSON.parse makes __proto__ an own key (an object literal would set the prototype).
    env: JSON.parse('{"__proto__":"p1","constructor":"c1","hasOwnProperty":"not-named"}') as Record<string, string>,
  });
  expect(run.code).toBe(0);
  const finished = nodeFinished(run.stdout);
  expect(finished.output).toBe("__proto__=p1\nconstructor=c1\n");
});
