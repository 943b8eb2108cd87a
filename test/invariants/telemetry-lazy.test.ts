// OpenTelemetry costs a run nothing unless an endpoint is set (issue 30, ADR 0059): the
// binary's bundle (build.ts BUNDLE_OPTIONS, split into chunks) is run as `vouch run` under
// strace, and the chunks it opens are counted. Without OTEL_EXPORTER_OTLP_ENDPOINT no
// chunk holding OpenTelemetry code is opened (nothing loaded, so nothing can be sent);
// with it they are (the check can fail). Counts of files, not time.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { BUNDLE_OPTIONS } from "../../build.ts";
import { startReceiver, type Receiver } from "../telemetry/otlp-receiver.ts";

const hasStrace = Bun.spawnSync(["sh", "-c", "command -v strace"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const out = mkdtempSync(join(tmpdir(), "vouch-otel-chunks-"));
const GRAPH = join(import.meta.dirname, "..", "telemetry", "graphs", "traced.yaml");
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Markers that survive minification: the OTLP exporter's user agent, the API's global key, the SDK's batch processor. */
const MARKERS = ["OTel-OTLP-Exporter-JavaScript", "opentelemetry.js.api.", "BatchSpanProcessor"];

let otelChunks: string[] = [];
let entry = "";
let receiver: Receiver;

beforeAll(async () => {
  const built = await Bun.build({ ...BUNDLE_OPTIONS, bytecode: false, target: "bun", outdir: out });
  expect(built.success).toBe(true);
  entry = built.outputs.find((o) => o.kind === "entry-point")!.path;
  otelChunks = built.outputs.filter((o) => MARKERS.some((m) => readFileSync(o.path, "utf8").includes(m))).map((o) => basename(o.path));
  receiver = startReceiver();
}, 120_000);
afterAll(() => receiver?.stop());

/** The chunk files of the bundle that `bun ENTRY run GRAPH` opened. */
async function openedChunks(env: Record<string, string>): Promise<string[]> {
  const log = join(out, `trace-${Math.random().toString(36).slice(2)}.txt`);
  // Not spawnSync: the receiver answers from this process's event loop.
  const p = Bun.spawn(["strace", "-f", "-qq", "-o", log, "-e", "trace=openat,open", process.execPath, entry, "run", GRAPH, "--plain"], {
    cwd: out,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: out, VOUCH_HOME: join(out, `home-${Math.random()}`), ...env },
  });
  const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  expect(code, stderr).toBe(1); // the graph has a FAIL
  const opened = [...readFileSync(log, "utf8").matchAll(/open(?:at)?\([^"]*"([^"]+)"/g)]
    .map((m) => m[1]!)
    .filter((p) => p.startsWith(out) && p.endsWith(".js"));
  return [...new Set(opened.map((p) => basename(p)))];
}

describe.skipIf(!hasStrace)("OpenTelemetry is loaded only when an endpoint is set (strace)", () => {
  test("the bundle holds OpenTelemetry in chunks of its own, apart from the entry", () => {
    expect(otelChunks.length).toBeGreaterThan(0);
    expect(otelChunks).not.toContain(basename(entry));
  });

  test("vouch run without OTEL_EXPORTER_OTLP_ENDPOINT opens none of them and sends nothing; with it, it opens them", async () => {
    const plain = await openedChunks({});
    console.log(`[otel] vouch run opened ${plain.length} chunk(s) without an endpoint`);
    expect(plain.length).toBeGreaterThan(1); // the trace sees chunks at all
    expect(plain.filter((c) => otelChunks.includes(c))).toEqual([]);
    expect(receiver.requests).toBe(0);
    const traced = await openedChunks({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    console.log(`[otel] vouch run opened ${traced.length} chunk(s) with an endpoint`);
    expect(traced.filter((c) => otelChunks.includes(c)).length).toBeGreaterThan(0);
    expect(receiver.spans.length).toBeGreaterThan(0);
  }, 120_000);
});
