// Stub harness executables for the conformance kit (never a real model).
// Each stub (claude, codex, gemini, agent-cmd) speaks its harness's command
// line and output format, and plays a scenario chosen by environment
// variables the test passes through (passEnv):
//   STUB_SCENARIO  success | garbage | cut | hang | grandchild | flood |
//                  api_error | exec_error | fill
//   STUB_TURNS     turns to play (default 1);  STUB_TURN_MS  pause per turn (default 20)
//   STUB_TURN_COST USD per turn (claude only; default 0.01)
//   STUB_IGNORE_TERM=1  ignore SIGTERM;  STUB_FLOOD_MB  size of the flood (default 30)
//   STUB_MARKER    a file the stub appends to when it starts (proves a start)
//   STUB_EXIT      exit status of the command stub's success (default 0)
//   STUB_PIDS      a file the stub appends "pid pgid" to at start, and every
//                  process it forks (so a test can check the group is gone)
//   STUB_FILL      a file the stub grows until the disk is full (scenario fill)
//   STUB_PLAYED    a file the stub appends "turn N" to after printing each turn
//   STUB_LINGER=1  after a success result, stay up until killed (30 s at most)
//   STUB_FORGET=1  keep no session in STUB_SESSION_DIR (as when a CLI's folder was cleaned)
//   STUB_SCENARIO_IF_PROMPT  "TEXT=SCENARIO": play SCENARIO instead when the prompt contains TEXT
//   STUB_ARGV      a file the stub appends {"argv":[...],"prompt":"..."} to, one JSON line per start
//   STUB_SESSION_ID  the session id a fresh sitting reports (hostile ids included)
//   STUB_SESSION_DIR  where the stub keeps each session's total cost: a resumed or forked
//                  claude sitting reports the session's cumulative total_cost_usd, as
//                  Claude Code does, and resuming an id it never saw fails as Claude Code's does
// On success the result text is a JSON "echo" of what the stub received:
// {harness, prompt, model, tools, permissionMode, maxTurns, maxBudgetUsd, argv}.
"use strict";
const fs = require("node:fs");
const { spawn } = require("node:child_process");

const env = process.env;
let scenario = env.STUB_SCENARIO || "success";
const turnsWanted = Number(env.STUB_TURNS || 1);
const turnMs = Number(env.STUB_TURN_MS || 20);
const turnCost = Number(env.STUB_TURN_COST || 0.01);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
// Writes and waits until the pipe took it, so a following exit loses nothing.
const flush = () => new Promise((r) => process.stdout.write("", r));

/** The process group this process is in (field 5 of /proc/self/stat). */
function ownPgid() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return -1;
  }
}

/** Appends "pid pgid" to STUB_PIDS: the stub itself, then every process it forks. */
function recordPid(pid, pgid) {
  if (env.STUB_PIDS) fs.appendFileSync(env.STUB_PIDS, `${pid} ${pgid}\n`);
}

function readStdin() {
  try {
    return fs.readFileSync(0, "utf8");
  } catch {
    return ""; // stdin closed or absent
  }
}

function fail(message, code) {
  process.stderr.write(message + "\n");
  process.exit(code);
}

/** Parses argv by the harness's own flag conventions. */
function parseArgs(harness, argv) {
  const got = { argv, positionals: [] };
  const valueFlags = {
    claude: { "--model": "model", "--max-turns": "maxTurns", "--max-budget-usd": "maxBudgetUsd", "--permission-mode": "permissionMode", "--output-format": "outputFormat", "--fallback-model": "fallbackModel", "--resume": "resume" },
    codex: { "-m": "model", "--model": "model", "-s": "permissionMode", "--sandbox": "permissionMode" },
    gemini: { "-m": "model", "--model": "model", "--approval-mode": "permissionMode", "--output-format": "outputFormat", "-p": "promptFlag", "--prompt": "promptFlag", "--resume": "resume" },
    command: {},
  }[harness];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    // As clap does: after "--" every word is a positional, whatever it looks like.
    if (a === "--" && harness === "codex") {
      got.positionals.push(...argv.slice(i + 1));
      break;
    }
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    if (eq > 0 && valueFlags[a.slice(0, eq)]) {
      got[valueFlags[a.slice(0, eq)]] = a.slice(eq + 1); // --flag=value: the value is whatever follows "="
      continue;
    }
    // As yargs (gemini) and clap (codex) do: a separate value that starts with "-" is a flag, not the value.
    if (valueFlags[a] && harness !== "claude" && /^-/.test(argv[i + 1] ?? "") && argv[i + 1] !== "-") fail(`stub ${harness}: ${a} needs a value, but ${argv[i + 1]} is a flag`, 2);
    if (a.startsWith("--allowedTools=")) got.tools = a.slice("--allowedTools=".length).split(",").filter(Boolean);
    else if (a.startsWith("--tools=")) got.available = a.slice("--tools=".length).split(",").filter(Boolean);
    else if (a === "--tools") fail(`stub ${harness}: --tools without '=' would swallow the prompt`, 2);
    else if (valueFlags[a]) got[valueFlags[a]] = argv[++i];
    else if (a === "--allowedTools" || a === "--allowed-tools") fail(`stub ${harness}: ${a} without '=' would swallow the prompt`, 2);
    else if (a === "-p" || a === "--print" || a === "--verbose" || a === "--json") got[a.replace(/^-+/, "")] = true;
    else if (a === "--skip-git-repo-check" || a === "--skip-trust") got[a.replace(/^-+/, "")] = true;
    else if (a === "--fork-session") got.forkSession = true;
    else got.positionals.push(a);
  }
  return got;
}

function checkCommandLine(harness, got) {
  if (harness === "claude") {
    if (got.fallbackModel !== undefined) fail("stub claude: --fallback-model must never be passed", 2);
    if (!got.p) fail("stub claude: print mode (-p) is required", 2);
    if (got.outputFormat !== "stream-json") fail("stub claude: expected --output-format stream-json", 2);
    if (!got.verbose) fail("Error: When using --print, --output-format=stream-json requires --verbose", 1);
    if (got.positionals.length > 0) fail(`stub claude: unexpected positional argument ${got.positionals[0]} (the prompt belongs on stdin)`, 2);
  }
  if (harness === "codex") {
    if (got.positionals[0] !== "exec" || !got.json) fail("stub codex: expected `codex exec --json`", 2);
    // exec [resume|fork SESSION_ID] PROMPT
    const sub = got.positionals[1] === "resume" || got.positionals[1] === "fork" ? got.positionals[1] : null;
    if (sub) {
      got.resume = got.positionals[2];
      got.forkSession = sub === "fork";
    }
    if (got.positionals.length !== (sub ? 4 : 2)) fail("stub codex: expected exactly one prompt argument", 2);
  }
  if (got.forkSession && got.resume === undefined) fail(`stub ${harness}: --fork-session needs --resume`, 2);
  if (harness === "gemini") {
    if (got.outputFormat !== "stream-json") fail("stub gemini: expected --output-format stream-json", 42);
    if (got.promptFlag === undefined) fail("stub gemini: -p is required for headless mode", 42);
  }
}

function echo(harness, got, prompt) {
  return JSON.stringify({
    harness,
    prompt,
    model: got.model ?? null,
    tools: got.tools ?? null,
    available: got.available ?? null,
    permissionMode: got.permissionMode ?? null,
    maxTurns: got.maxTurns !== undefined ? Number(got.maxTurns) : null,
    maxBudgetUsd: got.maxBudgetUsd !== undefined ? Number(got.maxBudgetUsd) : null,
    argv: got.argv,
  });
}

// ---- one format per harness ----------------------------------------------

const DEFAULT_SESSION = { claude: "5f0c8a52-2d7e-4b7a-9a51-6c1f3e0b9d27", codex: "0199a213-stub", gemini: "gemini-stub", command: "" };
// The session this sitting reports: the resumed one, a new one for a fork or a fresh sitting.
let SESSION = DEFAULT_SESSION.claude;
/** What the session had cost before this sitting (STUB_SESSION_DIR; 0 for a fresh one). */
let carried = 0;

function openSession(harness, got) {
  const fresh = env.STUB_SESSION_ID || DEFAULT_SESSION[harness];
  // Not the pid alone: every sealed sitting has the same pid in its own namespace (ADR 0040).
  SESSION = got.resume === undefined ? fresh : got.forkSession ? `${got.resume.slice(0, 20)}-fork-${process.pid}${require("node:crypto").randomInt(1e6)}` : got.resume;
  if (got.resume === undefined || !env.STUB_SESSION_DIR) return;
  const file = `${env.STUB_SESSION_DIR}/${got.resume}`;
  if (!/^[A-Za-z0-9_-]+$/.test(got.resume) || !fs.existsSync(file)) {
    // As claude 2.1.332 does for an id it does not know.
    out({ type: "result", subtype: "error_during_execution", is_error: true, num_turns: 0, total_cost_usd: 0, session_id: got.resume, errors: [`No conversation found with session ID: ${got.resume}`] });
    process.stderr.write(`No conversation found with session ID: ${got.resume}\n`);
    process.exit(1);
  }
  carried = Number(fs.readFileSync(file, "utf8"));
}

function closeSession(cost) {
  if (env.STUB_SESSION_DIR && env.STUB_FORGET !== "1" && /^[A-Za-z0-9_-]+$/.test(SESSION)) fs.writeFileSync(`${env.STUB_SESSION_DIR}/${SESSION}`, String(carried + cost));
}

const formats = {
  claude: {
    start: () => out({ type: "system", subtype: "init", session_id: SESSION, model: "stub-model", tools: ["Bash", "Read"], cwd: process.cwd() }),
    turn: (n) => {
      out({ type: "assistant", message: { id: `msg_${n}`, role: "assistant", content: [{ type: "tool_use", id: `toolu_${n}`, name: "Bash", input: { command: "ls" } }], usage: { input_tokens: 2, output_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5 } }, session_id: SESSION });
      out({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${n}`, content: "ok" }] }, session_id: SESSION });
    },
    result: (r) =>
      out({
        type: "result",
        subtype: r.subtype,
        is_error: r.subtype !== "success",
        num_turns: r.turns,
        // A resumed session's total counts its earlier sittings, as Claude Code's does.
        total_cost_usd: carried + r.cost,
        session_id: SESSION,
        usage: { input_tokens: 2 * r.turns, output_tokens: 10 * r.turns, cache_read_input_tokens: 100 * r.turns, cache_creation_input_tokens: 5 * r.turns },
        permission_denials: [],
        ...(r.text !== undefined ? { result: r.text } : { errors: [r.error] }),
      }),
  },
  codex: {
    // As codex 0.171.0 prints it: one turn.started/turn.completed per exec,
    // one command_execution per tool-calling model response, the answer last.
    start: () => {
      out({ type: "thread.started", thread_id: SESSION });
      out({ type: "turn.started" });
    },
    turn: (n) => {
      const item = { id: `item_${n}`, type: "command_execution", command: "/bin/bash -lc ls", aggregated_output: "", exit_code: null, status: "in_progress" };
      out({ type: "item.started", item });
      out({ type: "item.completed", item: { ...item, aggregated_output: "ok", exit_code: 0, status: "completed" } });
    },
    result: (r) => {
      if (r.text !== undefined) out({ type: "item.completed", item: { id: "msg_last", type: "agent_message", text: r.text } });
      out({ type: "turn.completed", usage: { input_tokens: 100, cached_input_tokens: 60, output_tokens: 10 } });
    },
  },
  gemini: {
    start: () => out({ type: "init", timestamp: new Date().toISOString(), session_id: SESSION, model: "stub-model" }),
    turn: (n) => {
      const t = new Date().toISOString();
      out({ type: "tool_use", timestamp: t, tool_name: "list_directory", tool_id: `t${n}`, parameters: { path: "." } });
      out({ type: "tool_result", timestamp: t, tool_id: `t${n}`, status: "success", output: "README.md" });
    },
    result: (r) => {
      const t = new Date().toISOString();
      out({ type: "message", timestamp: t, role: "assistant", content: r.text, delta: true });
      out({ type: "result", timestamp: t, status: "success", stats: { total_tokens: 110, input_tokens: 100, output_tokens: 10, cached: 60, duration_ms: 5, tool_calls: r.turns } });
    },
  },
};

async function playSuccess(harness, got, prompt) {
  const text = echo(harness, got, prompt);
  if (harness === "command") {
    process.stdout.write(text + "\n");
    await flush();
    process.exit(Number(env.STUB_EXIT || 0));
  }
  const f = formats[harness];
  f.start();
  const maxTurns = got.maxTurns !== undefined ? Number(got.maxTurns) : Infinity;
  const maxBudget = got.maxBudgetUsd !== undefined ? Number(got.maxBudgetUsd) : Infinity;
  // Gemini's and codex's final answer is its own model response; claude answers in its last turn.
  const toolTurns = harness === "gemini" || harness === "codex" ? turnsWanted - 1 : turnsWanted;
  let cost = 0;
  for (let n = 1; n <= toolTurns; n++) {
    if (n > 1) await sleep(turnMs);
    f.turn(n, n === toolTurns, text);
    if (env.STUB_PLAYED) fs.appendFileSync(env.STUB_PLAYED, `turn ${n}\n`);
    cost += turnCost;
    // Like Claude Code: a cap is noticed after the turn that crossed it.
    if (n > maxTurns) {
      f.result({ subtype: "error_max_turns", turns: n, cost, error: `Reached maximum number of turns (${maxTurns})` });
      await flush();
      process.exit(1);
    }
    if (cost > maxBudget) {
      f.result({ subtype: "error_max_budget_usd", turns: n, cost, error: `Reached maximum budget ($${maxBudget})` });
      await flush();
      process.exit(1);
    }
  }
  f.result({ subtype: "success", turns: turnsWanted, cost, text });
  closeSession(cost);
  await flush();
  // STUB_LINGER=1: stays up after its result until killed (as claude can, with a background task).
  if (env.STUB_LINGER === "1") return void setTimeout(() => process.exit(0), 30_000);
  process.exit(0);
}

async function main(harness) {
  const argv = process.argv.slice(2);
  if (env.STUB_MARKER) fs.appendFileSync(env.STUB_MARKER, `${harness} started\n`);
  recordPid(process.pid, ownPgid());
  if (env.STUB_IGNORE_TERM === "1") process.on("SIGTERM", () => {});
  const got = parseArgs(harness, argv);
  checkCommandLine(harness, got);
  const stdin = readStdin();
  const last = got.positionals[got.positionals.length - 1];
  const prompt = harness === "codex" && last !== "-" ? last : stdin;
  const cond = env.STUB_SCENARIO_IF_PROMPT?.split("=");
  if (cond && cond.length === 2 && prompt.includes(cond[0])) scenario = cond[1];
  if (env.STUB_ARGV) fs.appendFileSync(env.STUB_ARGV, JSON.stringify({ argv, prompt }) + "\n");
  if (harness !== "command") openSession(harness, got);

  switch (scenario) {
    case "success":
      return playSuccess(harness, got, prompt);
    case "garbage":
      process.stdout.write("Welcome to the stub CLI!\nthis is not JSON {at all\n");
      await flush();
      return process.exit(0);
    case "cut":
      if (harness !== "command") formats[harness].start();
      process.stdout.write('{"type":"assistant","message":{"id":"msg_cut","content":[{"type":"te');
      await flush();
      process.stderr.write("stub: connection reset by peer\n");
      return process.exit(1);
    case "hang":
      if (harness === "command") process.stdout.write("working...\n");
      else formats[harness].start();
      setTimeout(() => process.exit(0), 30_000); // never outlive a broken test by much
      return;
    case "grandchild":
      // The grandchild inherits stdout and outlives the stub: it holds the pipe open.
      recordPid(spawn("sleep", ["30"], { stdio: ["ignore", "inherit", "inherit"] }).pid, ownPgid());
      return playSuccess(harness, got, prompt);
    case "api_error":
      // Claude Code reports an API error (rate limit, expired login) as a
      // "success" with is_error: true, and exits 0.
      if (harness !== "claude") fail(`stub ${harness}: api_error is a claude scenario`, 2);
      formats.claude.start();
      out({ type: "result", subtype: "success", is_error: true, api_error_status: 429, num_turns: 1, total_cost_usd: 0, session_id: SESSION, result: "API Error: 429 rate_limit_error: Number of requests has exceeded your rate limit" });
      await flush();
      return process.exit(0);
    case "exec_error":
      // error_during_execution, exit 1 (a tool or the runtime broke mid-sitting).
      if (harness !== "claude") fail(`stub ${harness}: exec_error is a claude scenario`, 2);
      formats.claude.start();
      formats.claude.turn(1);
      formats.claude.result({ subtype: "error_during_execution", turns: 1, cost: turnCost, error: "stub: the tool runtime broke" });
      await flush();
      return process.exit(1);
    case "fill": {
      // Grows STUB_FILL until the disk is full (ENOSPC or EFBIG), then plays success:
      // whatever vouch writes next lands on a full disk.
      if (!env.STUB_FILL) fail("stub: scenario fill needs STUB_FILL", 2);
      const block = Buffer.alloc(64 * 1024, 120);
      const fd = fs.openSync(env.STUB_FILL, "a");
      try {
        for (;;) fs.writeSync(fd, block);
      } catch (e) {
        process.stderr.write(`stub: filled ${env.STUB_FILL}: ${e.code}\n`);
      } finally {
        fs.closeSync(fd);
      }
      return playSuccess(harness, got, prompt);
    }
    case "flood": {
      const line = "x".repeat(1023) + "\n";
      const block = line.repeat(1024);
      for (let i = 0; i < Number(env.STUB_FLOOD_MB || 30); i++) {
        if (!process.stdout.write(block)) await new Promise((r) => process.stdout.once("drain", r));
      }
      await flush();
      return process.exit(0);
    }
    default:
      fail(`stub ${harness}: unknown STUB_SCENARIO ${scenario}`, 2);
  }
}

module.exports = { main };
