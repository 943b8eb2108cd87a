// vouch as an ACP client (ADR 0051), on the official SDK (@agentclientprotocol/sdk):
// initialize (no file-system or terminal capability: the agent works with its own
// tools, in the folder vouch gave it), open a session — `session/new`, or on a
// resumed sitting `session/resume` (`session/load` when that is all the agent
// has) — send the prompt, and read `session/update`s until the typed stop reason.
// The agent's permission requests are answered by the node's mode
// (permissions.ts). stdout lines are handed in as they come (line()); writes go
// to the program's stdin. The SDK validates messages with zod, so it is loaded
// only when an ACP sitting runs, never by the rest of src/spawn.
import type { ClientContext, InitializeResponse } from "@agentclientprotocol/sdk";
import type { AgentAssignment } from "../../../engine/ports.ts";
import { usableSessionId } from "../../../engine/sessions.ts";
import type { StdinSink } from "../../process-types.ts";
import type { ConversationHooks } from "../types.ts";
import { allowed, answerPermission, DEFAULT_ACP_PERMISSION_MODE, type AcpPermissionMode, type PermissionOption } from "./permissions.ts";
import type { AcpSessionState } from "./session-state.ts";

declare const VOUCH_VERSION: string | undefined;
const CLIENT_VERSION = typeof VOUCH_VERSION === "string" ? VOUCH_VERSION : "0.0.0-dev";

/** The ACP protocol version vouch speaks (v1, the SDK's default entry point). */
export const ACP_PROTOCOL_VERSION = 1;

const encoder = new TextEncoder();

export class AcpConversation {
  private input!: ReadableStreamDefaultController<Uint8Array>;
  // The SDK cancels its reader when the connection closes (the prompt answered): later lines go nowhere.
  private readonly readable = new ReadableStream<Uint8Array>({
    start: (c) => void (this.input = c),
    cancel: () => void (this.inputOpen = false),
  });
  private inputOpen = true;
  private running: Promise<void> | null = null;
  private cancel: (() => void) | null = null;
  private phase = "initialize";

  constructor(
    private readonly a: AgentAssignment,
    private readonly state: AcpSessionState,
  ) {}

  /** One line the agent printed on stdout (a JSON-RPC message). */
  line(line: string): void {
    if (!this.inputOpen) return;
    try {
      this.input.enqueue(encoder.encode(`${line}\n`));
    } catch {
      this.inputOpen = false; // closed under us: nothing reads any more
    }
  }

  start(stdin: StdinSink, hooks: ConversationHooks): void {
    this.running = this.run(stdin, hooks).finally(() => hooks.finished());
  }

  /** vouch stops the sitting: ask the agent to stop its turn first. */
  stopping(): void {
    this.state.cancelRequested = true;
    this.cancel?.();
  }

  /** The program ended: no more input; wait (at most `ms`) for what the SDK still had to read. */
  async settle(ms: number): Promise<void> {
    if (this.inputOpen) {
      this.inputOpen = false;
      try {
        this.input.close();
      } catch {
        // already closed by the SDK
      }
    }
    if (!this.running) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.running, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  private async run(stdin: StdinSink, hooks: ConversationHooks): Promise<void> {
    let acp: typeof import("@agentclientprotocol/sdk");
    try {
      acp = await import("@agentclientprotocol/sdk");
    } catch (e) {
      this.state.failed("loading the ACP library", e);
      return;
    }
    const writable = new WritableStream<Uint8Array>({ write: (chunk) => stdin.write(chunk) });
    const app = acp
      .client({ name: "vouch" })
      .onNotification("session/update", ({ params }) => {
        if (this.state.update(params)) hooks.progressed(this.state.progress());
      })
      .onRequest("session/request_permission", ({ params }) => {
        const options = (params.options ?? []) as PermissionOption[];
        const id = params.toolCall?.toolCallId;
        // The request is model output: gemini asks before it reports the call at all.
        if (this.state.update({ update: { ...params.toolCall, sessionUpdate: "tool_call" } })) hooks.progressed(this.state.progress());
        // claude-code-acp's request names no kind: the call's own update said it.
        const kind = params.toolCall?.kind ?? (typeof id === "string" ? this.state.toolCalls.get(id)?.kind : undefined);
        const answer = answerPermission(this.mode(), kind ?? undefined, options);
        if (!allowed(answer, options)) {
          this.state.denials += 1;
          if (typeof id === "string") this.state.counter.closed(id);
        }
        return answer;
      });
    try {
      await app.connectWith(acp.ndJsonStream(writable, this.readable), (ctx) => this.talk(ctx));
    } catch (e) {
      this.state.failed(this.phase, e);
    }
  }

  private mode(): AcpPermissionMode {
    return (this.a.permissionMode as AcpPermissionMode | undefined) ?? DEFAULT_ACP_PERMISSION_MODE;
  }

  private async talk(ctx: ClientContext): Promise<void> {
    const init = await ctx.request("initialize", {
      protocolVersion: ACP_PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: "vouch", version: CLIENT_VERSION },
    });
    this.state.initialized = true;
    this.state.agentName = typeof init.agentInfo?.name === "string" ? init.agentInfo.name.slice(0, 200) : undefined;
    this.phase = "the session's setup";
    const sessionId = await this.openSession(ctx, init);
    if (usableSessionId(sessionId)) this.state.sessionId = sessionId;
    this.cancel = () => void ctx.notify("session/cancel", { sessionId }).catch(() => {});
    if (this.state.cancelRequested) this.cancel();
    this.phase = "the prompt";
    const response = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: this.a.prompt }] });
    this.state.stopped(response);
  }

  /** A new session, or the one the sitting continues (ADR 0023: ACP's own session ids). */
  private async openSession(ctx: ClientContext, init: InitializeResponse): Promise<string> {
    const cwd = this.a.cwd;
    const resume = this.a.session;
    if (!resume) return (await ctx.request("session/new", { cwd, mcpServers: [] })).sessionId;
    const caps = init.agentCapabilities;
    if (caps?.sessionCapabilities?.resume) {
      await ctx.request("session/resume", { sessionId: resume.id, cwd, mcpServers: [] });
      return resume.id;
    }
    if (caps?.loadSession) {
      // session/load replays the history as updates first: not this sitting's turns.
      this.state.replaying = true;
      try {
        await ctx.request("session/load", { sessionId: resume.id, cwd, mcpServers: [] });
      } finally {
        this.state.replaying = false;
      }
      return resume.id;
    }
    throw new Error("the agent can neither resume nor load a session (no sessionCapabilities.resume, no loadSession)");
  }
}
