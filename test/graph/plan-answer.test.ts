// A model's answer → the plan vouch writes (src/cli/plan/answer.ts): the YAML out
// of any fence, origin: planned and checks_from set whatever the model wrote.
import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, test } from "vitest";
import { libraryEntry, planText, yamlOfAnswer } from "../../src/cli/plan/answer.ts";

const G = "version: 1\nname: g\nnodes:\n  a: { kind: end }\n";

describe("planText", () => {
  test("origin and checks_from come right after name:, replacing the model's", () => {
    const text = planText("version: 1\nname: g\norigin: user\nchecks_from: [/etc/evil.checks.yaml]\nnodes:\n  a: { kind: end }\n", [
      "./vouch.checks.yaml",
    ]);
    expect(text).toBe("version: 1\nname: g\norigin: planned\nchecks_from: [ ./vouch.checks.yaml ]\nnodes:\n  a: { kind: end }\n");
  });

  test("a fenced answer with prose around it; a bare fence", () => {
    expect(yamlOfAnswer("Here it is:\n```yaml\n" + G + "```\nDone.")).toBe(G);
    expect(yamlOfAnswer("```\n" + G + "```")).toBe(G);
    expect(yamlOfAnswer(G)).toBe(G);
  });

  test("not a mapping, or broken YAML: left as written (validation says why)", () => {
    expect(planText("- a\n- b\n", ["x"])).toBe("- a\n- b\n");
    expect(planText("a: [\n", ["x"])).toBe("a: [\n");
  });

  test("an origin inside a node is not the graph's: only the top level is set", () => {
    const out = parse(planText("version: 1\nname: g\nnodes:\n  origin: { kind: end }\n", ["./c.checks.yaml"])) as Record<string, unknown>;
    expect(out.origin).toBe("planned");
    expect(out.nodes).toEqual({ origin: { kind: "end" } });
  });

  test("property: any mapping answer comes out with origin planned and the library alone in checks_from", () => {
    const key = fc.oneof(fc.constantFrom("origin", "checks_from", "name", "__proto__", "-x", "version"), fc.string({ maxLength: 8 }));
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 8 }), (obj) => {
        const answer = Object.entries(obj)
          .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
          .join("\n");
        const out = parse(planText(answer, ["./lib.checks.yaml"]), { uniqueKeys: false }) as Record<string, unknown>;
        expect(Object.getOwnPropertyDescriptor(out, "origin")?.value).toBe("planned");
        expect(Object.getOwnPropertyDescriptor(out, "checks_from")?.value).toEqual(["./lib.checks.yaml"]);
      }),
      { numRuns: 300 },
    );
  });
});

test("libraryEntry is relative to the plan file's folder", () => {
  expect(libraryEntry("/p/plan.yaml", "/p/vouch.checks.yaml")).toBe("./vouch.checks.yaml");
  expect(libraryEntry("/p/plans/plan.yaml", "/p/vouch.checks.yaml")).toBe("../vouch.checks.yaml");
  expect(libraryEntry("/p/plan.yaml", "/p/lib/c.checks.yaml")).toBe("./lib/c.checks.yaml");
});

test("property: whatever the model answers, a plan that loads is planned, names only the user's library, and has no command or shell", async () => {
  const { checkAnswer } = await import("../../src/cli/plan/answer.ts");
  const { commandTool } = await import("../../src/engine/graph/validate-planned.ts");
  const library = "checks:\n  tests: { run: ./t }\n";
  const read = (p: string) => (p === "/p/vouch.checks.yaml" ? { text: library } : { error: "no such file" });
  const pieces = fc.subarray([
    "origin: user",
    "origin: planned",
    "checks_from: [/etc/x.checks.yaml]",
    "checks:\n  own: { run: id }",
    "defaults:\n  cwd: /",
    "defaults:\n  permission_mode: yolo",
    "inputs:\n  d: { default: / }",
    "caps: { budget_usd: 1 }",
  ]);
  const node = fc.constantFrom(
    "  a: { kind: agent, prompt: x, success: { checks: [tests] } }",
    "  a: { kind: script, run: rm -rf ~ }",
    "  a: { kind: agent, prompt: x, tools: [Bash] }",
    '  a: { kind: agent, prompt: x, cwd: "{{ inputs.d }}" }',
    "  a: { kind: agent, prompt: x, permission_mode: auto }",
    "  a: { kind: agent, prompt: x, tools: [Read, Edit], cwd: src }",
    "  a: { kind: agent, prompt: x, success: { checks: [{ name: n, run: id }] } }",
    "  a: { kind: end }",
  );
  fc.assert(
    fc.property(pieces, node, fc.boolean(), (top, n, fence) => {
      const yaml = ["version: 1", "name: g", ...top, "nodes:", n].join("\n");
      const checked = checkAnswer(fence ? "```yaml\n" + yaml + "\n```" : yaml, "/p/plan.yaml", ["/p/vouch.checks.yaml"], read);
      const g = checked.loaded.graph;
      if (!g) return;
      expect(g.origin).toBe("planned");
      expect(g.checks_from).toEqual(["./vouch.checks.yaml"]);
      expect(Object.keys(g.checks ?? {})).toEqual(["tests"]);
      for (const node of Object.values(g.nodes)) {
        expect(node.kind).not.toBe("script");
        if (node.kind === "agent") {
          expect((node.tools ?? []).some(commandTool)).toBe(false);
          expect(node.cwd === undefined || !node.cwd.startsWith("/")).toBe(true);
          expect((node.success?.checks ?? []).every((c) => typeof c === "string")).toBe(true);
        }
      }
    }),
    { numRuns: 300 },
  );
});
