// Reads a V8/Bun .cpuprofile (the Chrome DevTools format Bun's --cpu-prof writes)
// and sums self time per function and per group, so a contributor sees at once
// where a run's CPU went: Bun's spawn, SQLite, the file system, or vouch's own code.
// Pure: text in, numbers out (scripts/profile/run.ts does the I/O).

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

export interface Line {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  functions: Line[];
  groups: Line[];
}

/** Native functions worth naming as their own group (the rest of native is "other native"). */
const NATIVE_GROUPS: Record<string, string> = {
  spawn: "process spawn (Bun.spawn)",
  mkdtempSync: "file system",
  mkdtemp: "file system",
  writeFile: "file system",
  writeFileSync: "file system",
  chmod: "file system",
  mkdir: "file system",
  rm: "file system",
  rmSync: "file system",
  open: "file system",
  close: "file system",
  stat: "file system",
  statSync: "file system",
};

type Node = CpuProfile["nodes"][number];

/** A native frame counts for whoever called it (SQLite's `run` for bun:sqlite), unless it is
 *  one of the named natives (spawn, the file system). */
function groupOf(node: Node, parentOf: Map<number, Node>): string {
  const { functionName, url } = node.callFrame;
  if (url === "") {
    const named = NATIVE_GROUPS[functionName];
    if (named) return named;
    if (functionName === "(garbage collector)") return "garbage collector";
    let up = parentOf.get(node.id);
    while (up && up.callFrame.url === "") up = parentOf.get(up.id);
    return up ? groupOfUrl(up.callFrame.url) : "other native";
  }
  return groupOfUrl(url);
}

function groupOfUrl(url: string): string {
  if (url.startsWith("bun:sqlite")) return "SQLite (bun:sqlite)";
  const src = /\/src\/([a-z]+)\//.exec(url);
  if (src) return `vouch src/${src[1]}`;
  if (url.includes("node_modules/")) return `library ${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)![1]}`;
  return "other JavaScript";
}

function shortUrl(url: string): string {
  const parts = url.split("/");
  return parts.slice(-2).join("/");
}

function top(m: Map<string, number>, total: number, n: number): Line[] {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: us / 1000, share: total === 0 ? 0 : us / total }));
}

export function summarize(profile: CpuProfile, topN = 25): ProfileSummary {
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const parentOf = new Map<number, Node>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const byFunction = new Map<string, number>();
  const byGroup = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (us === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    // The idle and program roots are the event loop waiting, not work.
    if (functionName === "(idle)" || functionName === "(program)" || functionName === "(root)") continue;
    total += us;
    const where = url === "" ? "native" : `${shortUrl(url)}:${lineNumber + 1}`;
    const key = `${functionName || "(anonymous)"}  ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const group = groupOf(node, parentOf);
    byGroup.set(group, (byGroup.get(group) ?? 0) + us);
  }
  return { totalMs: total / 1000, functions: top(byFunction, total, topN), groups: top(byGroup, total, 50) };
}

export function renderSummary(s: ProfileSummary): string {
  const line = (l: Line) => `${l.ms.toFixed(1).padStart(9)} ms ${(l.share * 100).toFixed(1).padStart(5)} %  ${l.name}`;
  return [
    `CPU time sampled: ${s.totalMs.toFixed(0)} ms (idle excluded)`,
    "",
    "By group:",
    ...s.groups.map(line),
    "",
    `Top ${s.functions.length} functions by self time:`,
    ...s.functions.map(line),
  ].join("\n");
}
