// The runs an MCP client starts (ADR 0065): each is `vouch run FILE --json` of this
// same vouch, a child process through the one process seam, in the server's root,
// recording into the server's ledger. The client gets the run's id as soon as the
// run has started (its first event); inputs reach it as files (`-i NAME=@FILE`),
// never on its command line. When the server ends, its runs are stopped as Ctrl-C
// stops them (interrupted, resumable): nothing it started runs on unattended.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputError, UsageError } from "../../engine/errors.ts";
import { buildChildEnv } from "../../spawn/child-env.ts";
import { runProcess } from "../../spawn/process.ts";
import type { ProcessSupervisor } from "../../spawn/process-registry.ts";
import { selfArgv } from "./self.ts";

export interface StartSpec {
  /** The graph file's real path (inside the root). */
  file: string;
  inputs?: Record<string, unknown>;
  harness?: string;
  waitApprovals?: boolean;
}

export interface McpRunsOptions {
  root: string;
  home: string;
  env: Record<string, string | undefined>;
  passEnv: string[];
  supervisor: ProcessSupervisor;
}

const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_INPUTS = 200;
/** What a run that did not start said, kept to say it back. */
const KEEP_STDERR = 8192;
/** A run stopped because the server ends gets this long to stop its own children and record its end. */
const STOP_GRACE_MS = 30_000;

export class McpRuns {
  constructor(private readonly o: McpRunsOptions) {}

  /** Resolves with the run's id once it has started; a run that ends before (a usage error, a
   *  refusal: exit 2) rejects with what it said. */
  start(spec: StartSpec): Promise<string> {
    const inputsDir = mkdtempSync(join(tmpdir(), "vouch-mcp-inputs-"));
    const cleanup = () => rmSync(inputsDir, { recursive: true, force: true });
    let args: string[];
    try {
      args = [...selfArgv(), "run", spec.file, "--json", ...inputArgs(spec.inputs ?? {}, inputsDir)];
    } catch (e) {
      cleanup();
      throw e;
    }
    if (spec.harness !== undefined) args.push(`--harness=${spec.harness}`);
    if (spec.waitApprovals) args.push("--wait-approvals");
    for (const n of this.o.passEnv) args.push(`--pass-env=${n}`);
    const { env } = buildChildEnv(this.o.env, this.o.passEnv, { VOUCH_HOME: this.o.home });
    return new Promise<string>((resolve, reject) => {
      let started = false;
      let stderr = "";
      void runProcess(
        { argv: args },
        {
          cwd: this.o.root,
          env,
          keepBytes: 1024,
          keepStderrBytes: KEEP_STDERR,
          graceMs: STOP_GRACE_MS,
          stopsItsChildren: true,
          supervisor: this.o.supervisor,
          onStdoutLine: (line) => {
            if (started) return;
            const id = /^\{"v":1,"run":"([^"]+)"/.exec(line)?.[1];
            if (id === undefined) return;
            started = true;
            cleanup(); // the run has read its inputs
            resolve(id);
          },
          onStderrLine: (line) => {
            if (stderr.length < KEEP_STDERR) stderr += `${line}\n`;
          },
        },
      ).then((r) => {
        cleanup();
        if (started) return;
        const said = stderr.trim() || r.spawnError || `it ended with exit ${r.exit}`;
        reject(new UsageError(`the run did not start: ${said}`));
      });
    });
  }

  /** The server ends: every run it started is stopped (SIGTERM: they end interrupted) and waited for. */
  async stopAll(): Promise<void> {
    await this.o.supervisor.shutdownAll(STOP_GRACE_MS + 5_000);
  }
}

/** `-i NAME=@FILE` per input, each value written to its own file (a string as it is, else JSON). */
function inputArgs(inputs: Record<string, unknown>, dir: string): string[] {
  const names = Object.keys(inputs);
  if (names.length > MAX_INPUTS) throw new InputError(`at most ${MAX_INPUTS} inputs may be given (got ${names.length})`);
  return names.map((name, i) => {
    if (!INPUT_NAME.test(name)) throw new InputError(`input name ${JSON.stringify(name)} is not a valid input name (letters, digits, _)`);
    const value = inputs[name];
    const file = join(dir, String(i));
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value), { mode: 0o600 });
    return `--input=${name}=@${file}`;
  });
}
