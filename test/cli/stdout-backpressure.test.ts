// A reader slower than vouch holds vouch back; it does not make vouch hold what is unread
// (ADR 0086). Through processIO(), as the binary writes, in a child whose stdout is a pipe:
// the child's 8 MiB of writes return only once the reader has taken all but the pipe's own
// buffer and one slice. With process.stdout.write (Bun buffers a pipe without bound) they
// returned at once, with almost all of it still unread, held in the child's memory.
import { join } from "node:path";
import { expect, test } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const TOTAL = 8 * 1024 * 1024;
const CHILD = `
import { processIO } from ${JSON.stringify(join(ROOT, "src/cli/io.ts"))};
const io = processIO();
const line = "x".repeat(1023) + "\\n";
for (let i = 0; i < ${TOTAL / 1024}; i++) io.out(line);
process.stderr.write("returned\\n");
`;

test("writes to a pipe return only when the reader has nearly caught up: at most ~1 MiB unread", async () => {
  const child = Bun.spawn([process.execPath, "-e", CHILD], { stdin: "ignore", stdout: "pipe", stderr: "pipe", cwd: ROOT });
  let read = 0;
  let readWhenReturned = -1;
  let stderr = "";
  const errs = (async () => {
    for await (const chunk of child.stderr) {
      stderr += new TextDecoder().decode(chunk);
      if (readWhenReturned < 0 && stderr.includes("returned")) readWhenReturned = read;
    }
  })();
  // A slow reader: a pause after each chunk (pacing only; nothing below is timed).
  for await (const chunk of child.stdout) {
    read += chunk.length;
    await Bun.sleep(1);
  }
  await errs;
  expect(await child.exited).toBe(0);
  expect(read).toBe(TOTAL);
  expect(readWhenReturned).toBeGreaterThanOrEqual(TOTAL - 1024 * 1024);
}, 60_000);
