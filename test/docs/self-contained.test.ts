// The repository is self-contained: nothing in it points at a file a clone does
// not have (the team's founding design and toolchain notes, the shared reference
// folder next to the checkout). The design lives in docs/architecture.md and the
// ADRs; the real CLI outputs the tests need are in test/fixtures/.
// And docs/architecture.md stays current: every path it names exists, and every
// `symbol` it places in a file is defined there.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT } from "../graph/binary.ts";

const SCANNED = ["src", "test", "docs", "scripts", "bench", "graphs", "examples", "README.md", "build.ts", "package.json"];
/** Built from parts so this file does not match itself. */
const OUTSIDE = new RegExp(
  [
    String.raw`\bDESIGN\b`,
    String.raw`\bTOOLCHAIN\b`,
    String.raw`\.\.[/\\]+shared\b`,
    String.raw`/work/${""}shared\b`,
    String.raw`["'\x60]\.\.["'\x60]\s*,\s*["'\x60]shared["'\x60]`,
  ].join("|"),
);

function textFiles(entry: string): string[] {
  const full = join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  const out: string[] = [];
  for (const name of readdirSync(full)) {
    if (name === "node_modules" || name === ".git" || name === ".vouch") continue;
    out.push(...textFiles(join(entry, name)));
  }
  return out;
}

function offending(text: string): string[] {
  return text.split("\n").flatMap((line, i) => (OUTSIDE.test(line) ? [`${i + 1}: ${line.trim().slice(0, 120)}`] : []));
}

describe("no reference to a file outside the repository", () => {
  test("src, test, docs, README, scripts, bench and graphs name only files a clone has", () => {
    const files = SCANNED.flatMap(textFiles);
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const f of files) {
      const buf = readFileSync(join(ROOT, f));
      if (buf.includes(0)) continue; // binary
      for (const hit of offending(buf.toString("utf8"))) found.push(`${f}:${hit}`);
    }
    expect(found).toEqual([]);
  });

  test("the scan can fail: each outside form is caught, inside paths are not", () => {
    const bad = [
      "see " + "DES" + "IGN.md §2",
      "(DESI" + "GN §6)",
      "TOOL" + "CHAIN.md says",
      "../" + "sha" + "red/refer" + "ence/README.md",
      "/work/" + "shared/x",
      'join(ROOT, "..", "sh' + 'ared")',
    ];
    for (const line of bad) expect(offending(line), line).toHaveLength(1);
    for (const line of [
      "docs/architecture.md §2",
      "test/fixtures/claude-reference/turns.json",
      "src/engine/shared.ts",
      "../docs/vouch.schema.json",
    ]) {
      expect(offending(line), line).toEqual([]);
    }
  });
});

describe("docs/architecture.md is current with the code", () => {
  const page = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");

  test("every repository path it names exists", () => {
    const paths = [...page.matchAll(/`((?:src|test|docs|graphs|bench|scripts)\/[^`\s:]+)`/g)].map((m) => m[1]!.replace(/[#].*$/, ""));
    expect(paths.length).toBeGreaterThan(20);
    const missing = paths.filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  test("every `name` it places in a file (`name` in `src/x.ts`) is defined in that file", () => {
    const places = [...page.matchAll(/`([A-Za-z_][\w.]*)(?:\(\))?` in `(src\/[^`]+\.tsx?)`/g)].map((m) => ({
      name: m[1]!.split(".").pop()!,
      file: m[2]!,
    }));
    expect(places.length).toBeGreaterThanOrEqual(5);
    const wrong = places.filter(({ name, file }) => {
      const text = existsSync(join(ROOT, file)) ? readFileSync(join(ROOT, file), "utf8") : "";
      return !new RegExp(
        String.raw`(function\*?|class|const|let|interface|type|enum)\s+${name}\b|^\s+(private\s+|readonly\s+|async\s+)*${name}\s*[(<]`,
        "m",
      ).test(text);
    });
    expect(wrong.map((w) => `${w.name} in ${w.file}`)).toEqual([]);
  });

  test("the page names the files of the five things a newcomer looks for first", () => {
    for (const file of [
      "src/spawn/process.ts",
      "src/engine/events.ts",
      "src/engine/scheduler/dag-scheduler.ts",
      "src/engine/verdict/conjunction.ts",
      "src/ledger/event-writer.ts",
    ]) {
      expect(page).toContain(`\`${file}\``);
    }
  });

  test("each relative markdown link in docs/ resolves", () => {
    const broken: string[] = [];
    for (const f of textFiles("docs").filter((x) => x.endsWith(".md"))) {
      const text = readFileSync(join(ROOT, f), "utf8");
      for (const m of text.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)/g)) {
        const target = join(ROOT, f, "..", m[1]!);
        if (!existsSync(target)) broken.push(`${f} -> ${m[1]} (${relative(ROOT, target)})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
