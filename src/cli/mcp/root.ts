// The MCP server's root folder (ADR 0065): every path a client names is taken
// relative to it and must stay inside it once symbolic links are resolved — a
// path outside, `..` or a link that leads out, is refused with the reason. A
// graph run from the root may use only files under it too (its sub-graphs, its
// checks files): a graph file the client cannot write outside cannot reach out.
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { UsageError } from "../../engine/errors.ts";
import { checksPath } from "../../engine/graph/checks-library.ts";
import type { GraphFile } from "../../engine/graph/schema.ts";

const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

export class Root {
  /** The root with its links resolved. */
  readonly real: string;

  constructor(readonly path: string) {
    try {
      this.real = realpathSync(path);
    } catch (e) {
      throw new UsageError(`--root ${path}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such folder" : (e as Error).message}`);
    }
  }

  /** The real path of `p` (relative to the root, or absolute), refused unless it is inside the root. */
  resolve(p: string, what = "path"): string {
    if (typeof p !== "string" || p === "" || p.includes("\0")) throw new UsageError(`the ${what} is empty or not a path`);
    const abs = isAbsolute(p) ? resolve(p) : resolve(this.real, p);
    if (!inside(this.real, abs) && !inside(resolve(this.path), abs))
      throw new UsageError(`${what} ${p} is outside the server's root (${this.path}): refused`, "name a file under the root folder");
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      throw new UsageError(`${what} ${p}: no such file under the root`);
    }
    if (!inside(this.real, real))
      throw new UsageError(
        `${what} ${p} leads outside the server's root (${this.path}) through a symbolic link: refused`,
        "name a file under the root folder",
      );
    return real;
  }

  /** The path as the client should read it: relative to the root. */
  shown(real: string): string {
    return relative(this.real, real) || ".";
  }

  /** Refuses a graph whose sub-graphs or checks files lie outside the root. */
  refuseReachingOut(file: string, graph: GraphFile, subgraphs: ReadonlyMap<string, GraphFile>): void {
    for (const [path, g] of [[file, graph] as const, ...subgraphs]) {
      if (path !== file) this.resolve(path, `sub-graph ${relative(this.real, path)}`);
      for (const entry of g.checks_from ?? []) this.resolve(checksPath(path, entry), `checks file ${entry} (of ${this.shown(path)})`);
    }
  }
}
