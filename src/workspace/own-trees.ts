// vouch's own trees under a folder (ADR 0041): each is a folder X with vouch's
// git dir X.git beside it. Found by walking the folder without following links
// and without entering a tree (what is inside one is the sitting's).
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { isOwnTree } from "./tree.ts";

/** Every tree under `dir`, at any depth (a map branch's are <run>/<map>/<index>/<node>). */
export function ownTreesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    let names: string[];
    try {
      if (!lstatSync(d).isDirectory()) return;
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.endsWith(".git")) continue;
      const p = join(d, name);
      if (isOwnTree(p)) out.push(p);
      else if (depth < 16) walk(p, depth + 1);
    }
  };
  walk(dir, 0);
  return out.sort();
}
