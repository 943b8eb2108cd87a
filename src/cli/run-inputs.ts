// `--input NAME=VALUE` values for `vouch run`. NAME=@FILE reads the value from a
// file (a review, a list of changed files); @@ at the start stands for a literal @.
import { isAbsolute, resolve } from "node:path";
import { InputError } from "../engine/errors.ts";
import { MAX_INPUT_ENV, readLimited } from "../spawn/read-limited.ts";
import { noteInput } from "./jit-policy.ts";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** maxBytes: the limit on one @FILE (fileLimits(env).inputBytes). */
export function parseInputs(pairs: string[], cwd: string, maxBytes: number): Record<string, string> {
  // Null prototype: `-i __proto__=x` is an (unknown) input name, never a prototype.
  const inputs: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0)
      throw new InputError(`--input "${pair}" is not NAME=VALUE`, "write --input name=value, or --input name=@file to read a file");
    const name = pair.slice(0, eq);
    if (!NAME.test(name)) throw new InputError(`--input name "${name}" is not a valid input name (letters, digits, _)`);
    if (Object.hasOwn(inputs, name)) throw new InputError(`--input ${name} is given twice`);
    inputs[name] = inputValue(name, pair.slice(eq + 1), cwd, maxBytes);
  }
  return inputs;
}

function inputValue(name: string, raw: string, cwd: string, maxBytes: number): string {
  if (raw.startsWith("@@")) return raw.slice(1);
  if (!raw.startsWith("@")) return raw;
  const file = raw.slice(1);
  if (file === "") throw new InputError(`--input ${name}=@ names no file`, "write --input name=@path/to/file");
  const path = isAbsolute(file) ? file : resolve(cwd, file);
  const bytes = readLimited(path, {
    what: `--input ${name}=@${file}`,
    maxBytes,
    raise: `to pass a larger input, set ${MAX_INPUT_ENV} (e.g. ${MAX_INPUT_ENV}=256MiB)`,
    unreadable: "name a regular file (vouch does not read pipes or devices); to pass a value that starts with @, write @@",
  });
  noteInput(bytes.length); // a big input is read with the JIT's normal policy (ADR 0031)
  return new TextDecoder().decode(bytes);
}
