// The harnesses, one line each: a record typed by the engine's names
// (HARNESS_NAMES, src/engine/harnesses.ts), so a harness registered here and
// not there, or named there and not registered here, does not compile. Every
// loop over the harnesses (refusals, `vouch harnesses`, doctor, transcripts,
// tested versions, help) reads HARNESSES; a new harness is a folder and a line
// here (docs/architecture.md §9).
import type { CapName } from "../../engine/events.ts";
import { HARNESS_NAMES, type HarnessName } from "../../engine/harnesses.ts";
import { acpAdapter } from "./acp/adapter.ts";
import { claudeAdapter } from "./claude/adapter.ts";
import { codexAdapter } from "./codex/adapter.ts";
import { commandAdapter } from "./command/adapter.ts";
import { geminiAdapter } from "./gemini/adapter.ts";
import { replayDescriptor } from "./replay/adapter.ts";
import type { HarnessAdapter, HarnessDescriptor } from "./types.ts";

const REGISTRY = {
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  acp: acpAdapter,
  replay: replayDescriptor,
  command: commandAdapter,
} satisfies Record<HarnessName, HarnessDescriptor>;

/** Every harness but replay drives a program through the spawn seam. */
export type ProcessHarnessName = Exclude<HarnessName, "replay">;

const { replay: _replay, ...processAdapters } = REGISTRY;
export const PROCESS_ADAPTERS: Readonly<Record<ProcessHarnessName, HarnessAdapter>> = processAdapters;

/** The harnesses in the order of HARNESS_NAMES. */
export const HARNESSES: readonly HarnessDescriptor[] = HARNESS_NAMES.map((name) => REGISTRY[name]);

/** The descriptor of a harness. */
export function harnessNamed(name: HarnessName): HarnessDescriptor {
  return REGISTRY[name];
}

/** Harnesses that keep `cap` in some way (named in refusals). */
export function harnessesKeeping(cap: CapName, among: readonly HarnessDescriptor[] = HARNESSES): string[] {
  return among.filter((h) => h.guarantees.caps[cap] !== "none" && h.name !== "replay").map((h) => h.name);
}
