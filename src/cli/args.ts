// Argument parsing for every command: node:util parseArgs in strict mode, with
// its errors turned into one clear UsageError line (exit 2).
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../engine/errors.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (e) {
    const message = (e as Error).message.replace(/\. To specify a positional argument.*$/s, "");
    throw new UsageError(`${command}: ${message}`, `see: vouch ${command} --help`);
  }
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
