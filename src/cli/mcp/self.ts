// How this vouch starts another of itself (the MCP server's runs): the compiled
// binary is its own program; from source (bun src/cli.ts) it is bun and the script.
export function selfArgv(): string[] {
  const main = Bun.main;
  const compiled = main.startsWith("/$bunfs/") || main.startsWith("B:/~BUN/");
  return compiled ? [process.execPath] : [process.execPath, main];
}
