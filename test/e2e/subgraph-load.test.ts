// Sub-graph problems refused at load by the real binary (ADR 0024), each at the
// right file:line:col: use cycles, inputs passed against inputs declared, a
// problem inside a used file, hostile `use:` paths, the planned-graph and
// map-branch rules; and an approval inside a sub-graph decided on resume.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EventOf } from "../../src/engine/events.ts";
import { STACK_LINE, ensureBinary, parseNdjson, tempDir, vouch } from "./helpers.ts";
import { finished, folderIn } from "./subgraph-helpers.ts";

const dir = tempDir("subgraph-load");
const folder = folderIn(dir.path);
beforeAll(() => ensureBinary());
afterAll(() => dir.cleanup());

describe("use problems are refused at load, at the right place", () => {
  const A = `version: 1
name: a
nodes:
  first:
    kind: script
    run: "true"
  x:
    kind: graph
    use: ./b.yaml
`;
  const B = `version: 1
name: b
nodes:
  back:
    kind: graph
    use: ./a.yaml
`;

  test("a cycle through two files: named at the use that closes it, in that file; run refuses too (exit 2)", async () => {
    const c = folder({ "a.yaml": A, "b.yaml": B });
    const v = await vouch(["validate", "a.yaml"], { home: c.home, cwd: c.path });
    expect(v.code).toBe(2);
    expect(v.stdout).toBe(
      'b.yaml:6:10: node "back": use makes a cycle: a.yaml → b.yaml → a.yaml\n    hint: a graph cannot use itself, directly or through other graphs\n',
    );
    const run = await vouch(["run", "a.yaml"], { home: c.home, cwd: c.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('b.yaml:6:10: node "back": use makes a cycle');
  });

  test("a graph using itself is a cycle at its own use line", async () => {
    const c = folder({ "self.yaml": `version: 1\nname: self\nnodes:\n  me:\n    kind: graph\n    use: ./self.yaml\n` });
    const v = await vouch(["validate", "self.yaml"], { home: c.home, cwd: c.path });
    expect(v.code).toBe(2);
    expect(v.stdout).toContain('self.yaml:6:10: node "me": use makes a cycle: self.yaml → self.yaml');
  });

  test("a missing required input and an unknown one, at the node in the parent; a problem inside the sub-graph names its file", async () => {
    const c = folder({
      "main.yaml": `version: 1
name: main
nodes:
  none:
    kind: graph
    use: ./needs.yaml
  wrong:
    kind: graph
    use: ./needs.yaml
    inputs: { file: x }
  broken:
    kind: graph
    use: ./broken.yaml
`,
      "needs.yaml": `version: 1\nname: needs\ninputs:\n  files: { required: true }\nnodes:\n  e: { kind: end }\n`,
      "broken.yaml": `version: 1\nname: broken\nnodes:\n  e: { kind: end, needs: [nope] }\n`,
    });
    const v = await vouch(["validate", "main.yaml"], { home: c.home, cwd: c.path });
    expect(v.code).toBe(2);
    const lines = v.stdout.split("\n").filter((l) => !l.startsWith("    "));
    expect(lines.filter(Boolean)).toEqual([
      'main.yaml:6:10: node "none": sub-graph needs.yaml needs input "files", which this node does not pass',
      'main.yaml:10:5: node "wrong": sub-graph needs.yaml needs input "files", which this node does not pass',
      'main.yaml:10:15: node "wrong": sub-graph needs.yaml declares no input "file" (did you mean files?)',
      'broken.yaml:4:27: unknown node "nope" in needs',
    ]);
  });

  test("hostile use: /dev/zero, a folder, a huge file, .. outside the folder, a link out of it, __proto__ as an input name", async () => {
    const c = folder({
      "g/main.yaml": `version: 1
name: main
inputs:
  x: { default: 1 }
nodes:
  zero: { kind: graph, use: /dev/zero }
  zero_rel: { kind: graph, use: ../../../../../../../../dev/zero }
  folder: { kind: graph, use: ./ }
  huge: { kind: graph, use: ./huge.yaml }
  out: { kind: graph, use: ../outside.yaml }
  link: { kind: graph, use: ./link.yaml }
  inside: { kind: graph, use: ./deeper/../ok.yaml }
`,
      "g/ok.yaml": `version: 1\nname: ok\nnodes:\n  e: { kind: end }\n`,
      "outside.yaml": `version: 1\nname: outside\nnodes:\n  e: { kind: end }\n`,
    });
    writeFileSync(join(c.path, "g/huge.yaml"), `# ${"x".repeat(5 * 1024 * 1024)}\n`);
    Bun.spawnSync(["ln", "-s", join(c.path, "outside.yaml"), join(c.path, "g/link.yaml")]);
    const v = await vouch(["validate", "g/main.yaml"], { home: c.home, cwd: c.path });
    expect(v.code).toBe(2);
    expect(v.stdout).not.toMatch(STACK_LINE);
    const lines = v.stdout.split("\n").filter((l) => l && !l.startsWith("    "));
    expect(lines).toEqual([
      'g/main.yaml:6:29: node "zero": use must be a path relative to this file, not "/dev/zero"',
      expect.stringMatching(/^g\/main\.yaml:7:33: node "zero_rel": use "[./]+dev\/zero" leaves the top graph's folder/),
      'g/main.yaml:8:31: node "folder": cannot read sub-graph g/: cannot read the file: it is a directory, not a regular file',
      expect.stringMatching(/^g\/main\.yaml:9:29: node "huge": cannot read sub-graph g\/huge\.yaml: .*(larger|limit|MiB)/),
      expect.stringMatching(/^g\/main\.yaml:10:28: node "out": use "\.\.\/outside\.yaml" leaves the top graph's folder/),
      expect.stringMatching(
        /^g\/main\.yaml:11:29: node "link": use "\.\/link\.yaml" leads \(through a link\) outside the top graph's folder/,
      ),
    ]);
    const proto = folder({
      "main.yaml": `version: 1\nname: main\nnodes:\n  s:\n    kind: graph\n    use: ./ok.yaml\n    inputs: { __proto__: 1 }\n`,
      "ok.yaml": `version: 1\nname: ok\nnodes:\n  e: { kind: end }\n`,
    });
    const p = await vouch(["validate", "main.yaml"], { home: proto.home, cwd: proto.path });
    expect(p.code).toBe(2);
    expect(p.stdout).toContain('main.yaml:7:15: "__proto__" cannot be an input name');
  });
});

describe("where a sub-graph may be used", () => {
  test("a planned graph may use only planned sub-graphs; a sub-graph with a map may not sit in a map branch", async () => {
    const c = folder({
      "planned.yaml": `version: 1\nname: p\norigin: planned\nnodes:\n  s: { kind: graph, use: ./user.yaml }\n`,
      "user.yaml": `version: 1\nname: u\nnodes:\n  e: { kind: end }\n`,
      "mapped.yaml": `version: 1\nname: m\ninputs:\n  xs: { default: [1] }\nnodes:\n  each:\n    kind: map\n    over: inputs.xs\n    branch:\n      s: { kind: graph, use: ./withmap.yaml }\n`,
      "withmap.yaml": `version: 1\nname: w\nnodes:\n  m: { kind: map, over: inputs.ys, branch: { b: { kind: end } } }\ninputs:\n  ys: { default: [] }\n`,
    });
    const planned = await vouch(["validate", "planned.yaml"], { home: c.home, cwd: c.path });
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain(
      'planned.yaml:5:26: node "s": a planned graph may use only planned sub-graphs; user.yaml is user-written',
    );
    const mapped = await vouch(["validate", "mapped.yaml"], { home: c.home, cwd: c.path });
    expect(mapped.code).toBe(2);
    expect(mapped.stdout).toContain(
      'mapped.yaml:10:30: node "s": sub-graph withmap.yaml holds a map, and this node is inside a map branch: maps do not nest',
    );
  });

  test("an approval inside a sub-graph pauses the run; resume --approve review/ok decides it", async () => {
    const c = folder({
      "main.yaml": `version: 1\nname: gate\nnodes:\n  review: { kind: graph, use: ./gate.yaml }\n`,
      "gate.yaml": `version: 1\nname: gate\nnodes:\n  ok: { kind: approval, prompt: "ship it?" }\n  done: { kind: end, needs: [ok], output: approved }\n`,
    });
    const first = await vouch(["run", "main.yaml", "--json"], { home: c.home, cwd: c.path });
    expect(first.code, first.stderr).toBe(4);
    const paused = parseNdjson(first.stdout).find((e): e is EventOf<"run.paused"> => e.type === "run.paused")!;
    expect(paused.approvals.map((a) => a.node)).toEqual(["review/ok"]);
    const wrong = await vouch(["resume", "last", "--approve", "ok"], { home: c.home, cwd: c.path });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("review/ok");
    const r = await vouch(["resume", "last", "--approve", "review/ok", "--json"], { home: c.home, cwd: c.path });
    expect(r.code, r.stderr).toBe(0);
    expect(finished(parseNdjson(r.stdout), "review")[0]).toMatchObject({ status: "passed", qualifier: "approved", output: "approved" });
  });
});
