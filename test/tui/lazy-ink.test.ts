// Ink and React load only on the TUI path (docs/architecture.md §1, issue 7 item 5): every
// module of src/tui but app.tsx and src/tui/ink/ is free of them, transitively,
// so the plain and --json writers (and `--version`) never evaluate them.
import { dirname, join, normalize } from "node:path";
import { describe, expect, test } from "vitest";
import { importsOf, read, sourceFiles } from "../invariants/source-scan.ts";

const UI_ONLY = (f: string) => f === "src/tui/app.tsx" || f.startsWith("src/tui/ink/");
const HEAVY = /^(ink|react|react\/.*|ink-testing-library)$/;

function resolve(from: string, spec: string): string {
  return spec.startsWith(".") ? normalize(join(dirname(from), spec)) : spec;
}

/** Every module reachable from `file` by imports (static or dynamic). */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  if (!file.startsWith("src/")) return seen;
  for (const spec of importsOf(file)) reachable(resolve(file, spec), seen);
  return seen;
}

describe("ink is imported only on the TUI path", () => {
  const tuiFiles = sourceFiles("src/tui");

  test("the writers and the view model reach neither ink nor react nor the Ink components", () => {
    const offenders: string[] = [];
    for (const f of tuiFiles.filter((x) => !UI_ONLY(x))) {
      for (const m of reachable(f)) if (HEAVY.test(m) || UI_ONLY(m)) offenders.push(`${f} -> ${m}`);
    }
    expect(tuiFiles).toContain("src/tui/plain-output.ts");
    expect(offenders).toEqual([]);
  });

  test("only app.tsx and src/tui/ink/ import ink or react", () => {
    const importers = sourceFiles("src").filter((f) => importsOf(f).some((s) => HEAVY.test(s)));
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((f) => !UI_ONLY(f))).toEqual([]);
  });

  test("outside src/tui, app.tsx is only ever loaded with a dynamic import()", () => {
    const staticImport = /(?:import|export)\s[^'"]*?from\s*["']([^"']*tui\/app(?:\.tsx)?)["']/;
    const offenders = sourceFiles("src").filter((f) => !f.startsWith("src/tui/") && staticImport.test(read(f)));
    expect(offenders).toEqual([]);
  });

  test("the scan sees through a chain of imports (it can fail)", () => {
    const all = reachable("src/tui/app.tsx");
    expect(all.has("ink")).toBe(true);
    expect(all.has("src/tui/ink/app-view.tsx")).toBe(true);
    expect(all.has("react")).toBe(true);
  });
});
