// Reads the project's source files for the invariant tests (docs/architecture.md §1).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(name)) out.push(relative(ROOT, p));
    }
  };
  if (existsSync(join(ROOT, dir))) walk(join(ROOT, dir));
  return out.sort();
}

export function read(file: string): string {
  return readFileSync(join(ROOT, file), "utf8");
}

/** Module specifiers of every import/export-from/dynamic import in a file. */
export function importsOf(file: string): string[] {
  const text = read(file);
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']/g)) specs.push(m[1]!);
  for (const m of text.matchAll(/import\s*\(\s*["']([^"']+)["']\s*\)/g)) specs.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) specs.push(m[1]!);
  return specs;
}
