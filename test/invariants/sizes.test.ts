// Small named pieces (docs/architecture.md §2, "Size"): in the folders this test
// names, no file is over 300 lines and no function over 60, read with the
// TypeScript parser (a function is every declaration, method, accessor, arrow and
// function expression; its lines run from its first token to its last, leading
// comments left out). An exception is listed with its reason in EXCEPTIONS and in
// docs/architecture.md; one that no longer exceeds fails, so the list stays true.
// The rule also runs on a planted tree that breaks it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { API } from "typescript/unstable/async";
import { SyntaxKind, type Node } from "typescript/unstable/ast";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROOT } from "./source-scan.ts";

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 60;
/** Folders held to the limits, and what inside them is not (yet). */
const FOLDERS = ["src/engine/run", "src/spawn"];
const NOT_HELD = ["src/spawn/harness/"];
/** "file" or "file:function" → why it may exceed. Empty today. */
const EXCEPTIONS: Record<string, string> = {};

const FUNCTIONS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.ArrowFunction,
  SyntaxKind.FunctionExpression,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

interface Sizes {
  files: Map<string, number>;
  /** "file:name@line" → lines. */
  functions: Map<string, number>;
}

/** The text of a node without the comments and blank lines before it. */
function ownText(text: string, n: Node): { start: number; body: string } {
  let at = n.pos;
  for (;;) {
    const rest = text.slice(at);
    const ws = rest.length - rest.trimStart().length;
    at += ws;
    if (text.startsWith("//", at)) at = text.indexOf("\n", at) + 1 || text.length;
    else if (text.startsWith("/*", at)) at = text.indexOf("*/", at) + 2;
    else if (ws === 0) break;
  }
  return { start: at, body: text.slice(at, n.end) };
}

async function measure(root: string, folders: string[]): Promise<Sizes> {
  const api = new API({ cwd: root });
  const sizes: Sizes = { files: new Map(), functions: new Map() };
  try {
    const snapshot = await api.updateSnapshot({ openProject: join(root, "tsconfig.json") });
    const program = snapshot.getProjects()[0]!.program;
    for (const name of await program.getSourceFileNames()) {
      const rel = relative(root, name);
      if (!/\.tsx?$/.test(rel) || !folders.some((d) => rel.startsWith(`${d}/`)) || NOT_HELD.some((d) => rel.startsWith(d))) continue;
      const text = readFileSync(name, "utf8");
      sizes.files.set(rel, text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
      const visit = (n: Node): void => {
        if (FUNCTIONS.has(n.kind)) {
          const { start, body } = ownText(text, n);
          const line = text.slice(0, start).split("\n").length;
          const named =
            (n as Node & { name?: { text?: string } }).name?.text ?? (n.kind === SyntaxKind.Constructor ? "constructor" : "(anonymous)");
          sizes.functions.set(`${rel}:${named}@${line}`, body.split("\n").length);
        }
        n.forEachChild(visit);
      };
      (await program.getSourceFile(name))!.forEachChild(visit);
    }
    return sizes;
  } finally {
    await api.close();
  }
}

/** What exceeds a limit and is not an exception. */
export function oversized(s: Sizes, exceptions: Record<string, string> = EXCEPTIONS): string[] {
  const out: string[] = [];
  for (const [f, n] of s.files) if (n > MAX_FILE_LINES && !(f in exceptions)) out.push(`${f}: ${n} lines`);
  for (const [key, n] of s.functions) {
    if (n <= MAX_FUNCTION_LINES) continue;
    const [where] = key.split("@");
    if (!(where! in exceptions)) out.push(`${key}: ${n} lines`);
  }
  return out.sort();
}

/** Exceptions nothing needs any more. */
export function staleExceptions(s: Sizes, exceptions: Record<string, string> = EXCEPTIONS): string[] {
  const big = new Set<string>();
  for (const [f, n] of s.files) if (n > MAX_FILE_LINES) big.add(f);
  for (const [key, n] of s.functions) if (n > MAX_FUNCTION_LINES) big.add(key.split("@")[0]!);
  return Object.keys(exceptions).filter((e) => !big.has(e));
}

const long = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
const PLANTED: Record<string, string> = {
  "src/spawn/big-file.ts": `${Array.from({ length: MAX_FILE_LINES + 1 }, (_, i) => `export const c${i} = ${i};`).join("\n")}\n`,
  "src/spawn/fits.ts": `${Array.from({ length: MAX_FILE_LINES }, (_, i) => `export const c${i} = ${i};`).join("\n")}\n`,
  // 61 lines from `export function` to its brace; the comment above does not count.
  "src/engine/run/long-fn.ts": `// a comment\n// another\nexport function tooLong(): number {\n${long(MAX_FUNCTION_LINES - 2)}\n  return 0;\n}\n`,
  "src/engine/run/just-fits.ts": `/** A doc comment\n * over lines */\nexport const fits = () => {\n${long(MAX_FUNCTION_LINES - 3)}\n  return 0;\n};\n`,
  "src/spawn/harness/not-held.ts": `${Array.from({ length: MAX_FILE_LINES + 5 }, (_, i) => `export const c${i} = ${i};`).join("\n")}\n`,
};

let real: Sizes;
let planted: Sizes;
let plantedRoot: string;

beforeAll(async () => {
  plantedRoot = mkdtempSync(join(tmpdir(), "vouch-sizes-"));
  writeFileSync(
    join(plantedRoot, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, allowJs: false }, include: ["src"] }),
  );
  for (const [file, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(plantedRoot, file)), { recursive: true });
    writeFileSync(join(plantedRoot, file), text);
  }
  [real, planted] = await Promise.all([measure(ROOT, FOLDERS), measure(plantedRoot, FOLDERS)]);
}, 120_000);

afterAll(() => {
  if (plantedRoot) rmSync(plantedRoot, { recursive: true, force: true });
});

describe(`no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES} in ${FOLDERS.join(", ")} (not ${NOT_HELD.join(", ")})`, () => {
  test("every file of the folders is measured", () => {
    expect(real.files.size).toBeGreaterThan(40);
    expect(real.files.has("src/spawn/process.ts")).toBe(true);
    expect([...real.files.keys()].some((f) => f.startsWith("src/spawn/harness/"))).toBe(false);
  });
  test("nothing exceeds a limit but a listed exception", () => {
    expect(oversized(real)).toEqual([]);
  });
  test("every exception is still needed", () => {
    expect(staleExceptions(real)).toEqual([]);
  });
  test("the rule can fail: a file one line over and a function one line over are caught; what fits, and what is not held, are not", () => {
    expect(oversized(planted).map((o) => o.replace(/@\d+/, ""))).toEqual([
      "src/engine/run/long-fn.ts:tooLong: 61 lines",
      `src/spawn/big-file.ts: ${MAX_FILE_LINES + 1} lines`,
    ]);
    expect(oversized(planted, { "src/spawn/big-file.ts": "x", "src/engine/run/long-fn.ts:tooLong": "y" })).toEqual([]);
    expect(staleExceptions(planted, { "src/spawn/fits.ts": "no longer needed" })).toEqual(["src/spawn/fits.ts"]);
  });
});
