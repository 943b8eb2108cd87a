// `vouch doctor GRAPH` through the compiled binary (ADR 0080): each ACP agent the
// graph names is started and asked ACP's initialize — the stub agent answers, a
// program that is no ACP agent exits unanswered, one that answers in another
// protocol version is refused, a missing one is named; the exit code follows.
// Also the pure reading of a reply (hostile values bounded, wrong types ignored).
import { afterAll, describe, expect, test } from "vitest";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../graph/binary.ts";
import { judgeReply, PROBES_AT_ONCE, probeAcpAgents } from "../../src/spawn/harness/acp-probe.ts";

const dir = mkdtempSync(join(tmpdir(), "vouch-doctor-acp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const STUB = join(import.meta.dirname, "..", "stubs", "harness", "acp-kit-agent");

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function graph(name: string, commands: string[][]): string {
  const nodes = commands
    .map((c, i) => `  a${i}: { kind: agent, harness: acp, acp: { command: ${JSON.stringify(c)} }, prompt: hi }`)
    .join("\n");
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, `version: 1\nname: ${name}\nnodes:\n${nodes}\n`);
  return path;
}

async function doctor(args: string[]) {
  const p = Bun.spawn([ensureBinary(), "doctor", ...args], {
    cwd: dir,
    // No agent CLI on PATH: only the graph's agents are probed.
    env: { PATH: `${dirnameOfNode()}:/usr/bin:/bin`, HOME: dir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

/** The stub agent is a node script: node's folder is on PATH (nothing else of the user's). */
function dirnameOfNode(): string {
  const node = Bun.which("node");
  if (node === null) throw new Error("node is needed on PATH");
  return node.slice(0, node.lastIndexOf("/"));
}

interface AcpReport {
  check: string;
  command: string[];
  verdict: string;
  detail: string;
  agent_name?: string;
  protocol_version?: number;
  load_session?: boolean;
}

describe("vouch doctor GRAPH: the graph's ACP agents", () => {
  test("an agent that answers initialize is accepted, with what it said; the exit is 0", async () => {
    const r = await doctor([graph("good", [[STUB], [STUB]]), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const acp = (JSON.parse(r.stdout) as AcpReport[]).filter((x) => x.check === "acp");
    // The same command line twice is probed once.
    expect(acp).toHaveLength(1);
    expect(acp[0]).toMatchObject({
      command: [STUB],
      verdict: "accepted",
      agent_name: "stub-acp",
      protocol_version: 1,
      load_session: false,
    });
    const text = await doctor([graph("good", [[STUB]])]);
    expect(text.stdout).toContain(`acp ${STUB} at ${STUB}: answers ACP 1: stub-acp 0; NOT a tested agent`);
    expect(text.stdout).toContain("cannot load a session");
  });

  test("no ACP agent, another protocol version, a missing program: each named, exit 1", async () => {
    const notAcp = script("not-acp", `echo "Usage: tool [options]" >&2; exit 1`);
    const v2 = script("v2", `read line; echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2}}'; sleep 30`);
    const r = await doctor([graph("bad", [[notAcp], [v2, "--acp"], ["no-such-agent-anywhere"]]), "--json"]);
    expect(r.code, r.stderr).toBe(1);
    const acp = (JSON.parse(r.stdout) as AcpReport[]).filter((x) => x.check === "acp");
    const by = (p: string) => acp.find((a) => a.command[0] === p)!;
    expect(by(notAcp)).toMatchObject({ verdict: "rejected" });
    expect(by(notAcp).detail).toContain("never answered ACP's initialize (exit 1)");
    expect(by(notAcp).detail).toContain("Usage: tool [options]");
    expect(by(v2)).toMatchObject({ verdict: "rejected", protocol_version: 2 });
    expect(by(v2).detail).toContain("vouch speaks ACP version 1");
    expect(by("no-such-agent-anywhere")).toMatchObject({ verdict: "not_installed" });
  });

  test("a graph that is not valid is a usage error (exit 2) and nothing is probed; two graphs are refused", async () => {
    const marker = join(dir, "started");
    const agent = script("marks", `touch ${marker}; exit 1`);
    const bad = join(dir, "bad.yaml");
    writeFileSync(
      bad,
      `version: 1\nname: bad\nnodes:\n  a: { kind: agent, harness: acp, acp: { command: [${agent}] }, prompt: hi, nope: 1 }\n`,
    );
    const r = await doctor([bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("nope");
    expect(Bun.file(marker).size).toBe(0);
    const two = await doctor([bad, bad]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("at most one graph file");
  });
});

describe("vouch doctor GRAPH starts only the graph's agents (security review)", () => {
  test("an acp.command in data (an input's default, an output schema) starts nothing; defaults.acp on a map branch's acp node is probed", async () => {
    const marker = join(dir, "from-data");
    const path = join(dir, "data.yaml");
    writeFileSync(
      path,
      `version: 1
name: data
defaults: { harness: acp, acp: { command: [${STUB}] } }
inputs:
  cfg: { default: { acp: { command: [touch, ${marker}] } } }
nodes:
  items: { kind: script, run: "echo '[1]'", output: { format: json } }
  other: { kind: script, run: "echo '{}'", output: { format: json, schema: { type: object, properties: { acp: { command: [touch, ${marker}] } } } } }
  each: { kind: map, needs: [items], over: nodes.items.output, branch: { ask: { kind: agent, prompt: hi } } }
`,
    );
    const r = await doctor([path, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const acp = (JSON.parse(r.stdout) as AcpReport[]).filter((x) => x.check === "acp");
    expect(acp.map((a) => a.command)).toEqual([[STUB]]);
    expect(Bun.file(marker).size).toBe(0);
  });

  test("many agents are probed four at a time", async () => {
    const running = join(dir, "running");
    const counts = join(dir, "counts");
    const agent = script(
      "counted",
      `mkdir -p ${running}; touch ${running}/$$; ls ${running} | wc -l >> ${counts}; sleep 0.3; rm ${running}/$$; exit 1`,
    );
    const reports = await probeAcpAgents(
      Array.from({ length: 10 }, (_, i) => [agent, `--n=${i}`]),
      { PATH: "/usr/bin:/bin", cwd: dir, probeEnv: {} },
    );
    expect(reports.map((x) => x.verdict)).toEqual(Array(10).fill("rejected"));
    const seen = readFileSync(counts, "utf8").trim().split("\n").map(Number);
    expect(seen).toHaveLength(10);
    expect(Math.max(...seen)).toBeLessThanOrEqual(PROBES_AT_ONCE);
  });
});

describe("judgeReply", () => {
  test("hostile values are bounded and wrong types ignored; an error reply is a refusal", () => {
    const long = "<script>".repeat(100);
    const j = judgeReply({
      id: 0,
      result: { protocolVersion: 1, agentInfo: { name: long, version: 7 }, agentCapabilities: { loadSession: "yes" } },
    });
    expect(j.verdict).toBe("accepted");
    expect(j.agent_name).toHaveLength(200);
    expect(j.agent_version).toBeUndefined();
    expect(j.load_session).toBeUndefined();
    expect(judgeReply({ id: 0, result: { protocolVersion: "1" } }).verdict).toBe("rejected");
    expect(judgeReply({ id: 0, error: { code: -32600, message: "no auth" } })).toMatchObject({
      verdict: "rejected",
      detail: "it refused initialize: no auth",
    });
    // As the agent's line is parsed: __proto__ is a key of its own, not a prototype to read through.
    expect(judgeReply(JSON.parse('{"id":0,"result":{"__proto__":{"protocolVersion":1}}}')).verdict).toBe("rejected");
    // An error 100,000 levels deep (under the 1 MB line bound) is said by its shape: stringifying it crashed doctor.
    const deep = JSON.parse(`{"id":0,"error":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    expect(judgeReply(deep)).toMatchObject({ verdict: "rejected", detail: "it refused initialize: an error and no message" });
  });
});
