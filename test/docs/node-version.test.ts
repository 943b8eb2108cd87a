// The Node.js version the README states for the development tools, held to what
// the project and its installed packages declare: package.json's engines say
// what the README says; the packages that ask for more than Node 20 (npm's
// EBADENGINE warnings on Node 20) are the ones the README names among them, and
// every engine any installed package declares is met by Node 22.15; the npm
// scripts start only Bun, or tools whose own engines Node 20 meets.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT } from "../graph/binary.ts";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  engines?: { node?: string };
  scripts: Record<string, string>;
};

/** Every installed package's name and the Node range its package.json declares. */
function declaredEngines(): { name: string; node: string }[] {
  const out: { name: string; node: string }[] = [];
  const read = (dir: string) => {
    const file = join(dir, "package.json");
    if (!existsSync(file)) return;
    const p = JSON.parse(readFileSync(file, "utf8")) as { name?: string; engines?: { node?: unknown } };
    if (typeof p.engines?.node === "string" && p.name) out.push({ name: p.name, node: p.engines.node });
  };
  const modules = join(ROOT, "node_modules");
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith(".")) continue;
    if (entry.startsWith("@")) for (const sub of readdirSync(join(modules, entry))) read(join(modules, entry, sub));
    else read(join(modules, entry));
  }
  return out;
}

describe("the Node version of the development tools", () => {
  test("package.json's engines say Node 20 or later, as the README does", () => {
    expect(PKG.engines?.node).toBe(">=20");
    expect(README).toContain("Node.js 20 or later and npm are all you need");
  });

  test("the packages that ask for more than Node 20 include those the README names; Node 22.15 meets every declared engine", () => {
    const engines = declaredEngines();
    expect(engines.length).toBeGreaterThan(50); // node_modules was read
    const above20 = engines.filter((e) => !Bun.semver.satisfies("20.19.0", e.node)).map((e) => e.name);
    for (const named of ["ink", "vitest", "@opentelemetry/sdk-trace"]) expect(above20).toContain(named);
    expect(README).toMatch(/warns \(`EBADENGINE`\) that ink, vitest, OpenTelemetry/);
    expect(engines.filter((e) => !Bun.semver.satisfies("22.15.0", e.node))).toEqual([]);
    expect(README).toContain("is met by Node 22.15 or later");
  });

  test("the npm scripts start Bun, sh, npm or the built binary; the tools Node itself runs (tsc, biome) declare engines Node 20 meets", () => {
    const programs = Object.values(PKG.scripts).flatMap((s) => s.split(/&&|\|\||;/).map((part) => part.trim().split(/\s+/)[0]!));
    const outsideBun = new Set(programs.filter((p) => !["bun", "sh", "npm", "cd", "./dist/vouch", "tsc", "biome"].includes(p)));
    expect([...outsideBun].filter((p) => !p.includes("="))).toEqual([]); // VOUCH_HOME=… ../../dist/vouch in demo:plan
    const engines = new Map(declaredEngines().map((e) => [e.name, e.node]));
    for (const tool of ["typescript", "@biomejs/biome"]) expect(Bun.semver.satisfies("20.0.0", engines.get(tool)!), tool).toBe(true);
  });

  test("the Node on PATH (CI's) meets package.json's engines", () => {
    // `bun --bun` puts a `node` of its own first on PATH (a folder named bun-node-…): the real one is after it.
    const path = (process.env.PATH ?? "").split(":").filter((d) => !/bun-node-/.test(d));
    const node = Bun.which("node", { PATH: path.join(":") });
    if (node === null) return; // Bun alone: nothing to hold
    const version = Bun.spawnSync([node, "--version"]).stdout.toString().trim().replace(/^v/, "");
    expect(Bun.semver.satisfies(version, PKG.engines!.node!), version).toBe(true);
  });
});
