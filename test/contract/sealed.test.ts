// The real CLIs, sealed (issue 26 item 6, ADR 0040): claude, codex and gemini
// run through dist/vouch in a worktree of a real repository with
// `sandbox: required`, against fake model servers that ask for one shell tool
// call writing a file inside the tree and one writing into the user's checkout.
// The first lands (it is in the node's recorded commit); the second fails at
// the file system — the tool's output the CLI sends back to the model says
// "Read-only file system", and so does the sitting's own transcript — and the
// checkout is as it was. Each CLI's own sandbox and permission checks are off
// (claude: Bash allowed; codex: danger-full-access; gemini: yolo), so what
// stops the write is vouch's seal, not the CLI.
import { afterAll, expect, test } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeEnv } from "./lib/claude.ts";
import { cleanupScratch, codexHome, describeCli, GEMINI_FAST_ENV, geminiHome, runContract, scratch, throwawayHome } from "./lib/index.ts";
import { runThroughVouch } from "./lib/run.ts";
import { startFakeAnthropic, text, toolUse, type Reply } from "./servers/anthropic.ts";
import { SSE_HEADERS, sseBody } from "./servers/scenarios.ts";
import { vouch } from "../e2e/helpers.ts";
import { HAVE_BWRAP } from "../spawn/helpers.ts";

const TIMEOUT = 120_000;
/** What a shell says of a write to a read-only mount (zsh in lower case). */
const EROFS = /read-only file system/i;
afterAll(() => cleanupScratch());

/** The user's repository: one commit; the sitting's worktree is made from it. */
function checkout(dir: string): string {
  writeFileSync(join(dir, "README.md"), "the user's project\n");
  const g = (...a: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd: dir, stdio: "pipe" });
  g("init", "-q", "-b", "main");
  g("add", "-A");
  g("commit", "-qm", "initial");
  return dir;
}

/** One shell command: a file in the tree (relative: the sitting's cwd is its tree), one in the checkout. */
const writes = (repo: string) => `echo inside > inside.txt; echo outside > ${repo}/outside.txt; echo wrote`;

function graph(cwd: string, fields: string[]): string {
  const extra = fields.map((f) => `    ${f}\n`).join("");
  return `version: 1\nname: sealed\nnodes:\n  ask:\n    kind: agent\n    prompt: "Write the two files."\n    cwd: ${JSON.stringify(cwd)}\n    workspace: { mode: worktree }\n    sandbox: required\n    caps: { turns: 4, wall: 90s }\n${extra}`;
}

/** What must hold for every CLI: sealed, the inside file recorded, the outside one refused, the checkout as it was. */
function expectSealedWrites(repo: string, node: Record<string, unknown> | undefined, toolOutputs: string): string {
  expect(node).toMatchObject({ status: "passed", sealed: true });
  const ws = node!.workspace as { commit: string };
  expect(execFileSync("git", ["show", `${ws.commit}:inside.txt`], { cwd: repo, encoding: "utf8" })).toBe("inside\n");
  expect(existsSync(join(repo, "outside.txt"))).toBe(false);
  expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("the user's project\n");
  expect(toolOutputs).toMatch(EROFS);
  return ws.commit;
}

/** The sitting's own record: its transcript, found by `vouch show --transcript` under the same HOME. */
async function transcript(ledger: string, home: string): Promise<string> {
  const r = await vouch(["show", "last", "--transcript", "ask"], { home: ledger, env: { HOME: home } });
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(r.stdout.trim(), "utf8");
}

/** The CLI's own session records under HOME (codex's rollout, gemini's chat), as text. */
function sessionRecords(home: string, folder: string): string {
  const root = join(home, folder);
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.jsonl?$/.test(e.name))
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

describeCli("claude", "claude sealed", () => {
  test.skipIf(!HAVE_BWRAP)(
    "Bash writes inside the tree; into the checkout it meets a read-only file system",
    { timeout: TIMEOUT },
    async () => {
      const home = throwawayHome("claude-sealed");
      const repo = checkout(home.work);
      const done: Reply = { kind: "message", blocks: [text("Done.")] };
      const server = startFakeAnthropic((n) =>
        n === 0 ? { kind: "message", blocks: [toolUse("Bash", { command: writes(repo), description: "write" })] } : done,
      );
      try {
        const r = await runThroughVouch({ cli: "claude", home, graph: graph(repo, ["tools: [Bash]"]), env: claudeEnv(server) });
        const outputs = JSON.stringify(server.requests.slice(1).map((q) => q.body.messages));
        expectSealedWrites(repo, r.finished("ask"), outputs);
        expect(await transcript(home.vouchHome, home.home)).toMatch(EROFS);
      } finally {
        await server.stop();
        home.cleanup();
      }
    },
  );
});

/** A Responses API that asks for one exec_command, then answers; it keeps what codex sends back. */
function fakeCodexServer(command: string) {
  const bodies: string[] = [];
  const event = (d: Record<string, unknown>) => `event: ${d.type}\ndata: ${JSON.stringify(d)}\n\n`;
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = await req.text();
      bodies.push(body);
      const n = bodies.length;
      const item = body.includes('"function_call_output"')
        ? { type: "message", role: "assistant", id: `msg_${n}`, content: [{ type: "output_text", text: "Done.", annotations: [] }] }
        : { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: "exec_command", arguments: JSON.stringify({ cmd: command }) };
      const chunks = [event({ type: "response.created", response: { id: `r${n}` } }), event({ type: "response.output_item.done", item })];
      chunks.push(event({ type: "response.completed", response: { id: `r${n}`, usage } }));
      return new Response(sseBody(chunks), { headers: SSE_HEADERS });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, bodies, stop: () => server.stop(true) };
}

describeCli("codex", "codex sealed", () => {
  test.skipIf(!HAVE_BWRAP)(
    "exec_command writes inside the tree; into the checkout it meets a read-only file system",
    { timeout: TIMEOUT },
    async () => {
      const repo = checkout(scratch("codex-sealed-repo"));
      const server = fakeCodexServer(writes(repo));
      try {
        const file = join(scratch("codex-sealed-graph"), "g.yaml");
        writeFileSync(file, graph(repo, ["harness: codex", "permission_mode: danger-full-access"]));
        const home = codexHome(server.url);
        const r = await runContract(file, home, { FAKE_OPENAI_KEY: "fake-key" });
        expect(r.node, r.stderr).toBeDefined();
        expectSealedWrites(repo, r.node as Record<string, unknown> | undefined, server.bodies.slice(1).join("\n"));
        // The sitting's own record: codex's rollout of the thread holds the tool's output.
        expect(sessionRecords(home, ".codex/sessions")).toMatch(EROFS);
      } finally {
        await server.stop();
      }
    },
  );
});

/** A Gemini API that asks for one run_shell_command, then answers; side calls get a small JSON answer. */
function fakeGeminiServer(command: string) {
  const bodies: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = await req.text();
      const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
      if (!new URL(req.url).pathname.endsWith(":streamGenerateContent")) {
        const side = JSON.stringify({
          reasoning: "fake",
          next_speaker: "user",
          model_choice: "flash",
          complexity_score: 10,
          complexity_reasoning: "fake",
        });
        return Response.json({
          candidates: [{ content: { role: "model", parts: [{ text: side }] }, finishReason: "STOP", index: 0 }],
          usageMetadata,
        });
      }
      bodies.push(body);
      const parts = body.includes('"functionResponse"')
        ? [{ text: "Done." }]
        : [{ functionCall: { name: "run_shell_command", args: { command } } }];
      const chunk = `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, index: 0, finishReason: "STOP" }], usageMetadata })}\r\n\r\n`;
      return new Response(sseBody([chunk]), { headers: SSE_HEADERS });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, bodies, stop: () => server.stop(true) };
}

describeCli("gemini", "gemini sealed", () => {
  test.skipIf(!HAVE_BWRAP)(
    "run_shell_command writes inside the tree; into the checkout it meets a read-only file system",
    { timeout: TIMEOUT },
    async () => {
      const repo = checkout(scratch("gemini-sealed-repo"));
      const server = fakeGeminiServer(writes(repo));
      try {
        const file = join(scratch("gemini-sealed-graph"), "g.yaml");
        writeFileSync(file, graph(repo, ["harness: gemini", "permission_mode: yolo"]));
        const home = geminiHome();
        const r = await runContract(file, home, { ...GEMINI_FAST_ENV, GEMINI_API_KEY: "fake-key", GOOGLE_GEMINI_BASE_URL: server.url });
        expect(r.node, r.stderr).toBeDefined();
        expectSealedWrites(repo, r.node as Record<string, unknown> | undefined, server.bodies.slice(1).join("\n"));
        // The sitting's own record: gemini's chat of the session holds the tool's output.
        expect(sessionRecords(home, ".gemini/tmp")).toMatch(EROFS);
      } finally {
        await server.stop();
      }
    },
  );
});
