// A model's answer → the plan vouch writes (src/cli/plan/answer.ts): the YAML out
// of any fence, origin: planned and checks_from set whatever the model wrote.
import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, test } from "vitest";
import { libraryEntry, planText, yamlOfAnswer } from "../../src/cli/plan/answer.ts";

const G = "version: 1\nname: g\nnodes:\n  a: { kind: end }\n";

describe("planText", () => {
  test("origin and checks_from come right after name:, replacing the model's", () => {
    const text = planText("version: 1\nname: g\norigin: user\nchecks_from: [/etc/evil.checks.yaml]\nnodes:\n  a: { kind: end }\n", ["./vouch.checks.yaml"]);
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
    const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }));
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 8 }), (obj) => {
        const answer = Object.entries(obj).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join("\n");
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
