// Shared by the sub-graph end-to-end tests: a folder of graph files per case, and event lookups.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";

/** Makes folders under `root`: each holds the given files and has a ledger home of its own. */
export function folderIn(root: string): (files: Record<string, string>) => { path: string; home: string } {
  let n = 0;
  return (files) => {
    const path = join(root, `case-${n++}`);
    mkdirSync(path, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(path, name, ".."), { recursive: true });
      writeFileSync(join(path, name), text);
    }
    return { path, home: join(path, ".home") };
  };
}

export const finished = (events: VouchEvent[], node: string) =>
  events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === node);
export const runFinished = (events: VouchEvent[]) => events.find((e): e is EventOf<"run.finished"> => e.type === "run.finished")!;
