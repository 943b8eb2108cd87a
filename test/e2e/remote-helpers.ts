// What the tests of operating a run from another process share (issue 31): a graph
// whose map branches each wait for a file the test creates (so a test decides when
// work ends — no sleeping), and the run's NDJSON read as it comes (Coordinator).
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { Coordinator } from "../scale/fleet.ts";
import { ensureBinary, tempDir, type TempDir } from "./helpers.ts";

export { Coordinator, of } from "../scale/fleet.ts";

/** One test's folder, its ledger home and the coordinators it started: made before each test,
 *  every coordinator still running killed and the folder removed after it. */
export interface RemoteWorld {
  dir: TempDir;
  home: string;
  start(args: string[]): Coordinator;
}

export function remoteWorld(name: string): RemoteWorld {
  const live: Coordinator[] = [];
  const w: RemoteWorld = {
    dir: undefined as unknown as TempDir,
    home: "",
    start(args) {
      const c = new Coordinator(args, w.home, w.dir.path);
      live.push(c);
      return c;
    },
  };
  beforeEach(async () => {
    await ensureBinary();
    w.dir = tempDir(name);
    w.home = join(w.dir.path, ".vouch");
  });
  afterEach(async () => {
    for (const c of live.splice(0)) {
      if (c.proc.exitCode === null) c.proc.kill("SIGKILL");
      await c.proc.exited;
    }
    w.dir.cleanup();
  });
  return w;
}

/** A map over 1..items; each branch's `work` waits for <dir>/go-<item> (or <dir>/go-all), then
 *  passes; then an approval `gate` (unless gate: false) and a last script. Static commands: the
 *  folder is written into the graph, never templated. */
export function gatedMapGraph(dir: string, o: { items?: number; concurrency?: number; gate?: boolean; name?: string } = {}): string {
  const items = JSON.stringify(Array.from({ length: o.items ?? 4 }, (_, i) => i + 1));
  const wait = `i=$(cat "$VOUCH_ITEM_FILE"); while [ ! -e '${dir}/go-'$i ] && [ ! -e '${dir}/go-all' ]; do sleep 0.02; done; echo "did $i"`;
  const gate = o.gate === false ? "" : `  gate:\n    kind: approval\n    needs: [each]\n    prompt: "ship it?"\n`;
  return `version: 1
name: ${o.name ?? "gated"}
nodes:
  items:
    kind: script
    run: ${JSON.stringify(`echo '${items}'`)}
    output: { format: json }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    max_concurrency: ${o.concurrency ?? 2}
    branch:
      work:
        kind: script
        run: ${JSON.stringify(wait)}
${gate}  after:
    kind: script
    needs: [${o.gate === false ? "each" : "gate"}]
    run: "echo shipped"
`;
}

export function writeGraph(dir: string, text: string, name = "gated.yaml"): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Lets branch `item` (or every branch: "all") finish. */
export function release(dir: string, item: number | "all"): void {
  const f = join(dir, `go-${item}`);
  if (!existsSync(f)) writeFileSync(f, "");
}

export const finishedBranches = (events: VouchEvent[], status = "passed") =>
  events.filter((e): e is EventOf<"branch.finished"> => e.type === "branch.finished" && e.status === status).map((e) => e.branch.index);

/** node.started of `node` in each session, by branch index: what ran where. */
export function startsBySession(events: VouchEvent[], node: string): number[][] {
  const out: number[][] = [];
  let session = -1;
  for (const e of events) {
    if (e.type === "run.started") out[++session] = [];
    if (e.type === "node.started" && e.node === node) out[session]!.push(e.branch?.index ?? -1);
  }
  return out.map((s) => s.sort((a, b) => a - b));
}
