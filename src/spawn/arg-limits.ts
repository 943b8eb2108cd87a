// Linux's limits on what a program is started with (execve(2)): one argument
// or environment string ("NAME=value") may hold at most MAX_ARG_STRLEN bytes
// (32 pages: 128 KiB, NUL included) whatever the stack limit, and argv and the
// environment together at most a quarter of the stack limit (ARG_MAX, usually
// 2 MiB). Past either, the start fails with E2BIG. Checked before the start, so
// the message names the variable or argument that is too long, not just
// "argument list too long". Pure.

export const MAX_ARG_STRLEN = 128 * 1024;

const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;
/** At most 3 UTF-8 bytes per UTF-16 unit: strings this short cannot be over the limit (no encoding needed). */
const surelyFits = (units: number) => units * 3 + 2 <= MAX_ARG_STRLEN;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** Why the kernel would refuse to start argv with env, when one string is too long; else undefined. */
export function argStringProblem(argv: readonly string[], env: Record<string, string>): string | undefined {
  // Over the keys: no entry array nor rest-argument array per variable and command (ADR 0085).
  for (const name of Object.keys(env)) {
    const value = env[name]!;
    if (surelyFits(name.length + value.length)) continue;
    const size = bytes(name) + 1 + bytes(value) + 1;
    if (size > MAX_ARG_STRLEN)
      return `the environment variable ${name} is ${kib(size)}; the system refuses any one variable or argument over 128 KiB (E2BIG)`;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (surelyFits(arg.length)) continue;
    const size = bytes(arg) + 1;
    if (size > MAX_ARG_STRLEN)
      return `${i === 2 && argv[1] === "-c" ? "the shell command" : `argument ${i}`} is ${kib(size)}; the system refuses any one variable or argument over 128 KiB (E2BIG)`;
  }
  return undefined;
}

/** For an E2BIG the kernel gave anyway (the total over ARG_MAX): what the start carried. */
export function argTotalsMessage(argv: readonly string[], env: Record<string, string>): string {
  let total = 0;
  let largest = { name: "", size: 0 };
  for (const [name, value] of Object.entries(env)) {
    const size = bytes(name) + bytes(value) + 2;
    total += size;
    if (size > largest.size) largest = { name, size };
  }
  for (const arg of argv) total += bytes(arg) + 1;
  const biggest = largest.size > 0 ? ` (the largest variable: ${largest.name}, ${kib(largest.size)})` : "";
  return `E2BIG: the arguments and environment together are ${kib(total)}${biggest}, over the system's limit (getconf ARG_MAX)`;
}
