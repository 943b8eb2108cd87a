// `vouch mcp serve` driven by the MCP SDK's own client (ADR 0065), through the real
// binary: a verified run started, awaited and reported; a planned graph with a command
// refused with the reason; paths outside the root refused (.., absolute, a symbolic
// link, a checks file outside); inputs as data; no tool decides an approval (a person
// does, with vouch approve); closing the client stops the runs it started.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";
import { call, mcpClient, mcpWorld, PLANNED_COMMAND, PLANNED_OK, WRITER, type McpWorld } from "./mcp-helpers.ts";
import { gatedMapGraph, release } from "./remote-helpers.ts";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { HAVE_BWRAP } from "../spawn/helpers.ts";

let dir: TempDir;
let w: McpWorld;
let client: Client | null = null;
beforeEach(async () => {
  await ensureBinary();
  dir = tempDir("mcp");
  w = mcpWorld(dir.path);
});
afterEach(async () => {
  await client?.close();
  client = null;
  dir.cleanup();
});

const v = (args: string[]) => vouch(args, { home: w.home, cwd: w.root });

describe("vouch mcp serve with the SDK's client", { timeout: 60_000 }, () => {
  test("its tools: validate, start, status, events, wait, cancel, show, report, runs, checks — none decides an approval", async () => {
    client = await mcpClient(w);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "cancel_run",
        "list_checks",
        "list_runs",
        "run_events",
        "run_report",
        "run_status",
        "show_run",
        "start_run",
        "validate_graph",
        "wait_run",
      ].sort(),
    );
    expect(tools.some((t) => /approv|reject|decid/i.test(t.name))).toBe(false);
    const checks = await call(client, "list_checks");
    expect(JSON.parse(checks.text)).toEqual([
      expect.objectContaining({ name: "has-out", run: "test -s out.txt", file: "vouch.checks.yaml" }),
    ]);
  });

  test("a verified run: started in the background, awaited, shown and reported; inputs reach it as data", async () => {
    client = await mcpClient(w);
    expect((await call(client, "validate_graph", { path: "ok.yaml" })).value).toMatchObject({ valid: true, problems: [] });
    const hostile = "@/etc/passwd $(touch PWNED) `touch PWNED2`";
    const started = await call(client, "start_run", { path: "ok.yaml", inputs: { word: hostile } });
    expect(started.isError, started.text).toBe(false);
    const run = started.value.run as string;
    expect(run).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    const waited = await call(client, "wait_run", { run, timeout_seconds: 30 });
    expect(waited.value).toMatchObject({ run, ended: true, status: "passed", exit_code: 0 });
    expect(readFileSync(join(w.root, "out.txt"), "utf8")).toBe(hostile);
    expect(existsSync(join(w.root, "PWNED")) || existsSync(join(w.root, "PWNED2"))).toBe(false);
    const report = await call(client, "run_report", { run });
    expect(report.text).toContain("vouch: `ok` passed (exit 0)");
    expect(report.text).toMatch(/\| make \| ✅ passed \| verified \|/);
    expect((await call(client, "show_run", { run })).text).toMatch(/make +passed \(verified\)/);
    expect((await call(client, "run_status", { run })).value).toMatchObject({ status: "passed", live: false, exit_code: 0 });
    const page = await call(client, "run_events", { run, limit: 2 });
    expect((page.value.events as unknown[]).length).toBe(2);
    expect(page.value).toMatchObject({ more: true, next_after_seq: 1 });
    const rest = await call(client, "run_events", { run, after_seq: 1, limit: 500 });
    expect((rest.value.events as { type: string }[]).at(-1)!.type).toBe("run.finished");
    expect(((await call(client, "list_runs")).text.match(new RegExp(run, "g")) ?? []).length).toBe(1);
    // The same run through the command line: the ledger is the server's root's.
    expect((await v(["show", run, "--json"])).code).toBe(0);
  });

  test("a graph passed as text is a planned graph: one with a command is refused with the reason; one naming library checks runs verified", async () => {
    client = await mcpClient(w, { VOUCH_COMMAND: WRITER });
    const refused = await call(client, "start_run", { graph: PLANNED_COMMAND });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("the graph is refused: it is a planned graph (origin: planned)");
    expect(refused.text).toMatch(/run: commands are refused in a planned graph \(origin: planned\)/);
    const asValidate = await call(client, "validate_graph", { graph: PLANNED_COMMAND });
    expect(asValidate.value).toMatchObject({ valid: false, origin: "planned" });
    const ok = await call(client, "validate_graph", { graph: PLANNED_OK });
    expect(ok.value).toMatchObject({ valid: true, origin: "planned" });
    expect(ok.value.graph).toMatch(/origin: planned\nchecks_from: \[ \.\.?\/.*vouch\.checks\.yaml \]/);
  });

  test("a planned graph runs verified with the server's library (VOUCH_COMMAND passed with --pass-env)", async () => {
    client = await mcpClient(w, { VOUCH_COMMAND: WRITER }, ["--pass-env", "VOUCH_COMMAND"]);
    const started = await call(client, "start_run", { graph: PLANNED_OK });
    expect(started.isError, started.text).toBe(false);
    const waited = await call(client, "wait_run", { run: started.value.run, timeout_seconds: 30 });
    expect(waited.value).toMatchObject({ status: "passed" });
    expect((await call(client, "run_report", { run: started.value.run })).text).toMatch(/\| write \| ✅ passed \| verified \|/);
    // The run has the default sandbox (auto): its agent's sitting ran sealed where bubblewrap works.
    const events = JSON.parse((await call(client, "run_events", { run: started.value.run, limit: 500 })).text).events as VouchEvent[];
    const begun = events.find((e) => e.type === "run.started");
    expect(begun && "sandbox" in begun ? begun.sandbox : undefined).toBeUndefined();
    const write = events.find((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === "write");
    expect(write?.sealed).toBe(HAVE_BWRAP);
  });

  test("paths outside the root are refused: .., an absolute path, a symbolic link out, a checks file outside", async () => {
    client = await mcpClient(w);
    symlinkSync(join(w.outside, "secret.yaml"), join(w.root, "link.yaml"));
    writeFileSync(
      join(w.root, "reaches.yaml"),
      readFileSync(join(w.root, "ok.yaml"), "utf8").replace("./vouch.checks.yaml", "../outside/lib.checks.yaml"),
    );
    writeFileSync(join(w.outside, "lib.checks.yaml"), "checks:\n  has-out: { run: 'true' }\n");
    for (const [path, said] of [
      ["../outside/secret.yaml", "is outside the server's root"],
      [join(w.outside, "secret.yaml"), "is outside the server's root"],
      ["link.yaml", "leads outside the server's root (" + w.root + ") through a symbolic link"],
      ["reaches.yaml", "checks file ../outside/lib.checks.yaml (of reaches.yaml)"],
      ["missing.yaml", "no such file under the root"],
    ] as const) {
      const r = await call(client, "start_run", { path });
      expect(r.isError, path).toBe(true);
      expect(r.text, path).toContain(said);
    }
    expect((await call(client, "validate_graph", { path: "link.yaml" })).text).toContain("through a symbolic link");
    // Nothing was started: no run is recorded.
    expect(!existsSync(w.home) || JSON.parse((await v(["runs", "--json"])).stdout).length === 0).toBe(true);
  });

  test("an approval waits for a person: the client sees it waiting, vouch approve decides it, the client's wait ends", async () => {
    client = await mcpClient(w);
    writeFileSync(join(w.root, "gated.yaml"), gatedMapGraph(w.root, { items: 2 }));
    release(w.root, "all");
    const started = await call(client, "start_run", { path: "gated.yaml", wait_approvals: true });
    const run = started.value.run as string;
    let status = await call(client, "run_status", { run });
    while (!status.value.waiting_approvals) status = await call(client, "run_status", { run });
    expect(status.value.waiting_approvals).toEqual([
      { node: "gate", prompt: "ship it?", decided_by: `a person: vouch approve ${run} gate (or vouch reject)` },
    ]);
    expect((await v(["approve", run, "gate"])).code).toBe(0);
    expect((await call(client, "wait_run", { run, timeout_seconds: 30 })).value).toMatchObject({ status: "passed" });
  });

  test("cancel_run stops a running run (interrupted, resumable); closing the client stops the runs it started", async () => {
    client = await mcpClient(w);
    writeFileSync(join(w.root, "gated.yaml"), gatedMapGraph(w.root, { items: 2, gate: false }));
    const a = (await call(client, "start_run", { path: "gated.yaml" })).value.run as string;
    const cancelled = await call(client, "cancel_run", { run: a });
    expect(cancelled.value).toMatchObject({ run: a, cancelled: true, status: "interrupted", exit_code: 130 });
    const b = (await call(client, "start_run", { path: "gated.yaml" })).value.run as string;
    await client.close();
    client = null;
    let runs = (await v(["runs", "--json"])).stdout;
    while (JSON.parse(runs).find((r: { id: string }) => r.id === b).live) runs = (await v(["runs", "--json"])).stdout;
    const shownB = (await v(["show", b])).stdout;
    expect(
      JSON.parse(runs).find((r: { id: string }) => r.id === b),
      shownB,
    ).toMatchObject({ status: "interrupted", exit_code: 130 });
    release(w.root, "all");
    expect((await v(["resume", b, "--json"])).code).toBe(0);
  });

  test("bad arguments are tool errors with the reason, never a crash of the server", async () => {
    client = await mcpClient(w);
    expect((await call(client, "start_run", {})).text).toContain("give exactly one of path");
    expect((await call(client, "start_run", { path: "ok.yaml", harness: "nope" })).text).toContain('harness "nope" is not a harness');
    expect((await call(client, "start_run", { path: "ok.yaml", inputs: { "__proto__x y": 1 } })).text).toContain(
      "is not a valid input name",
    );
    expect((await call(client, "run_status", { run: "nope" })).isError).toBe(true);
    // Still serving.
    expect((await call(client, "validate_graph", { path: "ok.yaml" })).value.valid).toBe(true);
  });
});
