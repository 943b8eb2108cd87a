// The broken-graph corpus and the valid corpus, through the real binary:
// every broken file exits 2 with exactly the problems written in its
// `# expect: LINE:COL substring` comments and never a stack trace; every
// valid graph (ours and the shipped ones in graphs/) exits 0.
import { beforeAll, describe, expect, test } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, ROOT, runVouch } from "./binary.ts";

const BROKEN = join(ROOT, "test", "graph", "broken");
const VALID = join(ROOT, "test", "graph", "valid");
const SHIPPED = join(ROOT, "graphs");

interface Expectation {
  line: number;
  col: number;
  text: string;
}

function expectations(file: string): Expectation[] {
  return [...readFileSync(file, "utf8").matchAll(/^# expect: (\d+):(\d+) (.+)$/gm)].map((m) => ({
    line: Number(m[1]),
    col: Number(m[2]),
    text: m[3]!,
  }));
}

const yamlIn = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
    : [];
const STACK = /^\s+at .+\(|^\s+at /m;

beforeAll(() => {
  ensureBinary();
}, 120_000);

describe("broken graphs", () => {
  const files = yamlIn(BROKEN);

  test("the corpus holds at least 30 broken graphs, each with expectations", () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const f of files) expect(expectations(join(BROKEN, f)).length, f).toBeGreaterThan(0);
  });

  test.each(files)("%s: exit 2, exactly the expected problems", (f) => {
    const path = join("test", "graph", "broken", f);
    const r = runVouch(["validate", "--json", path]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout + r.stderr).not.toMatch(STACK);
    const problems = JSON.parse(r.stdout) as { file: string; line: number; col: number; message: string }[];
    const wanted = expectations(join(BROKEN, f));
    const unmatched = [...problems];
    const missing: string[] = [];
    for (const w of wanted) {
      const i = unmatched.findIndex((p) => p.line === w.line && p.col === w.col && p.message.includes(w.text));
      if (i < 0) missing.push(`${w.line}:${w.col} ${w.text}`);
      else unmatched.splice(i, 1);
    }
    const extra = unmatched.map((p) => `${p.line}:${p.col} ${p.message}`);
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    for (const p of problems) expect(p.file).toBe(path);
  });

  test("text output: file:line:col: message lines, hints indented, a summary on stderr, no stack", () => {
    const paths = files.map((f) => join("test", "graph", "broken", f));
    const r = runVouch(["validate", ...paths]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout + r.stderr).not.toMatch(STACK);
    const lines = r.stdout.trimEnd().split("\n");
    for (const line of lines) expect(line).toMatch(/^(test\/graph\/broken\/[^:]+\.yaml:\d+:\d+: \S.*|    hint: \S.*)$/);
    const total = files.reduce((n, f) => n + expectations(join(BROKEN, f)).length, 0);
    expect(lines.filter((l) => !l.startsWith("    hint:"))).toHaveLength(total);
    expect(r.stderr).toBe(`${files.length} files, ${files.length} invalid files, ${total} problems\n`);
  });
});

describe("valid graphs", () => {
  test("our valid corpus covers every node kind, and every file validates (exit 0)", () => {
    const files = yamlIn(VALID);
    expect(files.length).toBeGreaterThanOrEqual(5);
    const all = files.map((f) => readFileSync(join(VALID, f), "utf8")).join("\n");
    for (const kind of ["agent", "script", "map", "router", "approval", "end"]) expect(all).toContain(`kind: ${kind}`);
    const r = runVouch(["validate", ...files.map((f) => join("test", "graph", "valid", f))]);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`${files.length} files valid\n`);
    expect(r.exitCode).toBe(0);
  });

  test("every shipped graph in graphs/ validates (none yet is fine)", () => {
    const files = yamlIn(SHIPPED);
    if (files.length === 0) return;
    const r = runVouch(["validate", "graphs"]);
    expect(r.stdout).toBe("");
    expect(r.exitCode).toBe(0);
  });
});

describe("the valid corpus uses every field", () => {
  test("every field of every object in the schema appears in test/graph/valid/", async () => {
    const schema = await import("../../src/engine/graph/schema.ts");
    const YAML = (await import("yaml")).default;
    const used = new Map<string, Set<string>>();
    const note = (what: string, obj: unknown) => {
      if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return;
      const set = used.get(what) ?? new Set<string>();
      for (const k of Object.keys(obj)) set.add(k);
      used.set(what, set);
    };
    const nodeFields = (node: Record<string, unknown>) => {
      note(String(node.kind), node);
      note("caps", node.caps);
      note("output", node.output);
      note("success", node.success);
      note("retry", node.retry);
      note("feedback", node.feedback);
      note("workspace", node.workspace);
      for (const c of (node.success as { checks?: unknown[] } | undefined)?.checks ?? []) note("check", c);
      for (const b of Object.values((node.branch as Record<string, Record<string, unknown>>) ?? {})) nodeFields(b);
    };
    for (const f of yamlIn(VALID)) {
      const g = YAML.parse(readFileSync(join(VALID, f), "utf8"), { merge: true });
      note("graph", g);
      for (const i of Object.values(g.inputs ?? {})) note("input", i);
      note("defaults", g.defaults);
      note("caps", g.caps);
      note("caps", g.defaults?.caps);
      for (const c of Object.values(g.checks ?? {})) note("check", c);
      for (const n of Object.values(g.nodes ?? {})) nodeFields(n as Record<string, unknown>);
    }
    const shapes: Record<string, { shape: Record<string, unknown> }> = {
      graph: schema.graphSchema,
      input: schema.inputSchema,
      defaults: schema.defaultsSchema,
      caps: schema.capsSchema,
      check: schema.checkDefSchema,
      success: schema.successSchema,
      retry: schema.retrySchema,
      output: schema.outputSchema,
      feedback: schema.feedbackSchema,
      agent: schema.agentNodeSchema,
      script: schema.scriptNodeSchema,
      map: schema.mapNodeSchema,
      router: schema.routerNodeSchema,
      approval: schema.approvalNodeSchema,
      end: schema.endNodeSchema,
      merge: schema.mergeNodeSchema,
      workspace: schema.workspaceSchema,
    };
    const missing = Object.entries(shapes).flatMap(([what, s]) =>
      Object.keys(s.shape)
        .filter((k) => !used.get(what)?.has(k))
        .map((k) => `${what}.${k}`),
    );
    expect(missing).toEqual([]);
  });
});
