// `--input NAME=VALUE` values for `vouch run`. NAME=@FILE reads the value from a
// file (a review, a list of changed files); @@ at the start stands for a literal @.
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { InputError } from "../engine/errors.ts";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseInputs(pairs: string[], cwd: string): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new InputError(`--input "${pair}" is not NAME=VALUE`, 'write --input name=value, or --input name=@file to read a file');
    const name = pair.slice(0, eq);
    if (!NAME.test(name)) throw new InputError(`--input name "${name}" is not a valid input name (letters, digits, _)`);
    if (Object.hasOwn(inputs, name)) throw new InputError(`--input ${name} is given twice`);
    inputs[name] = inputValue(name, pair.slice(eq + 1), cwd);
  }
  return inputs;
}

function inputValue(name: string, raw: string, cwd: string): string {
  if (raw.startsWith("@@")) return raw.slice(1);
  if (!raw.startsWith("@")) return raw;
  const file = raw.slice(1);
  if (file === "") throw new InputError(`--input ${name}=@ names no file`, "write --input name=@path/to/file");
  const path = isAbsolute(file) ? file : resolve(cwd, file);
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (e as Error).message;
    throw new InputError(`--input ${name}=@${file}: cannot read ${file}: ${why}`, "to pass a value that starts with @, write @@");
  }
}
