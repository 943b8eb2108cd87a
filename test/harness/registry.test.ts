// The harness registry (src/spawn/harness/registry.ts) and the engine's own list
// (src/engine/harnesses.ts) name the same harnesses and agree on what each can do
// with a session; every text that names the harnesses is derived from the registry.
// The engine never imports src/spawn (test/invariants/layers.test.ts), so these two
// lists are the one pair the layering keeps apart on purpose: this file holds them equal.
import { describe, expect, test } from "vitest";
import { SpawnError } from "../../src/engine/errors.ts";
import { HARNESS_NAMES, SESSION_SUPPORT, type SessionMode } from "../../src/engine/harnesses.ts";
import type { AgentAssignment } from "../../src/engine/ports.ts";
import { COMMAND_HELP } from "../../src/cli/help.ts";
import { createAgentRunner } from "../../src/spawn/harness/agent-runner.ts";
import { DOCTOR_CLIS, PROBE_ENV } from "../../src/spawn/harness/doctor-probes.ts";
import { HARNESSES, harnessNamed, PROCESS_ADAPTERS } from "../../src/spawn/harness/registry.ts";
import { TESTED_VERSIONS } from "../../src/spawn/harness/tested-versions.ts";
import { TRANSCRIPT_STORES } from "../../src/spawn/harness/transcript.ts";
import type { HarnessAdapter } from "../../src/spawn/harness/types.ts";

const MODES: readonly SessionMode[] = ["resume", "fork"];
const adapters = Object.values(PROCESS_ADAPTERS) as HarnessAdapter[];

function assignment(harness: HarnessAdapter, session?: AgentAssignment["session"]): AgentAssignment {
  return {
    runId: "r",
    node: "n",
    attempt: 1,
    harness: harness.name,
    prompt: "p",
    cwd: "/tmp",
    passEnv: [],
    caps: {},
    output: { format: "text" },
    ...(session ? { session } : {}),
    ...(harness.name === "acp" ? { acp: { command: ["gemini", "--acp"] } } : {}),
  };
}

/** The words `sessionArgs` gives for `mode`, or "refused" when it throws the SpawnError a missing mode is. */
function sessionWords(h: HarnessAdapter, mode: SessionMode): string[] | "refused" | "none" {
  if (!h.sessionArgs) return "none";
  try {
    return h.sessionArgs({ mode, id: "0199a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b" });
  } catch (e) {
    if (e instanceof SpawnError) return "refused";
    throw e;
  }
}

describe("the registry and the engine's list", () => {
  test("name the same harnesses, in the same order, each registered under its own name", () => {
    expect(HARNESSES.map((h) => h.name)).toEqual([...HARNESS_NAMES]);
    for (const name of HARNESS_NAMES) expect(harnessNamed(name).name).toBe(name);
    expect(Object.keys(PROCESS_ADAPTERS).sort()).toEqual(HARNESS_NAMES.filter((n) => n !== "replay").sort());
  });

  test("agree on session support: each descriptor declares the engine's", () => {
    for (const h of HARNESSES) expect(h.sessions, h.name).toEqual(SESSION_SUPPORT[h.name]);
  });

  test("session arguments exist for exactly the modes the engine says a harness can do, and reach its command line", () => {
    const seen: string[] = [];
    for (const h of adapters) {
      for (const mode of MODES) {
        const words = sessionWords(h, mode);
        const session = { mode, id: "0199a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b" };
        const command = h.buildCommand(assignment(h), { commandArgv: ["prog"] });
        if (command.conversation) {
          // A protocol harness (acp) continues a session in the protocol (session/resume), not on its
          // command line: no session words, and the id never reaches argv (test/harness/acp-conversation.test.ts).
          expect(words, `${h.name} ${mode}`).toBe("none");
          expect(h.buildCommand(assignment(h, session), {}).argv.join(" ")).not.toContain(session.id);
          if (SESSION_SUPPORT[h.name][mode]) seen.push(`${h.name}:${mode}`);
          continue;
        }
        if (SESSION_SUPPORT[h.name][mode]) {
          expect(Array.isArray(words) && words.length > 0, `${h.name} ${mode}`).toBe(true);
          const argv = h.buildCommand(assignment(h, session), { commandArgv: ["prog"] }).argv.join(" ");
          expect(argv, `${h.name} ${mode}`).toContain((words as string[]).join(" "));
          seen.push(`${h.name}:${mode}`);
        } else {
          expect(["refused", "none"], `${h.name} ${mode}`).toContain(words);
        }
      }
    }
    // The check can fail: it saw the harnesses that can resume (a new one adds to the list).
    expect(seen).toEqual(
      expect.arrayContaining(["claude:resume", "claude:fork", "codex:resume", "codex:fork", "gemini:resume", "acp:resume"]),
    );
  });

  test("a harness with sessions says where its CLI keeps them; an agent CLI has a tested version and a doctor probe", () => {
    for (const h of adapters) {
      if (h.sessionArgs) expect(h.transcripts, `${h.name} transcripts`).toBeDefined();
      if (h.binary !== null) {
        expect(h.testedVersion, `${h.name} tested version`).toBeDefined();
        expect(h.probe, `${h.name} probe`).toBeDefined();
      }
    }
    // The loops read every harness that declares the part, in the registry's order.
    const declaring = (has: (h: HarnessAdapter) => boolean) => adapters.filter(has).map((h) => h.name);
    expect(DOCTOR_CLIS).toEqual(declaring((h) => h.probe !== undefined));
    expect(Object.keys(TESTED_VERSIONS)).toEqual(declaring((h) => h.testedVersion !== undefined));
    expect(TRANSCRIPT_STORES.map((s) => s.harness)).toEqual(declaring((h) => h.transcripts !== undefined));
    expect(DOCTOR_CLIS).toEqual(expect.arrayContaining(["claude", "codex", "gemini"]));
    // Every probe's variables are set for every probe.
    for (const cli of DOCTOR_CLIS) expect(PROBE_ENV).toMatchObject(harnessNamed(cli).probe!.env);
  });
});

describe("texts that name the harnesses come from the registry", () => {
  test("the unknown-harness refusal lists every harness", () => {
    const [refusal] = createAgentRunner({ parentEnv: {} }).refuse({ node: "n", harness: "nope" as never, caps: {} });
    expect(refusal!.message).toBe(`unknown harness "nope": use one of ${HARNESS_NAMES.join(", ")}`);
  });

  test("help: run names every harness, doctor every probed CLI, show every transcript store", () => {
    expect(COMMAND_HELP.run).toContain(`(${HARNESS_NAMES.join(", ")})`);
    expect(COMMAND_HELP.doctor).toContain(`(${DOCTOR_CLIS.join(", ")})`);
    for (const s of TRANSCRIPT_STORES) expect(COMMAND_HELP.show).toMatch(new RegExp(`\\n  ${s.harness} +${escape(s.where)}\\n`));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
