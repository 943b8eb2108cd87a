// What shell completion knows about vouch's command line, read from the help
// texts (src/cli/help.ts) — the one place the commands and their options are
// written down, so the two cannot drift apart (ADR 0070). From `vouch --help`:
// the commands and their one-line descriptions. From each `vouch COMMAND --help`:
// the usage line (positionals, options and the placeholder of each option's
// value) and the Options: section (descriptions, short forms, values).
import { COMMAND_HELP, MAIN_HELP } from "../help.ts";

export interface OptionFact {
  long: string;
  short?: string;
  /** The value's placeholder (NODE, FILE, text|mermaid|dot …); absent for a flag. */
  value?: string;
  description: string;
}

export interface PositionalFact {
  /** GRAPH, RUN, FILE, bash|zsh|fish, k8s … */
  placeholder: string;
  /** GRAPH... : every later positional is one too. */
  repeats: boolean;
}

export interface CommandFact {
  name: string;
  description: string;
  positionals: PositionalFact[];
  options: OptionFact[];
}

/** A value placeholder: NAME, NAME=VALUE, FORMAT:FILE, DURATION, choices a|b|c, or redis://HOST:PORT. */
const PLACEHOLDER = /^([A-Z][A-Z0-9_]*([=:][A-Z0-9_]+)?|[a-z0-9]+(\|[a-z0-9]+)+|[a-z]+:\/\/\S*[A-Z]\S*)$/;

/** `  vouch NAME ...   description` lines of the main help, by command. */
function descriptions(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of MAIN_HELP.split("\n")) {
    const m = /^ {2}vouch ([a-z][a-z0-9-]*)\b.*?\s{2,}(\S.*)$/.exec(line);
    if (m && !out.has(m[1]!)) out.set(m[1]!, m[2]!);
  }
  return out;
}

/** The usage text: from "Usage: vouch NAME" to the first empty line. */
function usageTokens(help: string, name: string): string[] {
  const block = help.split("\n\n")[0] ?? "";
  const text = block.replace(/^Usage:\s*vouch\s+/, "").replace(new RegExp(`^${name}\\b`), "");
  return text
    .replace(/[[\]]/g, "")
    .split(/\s+/)
    .filter((t) => t !== "" && t !== "|" && t !== "options" && t !== "...");
}

function fromUsage(tokens: string[]): { positionals: PositionalFact[]; options: OptionFact[] } {
  const positionals: PositionalFact[] = [];
  const options: OptionFact[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.startsWith("-")) {
      const next = tokens[i + 1]?.replace(/\.\.\.$/, ""); // [--secret NAME]... repeats the option
      const value = next !== undefined && PLACEHOLDER.test(next) ? next : undefined;
      if (value !== undefined) i++; // `-o FILE`: FILE is the option's, not a positional
      if (t.startsWith("--")) options.push({ long: t, ...(value ? { value } : {}), description: "" });
    } else positionals.push({ placeholder: t.replace(/\.\.\.$/, ""), repeats: t.endsWith("...") });
  }
  return { positionals, options };
}

/** `  --input, -i NAME=VALUE   set an input …` lines of the Options: section. */
function fromOptions(help: string): OptionFact[] {
  const section = help.split(/^Options:\n/m)[1];
  if (section === undefined) return [];
  const out: OptionFact[] = [];
  for (const line of section.split("\n")) {
    if (line.trim() === "") break;
    const m = /^ {2}(-{1,2}[a-z][\w-]*)(?:, (-{1,2}[a-z][\w-]*))?(?: ([^\s-]\S*))?\s{2,}(\S.*)$/i.exec(line);
    if (!m) continue;
    const [a, b] = [m[1]!, m[2]];
    const long = a.startsWith("--") ? a : b;
    const short = a.startsWith("--") ? b : a;
    if (long === undefined || !long.startsWith("--")) continue;
    out.push({ long, ...(short ? { short } : {}), ...(m[3] ? { value: m[3] } : {}), description: m[4]! });
  }
  return out;
}

function mergeOptions(usage: OptionFact[], section: OptionFact[]): OptionFact[] {
  const byLong = new Map<string, OptionFact>();
  for (const o of [...usage, ...section]) {
    const had = byLong.get(o.long);
    // Choices written in the usage line (--format text|mermaid|dot) say more than a placeholder (F).
    const value = had?.value?.includes("|") ? had.value : (o.value ?? had?.value);
    byLong.set(o.long, {
      long: o.long,
      ...((o.short ?? had?.short) ? { short: (o.short ?? had?.short)! } : {}),
      ...(value ? { value } : {}),
      description: o.description || had?.description || "",
    });
  }
  byLong.set("--help", { long: "--help", short: "-h", description: "help for this command" });
  return [...byLong.values()];
}

let cached: CommandFact[] | undefined;

/** Every command of `vouch --help`, in its order, with what its own help says. */
export function commandFacts(): CommandFact[] {
  if (cached) return cached;
  const described = descriptions();
  const names = [...described.keys()].filter((n) => Object.hasOwn(COMMAND_HELP, n));
  for (const n of Object.keys(COMMAND_HELP)) if (!names.includes(n)) names.push(n);
  cached = names.map((name) => {
    const help = COMMAND_HELP[name]!;
    const usage = fromUsage(usageTokens(help, name));
    return {
      name,
      description: described.get(name) ?? "",
      positionals: usage.positionals,
      options: mergeOptions(usage.options, fromOptions(help)),
    };
  });
  return cached;
}
