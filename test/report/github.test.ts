// `vouch report --format github` (src/report/ci/github.ts, ADR 0058): workflow-command
// annotations, read back as GitHub's runner reads a step's output (runnerCommands). The
// escaping rules, the bounds (10 of each level, the worst kept, the rest counted),
// file/line only inside the repository, and whatever a check printed, a node was named
// or a model answered — `::set-output`, `::add-mask::`, `::stop-commands::`, CR, LF,
// `%0A` — the only commands are vouch's, and each says back exactly what it was given.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { annotation, commandData, commandProperty, renderGithub } from "../../src/report/ci/github.ts";
import { sanitize, sanitizeInline } from "../../src/text/sanitize.ts";
import { check, fakeCi, ROOT_DIR, runnerCommands } from "./ci-fixtures.ts";

const INJECTIONS = [
  "::set-output name=status::passed",
  "::add-mask::hunter2",
  "::stop-commands::pwn",
  "::error file=/etc/passwd,line=1::owned",
  "%0A::warning::encoded",
  "a\r::notice::after a carriage return",
  "line one\n::group::two",
];

describe("escaping (GitHub's workflow-command rules)", () => {
  test("data escapes % CR LF; a property also : and ,", () => {
    expect(commandData("50% a\r\nb")).toBe("50%25 a%0D%0Ab");
    expect(commandProperty("a:b,c%d\ne")).toBe("a%3Ab%2Cc%25d%0Ae");
    const [parsed] = runnerCommands(`::error title=${commandProperty("t:1,2")}::${commandData("x%0Ay\nz")}\n`);
    expect(parsed).toEqual({ command: "error", properties: { title: "t:1,2" }, data: "x%0Ay\nz" });
  });

  test("check output, node and check names with workflow commands in them stay data of one annotation each", () => {
    const ci = fakeCi(
      INJECTIONS.map((text, i) => ({
        node: `n${i}${text.slice(0, 12)}`,
        checks: [check(`c${i}::add-mask::x`, { stdout_tail: `${text}\n${text}`, stderr_tail: text })],
        error: text,
      })),
    );
    const out = renderGithub(ci);
    const commands = runnerCommands(out);
    expect(out.split("\n").filter(Boolean)).toHaveLength(commands.length); // no line is anything but a command
    expect(new Set(commands.map((c) => c.command))).toEqual(new Set(["error", "notice"]));
    for (const c of commands) expect(Object.keys(c.properties).every((k) => ["file", "line", "col", "title"].includes(k))).toBe(true);
    expect(out).not.toMatch(/^::(set-output|add-mask|stop-commands|group|warning)/m);
  });
});

describe("what is annotated", () => {
  test("a failed check's path:line:col lines in the repository become file/line/col; others an annotation without a file", () => {
    const ci = fakeCi([
      {
        node: "lint",
        checks: [
          check("eslint", {
            stdout_tail: [
              "src/a.ts:3:7: no-unused-vars",
              "../outside.ts:1: nope",
              "/etc/passwd:1:1: root",
              `${ROOT_DIR}/src/b.ts:9: inside`,
              "no location here",
            ].join("\n"),
          }),
          check("tests", { stdout_tail: "FAIL 2 tests" }),
        ],
      },
    ]);
    const commands = runnerCommands(renderGithub(ci));
    const files = commands.map((c) => [c.properties.file, c.properties.line, c.properties.col]);
    expect(files).toEqual([
      ["src/a.ts", "3", "7"],
      ["src/b.ts", "9", undefined],
      [undefined, undefined, undefined], // tests: no location
      [undefined, undefined, undefined], // the node
    ]);
    expect(commands[0]).toMatchObject({
      command: "error",
      properties: { title: "vouch: check eslint failed in lint" },
      data: "no-unused-vars",
    });
    expect(commands[2]!.data).toContain("FAIL 2 tests");
    expect(commands[3]!.properties.title).toBe("vouch: lint failed");
  });

  test("findings: VERIFIED at its severity with its evidence, UNVERIFIABLE and FALSE not annotated", () => {
    const ci = fakeCi([
      {
        node: "review",
        kind: "agent",
        status: "passed",
        output: {
          findings: [
            {
              id: "F1",
              verdict: "VERIFIED",
              severity: "error",
              path: "src/cache.js",
              line: 16,
              message: "never expires",
              evidence: [{ at: "src/cache.js:16", quote: "return v;" }],
            },
            { id: "F2", verdict: "UNVERIFIABLE", message: "no such file", note: "src/net.js does not exist" },
            { id: "F3", verdict: "FALSE", message: "digits dropped", note: "they are kept" },
            { id: "F4", verdict: "VERIFIED", message: "no path" },
          ],
        },
      },
    ]);
    expect(ci.refuted).toBe(1);
    const commands = runnerCommands(renderGithub(ci));
    expect(commands.map((c) => [c.command, c.properties.title, c.properties.file, c.properties.line])).toEqual([
      ["error", "vouch: finding F1 verified (review)", "src/cache.js", "16"],
      ["warning", "vouch: finding F4 verified (review)", undefined, undefined],
    ]);
    expect(commands[0]!.data).toBe("never expires\nevidence:\nsrc/cache.js:16: return v;");
  });

  test("bounded: 10 errors and 10 warnings, the located ones kept first, one notice says how many were left out", () => {
    const checks = Array.from({ length: 14 }, (_, i) =>
      check(`c${i}`, { stdout_tail: i % 2 === 0 ? `src/f${i}.ts:${i + 1}: broken` : "no location" }),
    );
    const findings = Array.from({ length: 13 }, (_, i) => ({
      id: `F${i}`,
      verdict: "VERIFIED",
      severity: "warning",
      path: "src/w.ts",
      line: i + 1,
      message: `w${i}`,
    }));
    const ci = fakeCi([
      { node: "a", checks },
      { node: "b", kind: "agent", status: "passed", output: findings },
    ]);
    const commands = runnerCommands(renderGithub(ci));
    const errors = commands.filter((c) => c.command === "error");
    const warnings = commands.filter((c) => c.command === "warning");
    expect([errors.length, warnings.length]).toEqual([10, 10]);
    // All 7 located check problems are among the 10 errors kept; the node's annotation is left out.
    expect(errors.filter((c) => c.properties.file !== undefined)).toHaveLength(7);
    expect(errors.some((c) => c.properties.title === "vouch: a failed")).toBe(false);
    const notice = commands.filter((c) => c.command === "notice");
    expect(notice).toHaveLength(1);
    expect(notice[0]!.data).toMatch(/^8 more annotations left out \(5 errors, 3 warnings\): GitHub shows 10 of each kind a step\./);
    expect(notice[0]!.data).toContain("vouch show 20261201-120000-abcdef");
  });

  test("at most 20 located lines are read from one check's output", () => {
    const ci = fakeCi([
      { node: "lint", checks: [check("eslint", { stdout_tail: Array.from({ length: 30 }, (_, i) => `src/a.ts:${i + 1}: x`).join("\n") })] },
    ]);
    expect(ci.problems.filter((p) => p.kind === "check")).toHaveLength(20);
  });

  test("nothing failed and no finding: no output at all", () => {
    expect(renderGithub(fakeCi([{ node: "ok", status: "passed" }]))).toBe("");
  });
});

// --- any hostile content ---------------------------------------------------
const hostile = fc.oneof(
  fc.constantFrom(...INJECTIONS, "\u001b[31mred\u001b[0m", "\u2028::error::ls", "%", "%25", ",", ":", "title=x", "\t", "\0"),
  fc.string({ unit: "binary", maxLength: 60 }),
);

describe("any content", () => {
  test("every line is one of vouch's annotations; title and message come back as sanitized", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: hostile, tail: hostile, node: hostile, message: hostile, path: hostile }), {
          minLength: 1,
          maxLength: 8,
        }),
        (items) => {
          const ci = fakeCi(
            items.map((it, i) => ({
              node: `${i}${it.node}`,
              kind: "agent",
              checks: [check(it.name, { stdout_tail: `${it.path}:3: ${it.tail}\n${it.tail}` })],
              output: [
                { verdict: "VERIFIED", path: it.path, line: 2, message: it.message, evidence: [{ at: `${it.path}:2`, quote: it.tail }] },
              ],
            })),
          );
          const out = renderGithub(ci);
          const commands = runnerCommands(out);
          expect(out.split("\n").filter((l) => l !== "")).toHaveLength(commands.length);
          for (const c of commands) {
            expect(["error", "warning", "notice"]).toContain(c.command);
            expect(c.properties.title).toBe(sanitizeInline(c.properties.title!));
            if (c.properties.file !== undefined)
              expect(c.properties.file.startsWith("..") || c.properties.file.startsWith("/")).toBe(false);
          }
          // Round trip: what the runner reads is what vouch meant to say.
          const first = ci.problems.find((p) => p.verdict !== "UNVERIFIABLE")!;
          expect(runnerCommands(annotation(first))[0]!.data).toBe(sanitize(first.message).trimEnd().slice(0, 4000));
        },
      ),
      { numRuns: 300 },
    );
  });
});
