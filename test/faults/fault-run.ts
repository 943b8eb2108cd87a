// The fault suite's harness: the real binary (dist/vouch) with the stub
// harnesses first on PATH, a temp folder per case (graph, VOUCH_HOME, the
// stub's pid file), and the three facts every case asserts afterwards — the
// node's status in `vouch show --json`, a sound ledger file, and no live
// process left in any process group the stub recorded.
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, ROOT } from "../graph/binary.ts";
import { eventually, groupAlive } from "../spawn/helpers.ts";

export const HARNESS_STUBS = join(ROOT, "test", "stubs", "harness");
/** The stub variables a case may set; each is passed to the harness with --pass-env. */
const STUB_VARS = [
  "STUB_SCENARIO",
  "STUB_TURNS",
  "STUB_TURN_MS",
  "STUB_TURN_COST",
  "STUB_IGNORE_TERM",
  "STUB_PIDS",
  "STUB_FILL",
  "STUB_PLAYED",
] as const;
type StubVar = (typeof STUB_VARS)[number];

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ShownNode {
  node: string;
  status: string;
  qualifier: string | null;
  stop_reason: string | null;
  cause: string | null;
  error: string | null;
}

export interface Shown {
  run: { id: string; status: string; exit_code: number | null; sessions: number };
  sessions: { status: string }[];
  nodes: ShownNode[];
}

/** What these cases run with (see FaultCase.run). */
export const UNSEALED = ["--sandbox", "off"];

export class FaultCase {
  readonly dir: string;
  readonly home: string;
  readonly pidFile: string;
  readonly graph: string;
  private stubEnv: Partial<Record<StubVar, string>> = {};

  constructor(graphYaml: string, stub: Partial<Record<StubVar, string>> = {}) {
    ensureBinary();
    this.dir = mkdtempSync(join(tmpdir(), "vouch-fault-"));
    this.home = join(this.dir, "home");
    this.pidFile = join(this.dir, "stub.pids");
    this.graph = join(this.dir, "graph.yaml");
    writeFileSync(this.graph, graphYaml);
    this.stubEnv = { STUB_PIDS: this.pidFile, ...stub };
  }

  /** Sets a stub variable (passed to the harness with --pass-env from then on). */
  stub(name: StubVar, value: string): void {
    this.stubEnv[name] = value;
  }

  /** The environment vouch runs with: stubs first on PATH, VOUCH_HOME in the temp folder. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: `${HARNESS_STUBS}:/usr/local/bin:/usr/bin:/bin`,
      HOME: this.dir,
      VOUCH_HOME: this.home,
      ...(this.stubEnv as Record<string, string>),
      ...extra,
    };
  }

  /** --pass-env for every stub variable this case sets. */
  passEnv(): string[] {
    return Object.keys(this.stubEnv).flatMap((k) => ["--pass-env", k]);
  }

  /** Starts `vouch ARGS` (not waiting): for cases that kill it. */
  spawn(args: string[], extraEnv: Record<string, string> = {}) {
    return Bun.spawn([join(ROOT, "dist", "vouch"), ...args], { cwd: this.dir, env: this.env(extraEnv), stdout: "pipe", stderr: "pipe" });
  }

  async vouch(args: string[], extraEnv: Record<string, string> = {}): Promise<Ran> {
    const p = this.spawn(args, extraEnv);
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, stdout, stderr };
  }

  /** `vouch run graph.yaml --json` with the stub variables passed through. Unsealed: these cases
   *  hold the process-group machinery (ADR 0004) to the pids the stubs record, and a sealed stub
   *  records its own namespace's (ADR 0040: its group's leader is outside it, so its pgid reads 0). */
  run(extraArgs: string[] = [], extraEnv: Record<string, string> = {}): Promise<Ran> {
    return this.vouch(["run", this.graph, "--json", ...UNSEALED, ...this.passEnv(), ...extraArgs], extraEnv);
  }

  async show(run = "last"): Promise<Shown> {
    const r = await this.vouch(["show", run, "--json"]);
    if (r.code !== 0) throw new Error(`vouch show ${run} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Shown;
  }

  async node(id: string, run = "last"): Promise<ShownNode> {
    const n = (await this.show(run)).nodes.find((x) => x.node === id);
    if (!n) throw new Error(`node ${id} is not in vouch show ${run}`);
    return n;
  }

  /** PRAGMA integrity_check of the ledger file, opened read-only. */
  integrity(): string {
    const db = new Database(join(this.home, "ledger.sqlite"), { readonly: true });
    try {
      return (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
    } finally {
      db.close();
    }
  }

  /** Every "pid pgid" the stubs recorded (one line per process). */
  recorded(): { pid: number; pgid: number }[] {
    if (!existsSync(this.pidFile)) return [];
    return readFileSync(this.pidFile, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => {
        const [pid, pgid] = l.split(" ").map(Number);
        return { pid: pid!, pgid: pgid! };
      });
  }

  /** The process groups the stubs ran in; each must hold no live process (never 0 or 1: a kill(-0)
   *  would be this test's own group).
   *  SIGKILL is delivered asynchronously: a group gets 2 s to finish dying,
   *  far below the 30 s a forgotten stub or grandchild would live. */
  async liveGroups(): Promise<number[]> {
    const groups = [...new Set(this.recorded().map((r) => r.pgid))].filter((g) => g > 1);
    await eventually(() => groups.every((g) => !groupAlive(g)), 2000);
    return groups.filter(groupAlive);
  }

  /** Kills what a failed case left behind, then removes the folder. */
  cleanup(): void {
    for (const { pgid } of this.recorded()) {
      if (pgid <= 1) continue; // kill(-0) is this test's own group
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {
        // gone
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A graph of one claude agent node `work` with the given caps (a YAML flow map) and extra node fields. */
export function agentGraph(caps = "{ wall: 20s }", extra = ""): string {
  return `version: 1
name: fault
nodes:
  work:
    kind: agent
    harness: claude
    prompt: do the work
    caps: ${caps}
${extra}`;
}
