// The five harnesses, in the order of HARNESS_NAMES.
import type { CapName } from "../../engine/events.ts";
import type { HarnessName } from "../../engine/ports.ts";
import { claudeAdapter } from "./claude.ts";
import { codexAdapter } from "./codex.ts";
import { commandAdapter } from "./command.ts";
import { geminiAdapter } from "./gemini.ts";
import { replayDescriptor } from "./replay.ts";
import type { HarnessAdapter, HarnessDescriptor } from "./types.ts";

export type ProcessHarnessName = Exclude<HarnessName, "replay">;

export const PROCESS_ADAPTERS: Record<ProcessHarnessName, HarnessAdapter> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  command: commandAdapter,
};

export const HARNESSES: readonly HarnessDescriptor[] = [claudeAdapter, codexAdapter, geminiAdapter, replayDescriptor, commandAdapter];

/** Harnesses that keep `cap` in some way (named in refusals). */
export function harnessesKeeping(cap: CapName, among: readonly HarnessDescriptor[] = HARNESSES): string[] {
  return among.filter((h) => h.guarantees.caps[cap] !== "none" && h.name !== "replay").map((h) => h.name);
}
