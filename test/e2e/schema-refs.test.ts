// An output schema's $ref that cannot resolve inside the schema (issue 27 item 14),
// through the binary: `vouch validate` and `vouch run` refuse it alike, at the
// reference's line, and nothing is fetched (a local server counts every request).
// Test first: validate passed (exit 0) and run refused at 1:1.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";

let requests = 0;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => {
    requests++;
    return Response.json({ type: "string" });
  },
});
beforeAll(() => void ensureBinary(), 120_000);
afterAll(() => void server.stop(true));
let dir: TempDir;
beforeEach(() => (dir = tempDir("schema-refs")));
afterEach(() => dir.cleanup());

const GRAPH = (ref: string) => `version: 1
name: refs
nodes:
  a:
    kind: agent
    harness: replay
    prompt: answer
    output:
      format: json
      schema:
        type: object
        properties:
          verdict: { $ref: "${ref}" }
`;

test.each([
  [`http://127.0.0.1:${server.port}/verdict.json`, "points at http:"],
  ["file:///etc/passwd", "points at file:"],
  ["#/$defs/verdict", "names nothing in the schema"],
])("$ref %s: validate and run refuse it at 13:28, and nothing is fetched", async (ref, why) => {
  const file = join(dir.path, "g.yaml");
  writeFileSync(file, GRAPH(ref));
  const home = join(dir.path, "home");
  const validated = await vouch(["validate", file], { home, cwd: dir.path });
  const ran = await vouch(["run", file, "--replay-dir", dir.path], { home, cwd: dir.path });
  for (const r of [validated, ran]) {
    expect(r.code, r.stderr).toBe(2);
    const said = r.stdout + r.stderr; // validate prints the problems on stdout, run on stderr
    expect(said).toContain(`${file}:13:28: output.schema: $ref ${why}`);
    expect(said).not.toContain(":1:1:");
  }
  expect(requests).toBe(0);
});
