// Sub-graphs (`kind: graph`, ADR 0024) run by the real binary: inputs in and the
// end node's output out, a failing sub-graph failing its node, a map branch,
// drawing, the node's caps bounding what the sub-graph spends, kill -9 inside
// a sub-graph then resume, and a changed sub-graph file refusing resume.
// (Problems refused at load: subgraph-load.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appendFileSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { EventOf } from "../../src/engine/events.ts";
import { BINARY, cleanEnv, ensureBinary, parseNdjson, tempDir, vouch } from "./helpers.ts";
import { finished, folderIn, runFinished } from "./subgraph-helpers.ts";

const dir = tempDir("subgraph");
const folder = folderIn(dir.path);
beforeAll(() => ensureBinary());
afterAll(() => dir.cleanup());

const PARENT = `version: 1
name: parent
nodes:
  implement:
    kind: script
    run: echo '{"files":["a.ts","b.ts","c.ts"]}'
    output: { format: json }
  review:
    kind: graph
    use: ./sub/review.yaml
    needs: [implement]
    inputs: { files: "{{ nodes.implement.output.files }}", label: "three files" }
  report:
    kind: script
    needs: [review]
    run: jq -c .nodes.review.output "$VOUCH_STATE_FILE"
    output: { format: json }
`;

const REVIEW = `version: 1
name: review
inputs:
  files: { required: true }
  label: { default: none }
checks:
  ok: { run: "true" }
nodes:
  count:
    kind: script
    run: printf '%s' "$VOUCH_INPUT_FILES" | jq length
    output: { format: json }
    success: { checks: [ok] }
  where:
    kind: script
    run: printf '["%s","%s"]' "$(basename "$VOUCH_GRAPH_DIR")" "$VOUCH_NODE"
    output: { format: json }
  done:
    kind: end
    needs: [count, where]
    output: { count: "{{ nodes.count.output }}", label: "{{ inputs.label }}" }
`;

describe("a parent and its sub-graph", () => {
  test("inputs reach the sub-graph, its end node's output is the node's output, and its nodes are named review/<node>", async () => {
    const c = folder({ "main.yaml": PARENT, "sub/review.yaml": REVIEW });
    const r = await vouch(["run", join(c.path, "main.yaml"), "--json"], { home: c.home, cwd: c.path });
    expect(r.code, r.stderr).toBe(0);
    const events = parseNdjson(r.stdout);
    const review = finished(events, "review")[0]!;
    expect(review.status).toBe("passed");
    expect(review.output).toEqual({ count: 3, label: "three files" });
    // The sub-graph's check library is its own; the worst qualifier of its passes is the node's.
    expect(finished(events, "review/count")[0]!.qualifier).toBe("verified");
    expect(finished(events, "review/where")[0]!.qualifier).toBe("exit-only");
    expect(review.qualifier).toBe("exit-only"); // the worse of verified and exit-only
    expect(finished(events, "report")[0]!.output).toEqual({ count: 3, label: "three files" });
    // VOUCH_GRAPH_DIR is the sub-graph file's folder; VOUCH_NODE the node's full id.
    expect(finished(events, "review/where")[0]!.output).toEqual(["sub", "review/where"]);
    const started = events.find((e): e is EventOf<"run.started"> => e.type === "run.started")!;
    expect(started.nodes.map((x) => [x.id, x.graph ?? null])).toEqual([
      ["implement", null],
      ["review", null],
      ["review/count", "review"],
      ["review/where", "review"],
      ["review/done", "review"],
      ["report", null],
    ]);
    // The ledger names them the same way.
    const shown = await vouch(["show", "last", "--json"], { home: c.home, cwd: c.path });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('"review/count"');
  });

  test("a sub-graph that fails fails its node (graph_failed, quoting the node inside) and the run", async () => {
    const failing = REVIEW.replace(`run: printf '%s' "$VOUCH_INPUT_FILES" | jq length`, "run: exit 3");
    const c = folder({ "main.yaml": PARENT, "sub/review.yaml": failing });
    const r = await vouch(["run", join(c.path, "main.yaml"), "--json"], { home: c.home, cwd: c.path });
    expect(r.code, r.stderr).toBe(1);
    const events = parseNdjson(r.stdout);
    expect(finished(events, "review/count")[0]).toMatchObject({ status: "failed", cause: "nonzero_exit" });
    const review = finished(events, "review")[0]!;
    expect(review).toMatchObject({ status: "failed", cause: "graph_failed" });
    expect(review.error).toContain("review/count:");
    expect(review.error).toContain("(in ./sub/review.yaml)");
    expect(finished(events, "report")[0]).toMatchObject({ status: "skipped", cause: "upstream_not_passed" });
    expect(runFinished(events).status).toBe("failed");
  });

  test("in a map branch: the sub-graph's nodes run per branch, carrying the branch", async () => {
    const c = folder({
      "main.yaml": `version: 1
name: mapped
inputs:
  groups: { default: [[1], [1, 2]] }
nodes:
  each:
    kind: map
    over: inputs.groups
    branch:
      review:
        kind: graph
        use: ./sub/review.yaml
        inputs: { files: "{{ item }}" }
`,
      "sub/review.yaml": REVIEW,
    });
    const r = await vouch(["run", join(c.path, "main.yaml"), "--json"], { home: c.home, cwd: c.path });
    expect(r.code, r.stderr).toBe(0);
    const events = parseNdjson(r.stdout);
    const counts = finished(events, "review/count").map((e) => [e.branch?.index, e.output]);
    expect(counts.sort()).toEqual([
      [0, 1],
      [1, 2],
    ]);
    const results = (finished(events, "each")[0]!.output as { results: { output: unknown }[] }).results;
    expect(results.map((x) => x.output)).toEqual([
      { count: 1, label: "none" },
      { count: 2, label: "none" },
    ]);
  });

  test("vouch graph draws the sub-graph nested under its node", async () => {
    const c = folder({ "main.yaml": PARENT, "sub/review.yaml": REVIEW });
    const text = await vouch(["graph", join(c.path, "main.yaml")], { home: c.home, cwd: c.path });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^review +sub-graph \.\/sub\/review\.yaml\n  needs implement\n  runs review:\n    count +script: /m);
    const mermaid = await vouch(["graph", join(c.path, "main.yaml"), "-f", "mermaid"], { home: c.home, cwd: c.path });
    expect(mermaid.stdout).toContain('subgraph n1_sub["review: sub-graph review"]');
    expect(mermaid.stdout).toContain('n1 ==>|"runs"| n3');
    const dot = await vouch(["graph", join(c.path, "main.yaml"), "-f", "dot"], { home: c.home, cwd: c.path });
    expect(dot.stdout).toContain('subgraph "cluster_review"');
    expect(dot.stdout).toContain('"review/count" -> "review/done"');
  });
});

/** A replayed claude sitting that reports `cost` USD. */
function sitting(cost: number, result: string): string {
  const init = {
    type: "system",
    subtype: "init",
    session_id: "s",
    cwd: "/w",
    model: "claude-opus-5",
    tools: [],
    permissionMode: "dontAsk",
    claude_code_version: "2.1.220",
  };
  const end = {
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: 10,
    num_turns: 1,
    result,
    stop_reason: "end_turn",
    session_id: "s",
    total_cost_usd: cost,
    usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  };
  return `${JSON.stringify(init)}\n${JSON.stringify(end)}\n`;
}

describe("caps", () => {
  test("the node's budget_usd bounds what the sub-graph spends: crossing it stops the sub-graph, the rest of the run goes on", async () => {
    const c = folder({
      "main.yaml": `version: 1
name: spend
nodes:
  work:
    kind: graph
    use: ./work.yaml
    caps: { budget_usd: 1.2 }
  beside:
    kind: script
    run: "true"
`,
      "work.yaml": `version: 1
name: work
defaults: { harness: replay }
nodes:
  a: { kind: agent, prompt: one }
  b: { kind: agent, prompt: two, needs: [a] }
  c: { kind: agent, prompt: three, needs: [b] }
  d: { kind: agent, prompt: four, needs: [c] }
`,
      "main.replay/work/a.jsonl": sitting(0.5, "a"),
      "main.replay/work/b.jsonl": sitting(0.5, "b"),
      "main.replay/work/c.jsonl": sitting(0.5, "c"),
      "main.replay/work/d.jsonl": sitting(0.5, "d"),
    });
    const r = await vouch(["run", join(c.path, "main.yaml"), "--json"], { home: c.home, cwd: c.path });
    expect(r.code, r.stderr).toBe(3);
    const events = parseNdjson(r.stdout);
    const overrun = events.find((e) => e.type === "cap.overrun");
    expect(overrun).toMatchObject({ node: "work", scope: "node", cap: "budget_usd", limit: 1.2, actual: 1.5 });
    expect(finished(events, "work")[0]).toMatchObject({ status: "error", cause: "cap_stop" });
    expect(events.some((e) => e.type === "node.started" && e.node === "work/d")).toBe(false);
    expect(finished(events, "beside")[0]!.status).toBe("passed");
    // Three sittings ran: the fourth's $0.50 was never spent.
    expect(runFinished(events).cost_usd).toBeCloseTo(1.5, 10);
  });

  test("without the cap the same sub-graph spends all four sittings (the cap above is what stopped it)", async () => {
    const c = folder({
      "main.yaml": `version: 1\nname: spend\nnodes:\n  work:\n    kind: graph\n    use: ./work.yaml\n`,
      "work.yaml": `version: 1\nname: work\ndefaults: { harness: replay }\nnodes:\n  a: { kind: agent, prompt: one }\n  b: { kind: agent, prompt: two, needs: [a] }\n`,
      "main.replay/work/a.jsonl": sitting(0.5, "a"),
      "main.replay/work/b.jsonl": sitting(0.5, "b"),
    });
    const r = await vouch(["run", join(c.path, "main.yaml"), "--json"], { home: c.home, cwd: c.path });
    expect(r.code, r.stderr).toBe(0);
    expect(runFinished(parseNdjson(r.stdout)).cost_usd).toBeCloseTo(1.0, 10);
  });
});

describe("resume inside a sub-graph", () => {
  const MAIN = `version: 1
name: resumable
nodes:
  inner:
    kind: graph
    use: ./inner.yaml
  after:
    kind: script
    needs: [inner]
    run: jq -c .nodes.inner.output "$VOUCH_STATE_FILE"
    output: { format: json }
`;
  const INNER = `version: 1
name: inner
nodes:
  first:
    kind: script
    run: echo ran >> "$VOUCH_GRAPH_DIR/first.count"; echo '"one"'
    output: { format: json }
  wait:
    kind: script
    needs: [first]
    run: until [ -e "$VOUCH_GRAPH_DIR/gate" ]; do sleep 0.05; done; echo '"two"'
    output: { format: json }
  done:
    kind: end
    needs: [wait]
    output: { got: ["{{ nodes.first.output }}", "{{ nodes.wait.output }}"] }
`;

  test("kill -9 while a node inside runs; resume keeps what passed inside and finishes", async () => {
    const c = folder({ "main.yaml": MAIN, "inner.yaml": INNER });
    const p = Bun.spawn([BINARY, "run", join(c.path, "main.yaml"), "--json"], {
      cwd: c.path,
      env: cleanEnv({ home: c.home }),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = p.stdout.getReader();
    let text = "";
    while (!text.split("\n").some((l) => l.includes('"type":"node.started"') && l.includes('"node":"inner/wait"'))) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`vouch ended before inner/wait started:\n${text}`);
      text += new TextDecoder().decode(value);
    }
    p.kill("SIGKILL");
    expect(await p.exited).toBe(137);
    writeFileSync(join(c.path, "gate"), "");
    const r = await vouch(["resume", "last", "--json"], { home: c.home, cwd: c.path });
    expect(r.code, r.stderr).toBe(0);
    const events = parseNdjson(r.stdout);
    // first passed in the killed session: kept, not run again.
    expect(readFileSync(join(c.path, "first.count"), "utf8")).toBe("ran\n");
    expect(events.some((e) => e.type === "node.started" && e.node === "inner/first")).toBe(false);
    expect(finished(events, "inner/wait")[0]!.status).toBe("passed");
    expect(finished(events, "inner")[0]!.output).toEqual({ got: ["one", "two"] });
    expect(finished(events, "after")[0]!.output).toEqual({ got: ["one", "two"] });
    expect(runFinished(events).counts.passed).toBe(5);
  });

  test("a sub-graph file changed since the run started: resume refuses (exit 2), naming the graph", async () => {
    const c = folder({ "main.yaml": MAIN, "inner.yaml": INNER.replace("sleep 0.05", "exit 1 #") });
    writeFileSync(join(c.path, "gate"), "");
    const first = await vouch(["run", join(c.path, "main.yaml"), "--json"], { home: c.home, cwd: c.path });
    expect(first.code).toBe(1);
    // The same top file; only the sub-graph changes.
    appendFileSync(join(c.path, "inner.yaml"), "# edited\n");
    const r = await vouch(["resume", "last"], { home: c.home, cwd: c.path });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the graph file .*main\.yaml or a sub-graph it uses changed since run/);
    expect(existsSync(join(c.path, "main.yaml"))).toBe(true);
  });
});
