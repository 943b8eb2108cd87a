// Argument parsing for every command: node:util parseArgs in strict mode, with
// its errors turned into one clear UsageError line (exit 2).
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../engine/errors.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${command}: ${parseArgsMessage((e as Error).message, args)}`, `see: vouch ${command} --help`);
  }
}

/** node:util's messages in one line each: a value that looks like a flag, a flag missing its value. */
export function parseArgsMessage(raw: string, args: readonly string[]): string {
  const ambiguous = /^Option '([^']+)' argument is ambiguous\..*use '(--[\w-]+)=-XYZ'/s.exec(raw);
  if (ambiguous) {
    const [, flag, long] = ambiguous;
    const value = args[args.indexOf(flag!) + 1] ?? "-…";
    // No flag of vouch takes a negative number (budgets, counts, durations): pointing at
    // --flag=-1 would only lead to that refusal (issue 27 item 18).
    if (/^-(\d|\.\d)/.test(value)) return `${long} takes a value greater than zero, not "${value}"`;
    return `${flag} ${value}: a value that starts with "-" is written ${long}=${value}`;
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing$/.exec(raw);
  if (missing) return `${missing[1]} needs a value`;
  return raw.replace(/\. To specify a positional argument.*$/s, "").replace(/\s*\n\s*/g, " ");
}

/** A positive integer option, or a UsageError naming the flag. */
export function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} takes a whole number greater than zero, not "${value}"`);
  return n;
}

/** A positive number option, or a UsageError naming the flag. */
export function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} takes a number greater than zero, not "${value}"`);
  return n;
}
