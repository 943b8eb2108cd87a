// The shipped graphs point editors at docs/vouch.schema.json
// (`# yaml-language-server: $schema=../docs/vouch.schema.json`): that file must
// exist and be what `vouch schema` prints today.
// Regenerate it with: ./dist/vouch schema > docs/vouch.schema.json
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { graphJsonSchema } from "../../src/engine/graph/schema.ts";
import { ROOT } from "../graph/binary.ts";

const SCHEMA_FILE = join(ROOT, "docs", "vouch.schema.json");

describe("docs/vouch.schema.json", () => {
  test("is what vouch schema prints", () => {
    expect(existsSync(SCHEMA_FILE), "docs/vouch.schema.json is missing: ./dist/vouch schema > docs/vouch.schema.json").toBe(true);
    expect(readFileSync(SCHEMA_FILE, "utf8"), "stale: ./dist/vouch schema > docs/vouch.schema.json").toBe(
      `${JSON.stringify(graphJsonSchema(), null, 2)}\n`,
    );
  });

  test("every $schema= comment in a shipped graph names a file that exists", () => {
    const graphs = readdirSync(join(ROOT, "graphs")).filter((f) => /\.ya?ml$/.test(f));
    expect(graphs.length).toBeGreaterThan(0);
    for (const g of graphs) {
      const file = join(ROOT, "graphs", g);
      const m = /^# yaml-language-server: \$schema=(\S+)$/m.exec(readFileSync(file, "utf8"));
      if (m) expect(existsSync(resolve(dirname(file), m[1]!)), `${g}: ${m[1]}`).toBe(true);
    }
  });
});
