// A real terminal for end-to-end tests of the live UI: tmux on its own socket
// (`tmux -L NAME`, so parallel tests never share a server), a shell script that
// runs the binary and then records its exit status and the terminal modes, and
// polling reads of the pane (what a person would see). No timing assertions:
// waits poll until a screen appears or a generous deadline passes.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const TMUX = Bun.which("tmux");

export interface ScreenOptions {
  width?: number;
  height?: number;
}

export class TmuxScreen {
  readonly socket = `vouch-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private started = false;

  constructor(private readonly dir: string) {}

  private tmux(...args: string[]): string {
    const r = Bun.spawnSync([TMUX!, "-u", "-L", this.socket, ...args], { stdout: "pipe", stderr: "pipe", env: outsideTmux() });
    if (r.exitCode !== 0) throw new Error(`tmux ${args[0]}: exit ${r.exitCode}: ${r.stderr.toString()}`);
    return r.stdout.toString();
  }

  /** Runs `argv` in a fresh terminal; after it exits the pane prints `vouch exited N` and stays open. */
  start(argv: string[], env: Record<string, string>, o: ScreenOptions = {}): void {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const script = join(this.dir, `screen-${this.socket}.sh`);
    const exports = Object.entries(env).map(([k, v]) => `export ${k}=${q(v)}`);
    writeFileSync(
      script,
      [
        ...exports,
        argv.map(q).join(" "),
        "code=$?",
        `stty -a > ${q(this.sttyFile)}`,
        'echo "vouch exited $code"',
        "exec sleep 600",
        "",
      ].join("\n"),
    );
    this.tmux("new-session", "-d", "-x", String(o.width ?? 100), "-y", String(o.height ?? 30), "-s", "e2e", `sh ${q(script)}`);
    this.started = true;
  }

  /** The pid of the program the pane's shell is running (its only child). */
  programPid(): number {
    const shell = this.tmux("display-message", "-p", "-t", "e2e", "#{pane_pid}").trim();
    const children = readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    if (children.length !== 1)
      throw new Error(`expected one program under the pane's shell ${shell}, found: ${children.join(", ") || "none"}`);
    return Number(children[0]);
  }

  /** `stty -a` as it was right after the program exited. */
  get sttyFile(): string {
    return join(this.dir, `stty-${this.socket}.txt`);
  }

  /** The visible pane as text, one string per row, trailing spaces and empty rows at the bottom trimmed. */
  capture(): string[] {
    const rows = this.tmux("capture-pane", "-p", "-t", "e2e")
      .split("\n")
      .map((l) => l.trimEnd());
    while (rows.length > 0 && rows.at(-1) === "") rows.pop();
    return rows;
  }

  /** The pane with its colours and attributes as escape sequences (capture-pane -e). */
  captureEscapes(): string {
    return this.tmux("capture-pane", "-p", "-e", "-t", "e2e");
  }

  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "e2e", ...keys);
  }

  /** Polls the pane until `test` holds; throws with the last screen after `timeoutMs`. */
  async waitFor(what: string, test: (screen: string[]) => boolean, timeoutMs = 30_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    let screen: string[] = [];
    while (Date.now() < deadline) {
      screen = this.capture();
      if (test(screen)) return screen;
      await Bun.sleep(50);
    }
    throw new Error(`waited ${timeoutMs} ms for ${what}; the screen was:\n${screen.join("\n")}`);
  }

  kill(): void {
    if (!this.started) return;
    this.started = false;
    Bun.spawnSync([TMUX!, "-L", this.socket, "kill-server"], { stdout: "ignore", stderr: "ignore", env: outsideTmux() });
    // The server is gone; its socket file may stay behind.
    rmSync(join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${process.getuid?.() ?? 0}`, this.socket), { force: true });
  }
}

/** The test runner's environment without TMUX (a test run inside tmux must not talk to that server). */
function outsideTmux(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "TMUX" && k !== "TMUX_PANE") env[k] = v;
  return env;
}

/** The status of the program, once the pane says it exited. */
export function exitedWith(screen: string[]): number | null {
  for (const l of screen) {
    const m = /^vouch exited (\d+)$/.exec(l);
    if (m) return Number(m[1]);
  }
  return null;
}
