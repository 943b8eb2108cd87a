// Shell completion runs on every Tab: it must never write (ADR 0070). Read with
// the TypeScript parser: the completion code (src/cli/completion/ and
// src/cli/complete-command.ts) never imports the ledger's index or open.ts, whose
// readers open as a writer when they may (it opens the file itself, read-only or
// immutable: openForCompletion), and takes nothing from node:fs but existsSync.
// shells.test.ts checks the ledger folder is unchanged after completing.
import { describe, expect, test } from "vitest";
import { ROOT } from "./source-scan.ts";
import { scanProject, type FileFacts } from "./ts-facts.ts";
import { target } from "./layer-rules.ts";

const WRITER_OPENS = new Set(["src/ledger/index.ts", "src/ledger/open.ts", "src/ledger/permissions.ts"]);
const isCompletion = (f: string) => f.startsWith("src/cli/completion/") || f === "src/cli/complete-command.ts";

function offenders(facts: ReadonlyMap<string, FileFacts>): string[] {
  const out: string[] = [];
  for (const [f, x] of facts) {
    if (!isCompletion(f)) continue;
    for (const i of x.imports) {
      if (i.typeOnly) continue;
      const t = target(f, i.spec);
      if (WRITER_OPENS.has(t)) out.push(`${f} -> ${i.spec}`);
      if ((i.spec === "node:fs" || i.spec === "fs" || i.spec === "node:fs/promises") && i.names.some((n) => n !== "existsSync"))
        out.push(`${f} -> ${i.spec} (${i.names.join(", ")})`);
    }
  }
  return out;
}

describe("completion only reads", () => {
  test("no completion file opens the ledger as a writer or imports a file-writing function", async () => {
    const facts = await scanProject(ROOT, ["src/cli"]);
    expect([...facts.keys()].filter(isCompletion).length).toBeGreaterThanOrEqual(5);
    expect(offenders(facts)).toEqual([]);
  }, 120_000);

  test("the rule fails on a file that does", () => {
    const planted = new Map<string, FileFacts>([
      [
        "src/cli/completion/bad.ts",
        {
          imports: [{ spec: "../../ledger/index.ts", typeOnly: false, names: ["openLedgerForReading"] }],
          accesses: [],
          lines: 1,
          functions: [],
        },
      ],
      [
        "src/cli/complete-command.ts",
        { imports: [{ spec: "node:fs", typeOnly: false, names: ["existsSync", "writeFileSync"] }], accesses: [], lines: 1, functions: [] },
      ],
      [
        "src/cli/run-command.ts",
        { imports: [{ spec: "../ledger/index.ts", typeOnly: false, names: ["openLedger"] }], accesses: [], lines: 1, functions: [] },
      ],
    ]);
    expect(offenders(planted)).toEqual([
      "src/cli/completion/bad.ts -> ../../ledger/index.ts",
      "src/cli/complete-command.ts -> node:fs (existsSync, writeFileSync)",
    ]);
  });
});
