// Running the real compiled binary (dist/vouch) with a real CLI: the pinned
// CLIs first on PATH, a throwaway HOME, the fake model server's address and a
// fake key in the environment, passed to the CLI by name with --pass-env (vouch
// passes nothing else through). Also running a CLI directly, without vouch,
// for the fixture-shape tests.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EventOf, VouchEvent } from "../../../src/engine/events.ts";
import { BINARY, ensureBinary } from "../../graph/binary.ts";
import { parseNdjson } from "../../e2e/helpers.ts";
import { CLIS_BIN, cliPath, systemPath, type CliName } from "./clis.ts";
import type { ThrowawayHome } from "./home.ts";

export interface ContractRun {
  cli: CliName;
  home: ThrowawayHome;
  /** The graph's YAML text; written to the work folder as graph.yaml. */
  graph: string;
  /** Variables the CLI needs (base URL, fake key, retry settings): set and passed by name. */
  env: Record<string, string>;
  /** More `vouch run` arguments (--budget 0.5, -i x=y ...). */
  args?: string[];
  /** A backstop so a hung CLI cannot hang the suite: vouch gets SIGINT after this (default 120 s). */
  killAfterMs?: number;
}

export interface ContractResult {
  code: number;
  stdout: string;
  stderr: string;
  events: VouchEvent[];
  /** The node.finished event of `node` (throws when there is none). */
  finished(node: string): EventOf<"node.finished">;
  overruns(): EventOf<"cap.overrun">[];
  progress(node: string): EventOf<"node.progress">[];
  run(): EventOf<"run.finished">;
}

/** PATH with the pinned CLIs first. */
export function contractPath(): string {
  return `${CLIS_BIN}:${systemPath()}`;
}

export async function runThroughVouch(r: ContractRun): Promise<ContractResult> {
  ensureBinary();
  const graphPath = join(r.home.work, "graph.yaml");
  writeFileSync(graphPath, r.graph);
  const passEnv = Object.keys(r.env).flatMap((name) => ["--pass-env", name]);
  const argv = [BINARY, "run", graphPath, "--json", "--harness", r.cli, ...passEnv, ...(r.args ?? [])];
  const env = { PATH: contractPath(), HOME: r.home.home, TZ: "UTC", VOUCH_HOME: r.home.vouchHome, ...r.env };
  const p = Bun.spawn(argv, { cwd: r.home.work, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill("SIGINT"), r.killAfterMs ?? 120_000);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  const events = parseNdjson(stdout);
  return {
    code,
    stdout,
    stderr,
    events,
    finished(node) {
      const e = events.find((x): x is EventOf<"node.finished"> => x.type === "node.finished" && x.node === node);
      if (!e) throw new Error(`no node.finished for ${node}; exit ${code}; stderr: ${stderr.slice(-500)}`);
      return e;
    },
    overruns: () => events.filter((x): x is EventOf<"cap.overrun"> => x.type === "cap.overrun"),
    progress: (node) => events.filter((x): x is EventOf<"node.progress"> => x.type === "node.progress" && x.node === node),
    run() {
      const e = events.find((x): x is EventOf<"run.finished"> => x.type === "run.finished");
      if (!e) throw new Error(`no run.finished; exit ${code}; stderr: ${stderr.slice(-500)}`);
      return e;
    },
  };
}

export interface CliRun {
  home: ThrowawayHome;
  argv: string[];
  env: Record<string, string>;
  stdin?: string;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the pinned CLI itself (no vouch) in the work folder with only PATH, HOME, TZ and `env`. */
export async function runCli(cli: CliName, r: CliRun): Promise<CliResult> {
  const env = { PATH: contractPath(), HOME: r.home.home, TZ: "UTC", ...r.env };
  const p = Bun.spawn([cliPath(cli), ...r.argv], {
    cwd: r.home.work,
    env,
    stdin: r.stdin === undefined ? "ignore" : new Blob([r.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/** Another vouch command (show, runs) against the same throwaway home's ledger. */
export async function vouchIn(home: ThrowawayHome, args: string[]): Promise<CliResult> {
  ensureBinary();
  const env = { PATH: contractPath(), HOME: home.home, TZ: "UTC", VOUCH_HOME: home.vouchHome };
  const p = Bun.spawn([BINARY, ...args], { cwd: home.work, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}
