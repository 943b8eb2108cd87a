// A stub ACP agent for the conformance kit (the acp harness, ADR 0051): newline-
// delimited JSON-RPC on stdin and stdout, written by hand (no SDK), answering
// initialize, session/new and session/prompt, and playing the scenario the
// variables of README.md choose. On success the answer is a JSON echo of what it
// received: the prompt, its argv, and the permission mode vouch answered with —
// read from how vouch answered two requests (an edit, then a command):
// both refused → deny, the edit only → accept-edits, both → allow-all.
"use strict";
const fs = require("node:fs");
const { spawn } = require("node:child_process");

const env = process.env;
const scenario = env.STUB_SCENARIO || "success";
const turns = Number(env.STUB_TURNS || "1");
const turnMs = Number(env.STUB_TURN_MS || "0");
if (env.STUB_MARKER) fs.appendFileSync(env.STUB_MARKER, `acp-agent ${process.pid}\n`);
if (env.STUB_IGNORE_TERM === "1") process.on("SIGTERM", () => {});

const send = (msg) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
const update = (sessionId, u) => send({ method: "session/update", params: { sessionId, update: u } });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let nextId = 1000;
const waiting = new Map();
/** Asks vouch something (a permission) and waits for its answer. */
function ask(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
}

async function permission(sessionId, toolCallId, kind) {
  const options = [
    { optionId: "always", name: "Always", kind: "allow_always" },
    { optionId: "once", name: "Allow", kind: "allow_once" },
    { optionId: "no", name: "Reject", kind: "reject_once" },
  ];
  const r = await ask("session/request_permission", { sessionId, toolCall: { toolCallId, title: `${kind} call`, kind }, options });
  return r && r.outcome && r.outcome.outcome === "selected" ? r.outcome.optionId : "cancelled";
}

async function prompt(id, params) {
  const sessionId = params.sessionId;
  const text = (params.prompt || []).map((b) => b.text || "").join("");
  if (scenario === "hang") {
    update(sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "thinking" } });
    return; // never answers
  }
  if (scenario === "garbage" || scenario === "cut" || scenario === "flood") return broken();
  if (scenario === "grandchild") spawn("sleep", ["30"], { stdio: ["ignore", "inherit", "ignore"] }).unref();
  for (let t = 1; t < turns; t++) {
    update(sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `turn ${t}` } });
    update(sessionId, { sessionUpdate: "tool_call", toolCallId: `call-${t}`, title: "look", kind: "search", status: "in_progress" });
    if (turnMs) await sleep(turnMs);
    update(sessionId, { sessionUpdate: "tool_call_update", toolCallId: `call-${t}`, status: "completed" });
  }
  // One response asks for an edit and a command; the answer to their results is the next one.
  update(sessionId, { sessionUpdate: "tool_call", toolCallId: "perm-edit", title: "write a file", kind: "edit", status: "pending" });
  update(sessionId, { sessionUpdate: "tool_call", toolCallId: "perm-exec", title: "run a command", kind: "execute", status: "pending" });
  const edit = await permission(sessionId, "perm-edit", "edit");
  const command = await permission(sessionId, "perm-exec", "execute");
  for (const [callId, answer] of [["perm-edit", edit], ["perm-exec", command]])
    update(sessionId, { sessionUpdate: "tool_call_update", toolCallId: callId, status: answer === "no" || answer === "cancelled" ? "failed" : "completed" });
  const mode = edit === "once" && command === "once" ? "allow-all" : edit === "once" ? "accept-edits" : "deny";
  const chose = [edit, command].includes("always") ? "always" : mode;
  const echo = { harness: "acp", prompt: text, model: null, tools: null, available: null, permissionMode: chose, argv: process.argv.slice(2) };
  update(sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: JSON.stringify(echo) } });
  send({ id, result: { stopReason: "end_turn" } });
}

async function broken() {
  if (scenario === "garbage") {
    process.stdout.write("this is not JSON\nnor is this\n");
    process.exit(1);
  }
  if (scenario === "cut") {
    process.stderr.write("stub acp agent: connection reset by peer\n");
    process.stdout.write('{"jsonrpc":"2.0","method":"session/upd');
    process.exit(1);
  }
  const mb = Number(env.STUB_FLOOD_MB || "30");
  const line = `${"x".repeat(1023)}\n`;
  for (let i = 0; i < mb * 1024; i++) if (!process.stdout.write(line)) await new Promise((r) => process.stdout.once("drain", r));
  process.exit(1);
}

function handle(msg) {
  if (msg.id !== undefined && msg.method === undefined) {
    const resolve = waiting.get(msg.id);
    waiting.delete(msg.id);
    return resolve && resolve(msg.result);
  }
  switch (msg.method) {
    case "initialize":
      return send({ id: msg.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, agentInfo: { name: "stub-acp", version: "0" } } });
    case "session/new":
      return send({ id: msg.id, result: { sessionId: "0199a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b" } });
    case "session/prompt":
      return void prompt(msg.id, msg.params || {});
    case "session/cancel":
      return; // a stub that does not stop: vouch's kill must
    default:
      if (msg.id !== undefined) send({ id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } });
  }
}

let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});
// Like claude-code-acp, it does not exit when its stdin closes: vouch ends it once it answered.
process.stdin.on("end", () => {});
setInterval(() => {}, 1 << 30);
