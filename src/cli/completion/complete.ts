// What fits where the cursor is, for `vouch __complete WORD...` (ADR 0070): the
// words typed after `vouch`, the last one the word being completed. Pure: the
// command line's shape comes from the help texts (help-facts.ts), the run ids
// and node ids from a CompletionSources port the caller reads the ledger for.
// Files are the shell's to list: the answer says which kind (*.yaml, any, folders).
import { HARNESS_NAMES } from "../../engine/graph/schema.ts";
import { commandFacts, type CommandFact, type OptionFact } from "./help-facts.ts";

export interface Candidate {
  value: string;
  description?: string;
}

export type Completion = { kind: "words"; words: Candidate[] } | { kind: "yaml" | "files" | "dirs" | "none" };

export interface CompletionSources {
  /** Recent runs, newest first. */
  runs(): Candidate[];
  /** Node names of the run RUN (an id, a prefix, or last) that fit an option: approvals, worktree nodes, agents. */
  nodes(run: string, which: "approval" | "worktree" | "agent"): Candidate[];
}

const NONE: Completion = { kind: "none" };

function words(all: Candidate[], prefix: string): Completion {
  // Only plain words are offered: a value with a space, tab or control character would break the shell's line.
  return { kind: "words", words: all.filter((c) => c.value.startsWith(prefix) && /^[\x21-\x7e]+$/.test(c.value)) };
}

function choices(placeholder: string): string[] | null {
  return /^[a-z0-9]+(\|[a-z0-9]+)+$/.test(placeholder) ? placeholder.split("|") : null;
}

/** What a positional or option value of this placeholder completes to. */
function valueCompletion(
  placeholder: string,
  option: OptionFact | null,
  current: string,
  run: string | null,
  sources: CompletionSources,
): Completion {
  const listed = choices(placeholder);
  if (listed)
    return words(
      listed.map((value) => ({ value })),
      current,
    );
  if (option?.long === "--harness")
    return words(
      HARNESS_NAMES.map((value) => ({ value })),
      current,
    );
  if (placeholder === "GRAPH" || (placeholder === "FILE" && option === null)) return { kind: "yaml" };
  if (placeholder === "FILE" || placeholder === "PLAN" || placeholder === "FORMAT:FILE") return { kind: "files" };
  if (placeholder === "DIR") return { kind: "dirs" };
  if (placeholder === "RUN") return words([{ value: "last", description: "the newest run" }, ...sources.runs()], current);
  if (placeholder === "NODE" && run !== null) {
    const which = option?.long === "--diff" ? "worktree" : option?.long === "--transcript" ? "agent" : "approval";
    return words(sources.nodes(run, which), current);
  }
  if (/^[a-z0-9]+$/.test(placeholder)) return words([{ value: placeholder }], current); // a literal: export k8s
  return NONE;
}

function optionNamed(fact: CommandFact, word: string): OptionFact | undefined {
  return fact.options.find((o) => o.long === word || o.short === word);
}

interface Walked {
  positionals: string[];
  /** The option whose value the current word is. */
  pending: OptionFact | null;
}

/** The finished words after the command: its positionals, and whether the last one wants a value. */
function walk(fact: CommandFact, done: readonly string[]): Walked {
  const positionals: string[] = [];
  let pending: OptionFact | null = null;
  for (const w of done) {
    if (pending) {
      pending = null;
      continue;
    }
    if (w.startsWith("-") && w !== "-") {
      const o = w.includes("=") ? undefined : optionNamed(fact, w);
      if (o?.value !== undefined) pending = o;
      continue;
    }
    positionals.push(w);
  }
  return { positionals, pending };
}

function commandCompletion(current: string): Completion {
  if (current.startsWith("-"))
    return words(
      [
        { value: "--help", description: "the commands" },
        { value: "--version", description: "the version" },
      ],
      current,
    );
  return words(
    [...commandFacts().map((c) => ({ value: c.name, description: c.description })), { value: "help", description: "help for one command" }],
    current,
  );
}

export function complete(typed: readonly string[], sources: CompletionSources): Completion {
  if (typed.length === 0) return commandCompletion("");
  const current = typed.at(-1)!;
  if (typed.length === 1) return commandCompletion(current);
  const name = typed[0]!;
  if (name === "help") return typed.length === 2 ? commandCompletion(current) : NONE;
  const fact = commandFacts().find((c) => c.name === name);
  if (!fact) return NONE;
  const { positionals, pending } = walk(fact, typed.slice(1, -1));
  const run = fact.positionals[0]?.placeholder === "RUN" ? (positionals[0] ?? null) : null;
  if (pending) return valueCompletion(pending.value!, pending, current, run, sources);
  if (current.startsWith("-")) {
    if (current.includes("=")) return NONE;
    return words(
      fact.options.map((o) => ({ value: o.long, description: o.description })),
      current,
    );
  }
  const last = fact.positionals.at(-1);
  const slot = fact.positionals[positionals.length] ?? (last?.repeats ? last : undefined);
  return slot ? valueCompletion(slot.placeholder, null, current, run, sources) : NONE;
}
