// Compiles src/cli.ts into one standalone binary: dist/vouch.
// `bun run build.ts` builds for this machine; `--cross` also builds every
// release target of npm/platforms.json (linux-x64, linux-arm64, darwin-arm64,
// darwin-x64) as dist/vouch-<target>. A cross target needs that platform's Bun
// runtime, which Bun downloads from the npm registry once and caches (ADR 0027).
// `npm run release` (scripts/release.ts) compiles with the commit stamped in too.
import type { BunPlugin } from "bun";
import { version } from "./package.json";
import platforms from "./npm/platforms.json";

// ink imports react-devtools-core only in development; the import must resolve
// at bundle time or the binary dies at start (see ADR 0001). An empty module is enough.
const stubDevtools: BunPlugin = {
  name: "stub-react-devtools-core",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "vouch-stub" }));
    build.onLoad({ filter: /.*/, namespace: "vouch-stub" }, () => ({ contents: "export default {};", loader: "js" }));
  },
};

/** Bun's compile target per release target, e.g. "linux-arm64" -> "bun-linux-arm64". */
export const RELEASE_TARGETS: Record<string, string> = Object.fromEntries(
  Object.entries(platforms.targets).map(([key, t]) => [key, t.bun]),
);

/** Everything but the output: test/invariants/startup-chunk.test.ts bundles with it too.
 *  `splitting`: each lazily imported command is its own chunk inside the binary, so
 *  `--version` loads a small entry chunk instead of the whole 1.1 MB bundle
 *  (`--version` median 55 -> 38 ms wall on the 2-core build machine, ADR 0001). */
export const BUNDLE_OPTIONS = {
  // The spawn worker (src/spawn/process/spawn-threads.ts, ADR 0081) is an entrypoint of its own:
  // a compiled binary can start a Worker only from a file built into it.
  entrypoints: [`${import.meta.dirname}/src/cli.ts`, `${import.meta.dirname}/src/spawn/process/spawn-thread-entry.ts`],
  bytecode: true,
  format: "esm",
  minify: true,
  splitting: true,
  sourcemap: "none",
  define: { "process.env.NODE_ENV": '"production"', VOUCH_VERSION: JSON.stringify(version) },
  plugins: [stubDevtools],
} satisfies Partial<Bun.BuildConfig>;

/** The JIT policy the binary starts with: JavaScriptCore's tier-up thresholds times this.
 *  A one-shot command (`vouch validate` of a small graph) runs its YAML parser and zod
 *  schema construction once; compiling them cost more CPU than it saved (validate of
 *  graphs/finding-verifier.yaml 118 -> ~80 ms CPU). src/cli/jit-policy.ts puts the normal
 *  policy back for every command that can run long (ADR 0031). */
export const STARTUP_JIT_POLICY = 64;

/** Compiles one binary. `commit` (a release build's) is stamped into `vouch --version`;
 *  a development build leaves it out, so its version line does not change with every commit. */
export async function compile(outfile: string, target?: string, commit?: string): Promise<void> {
  const define = { ...BUNDLE_OPTIONS.define, ...(commit ? { VOUCH_COMMIT: JSON.stringify(commit) } : {}) };
  const result = await Bun.build({
    ...BUNDLE_OPTIONS,
    define,
    compile: { ...(target ? { target: target as Bun.Build.CompileTarget } : {}), outfile, jitPolicy: STARTUP_JIT_POLICY },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`compiling ${outfile}${target ? ` for ${target}` : ""} failed`);
  }
}

if (import.meta.main) {
  const cross = process.argv.includes("--cross");
  try {
    await compile("./dist/vouch");
    if (cross) for (const [key, target] of Object.entries(RELEASE_TARGETS)) await compile(`./dist/vouch-${key}`, target);
  } catch (e) {
    console.error(`build: ${(e as Error).message}`);
    process.exit(1);
  }
  const count = Object.keys(RELEASE_TARGETS).length;
  console.error(`built dist/vouch${cross ? ` and ${count} cross targets` : ""} (vouch ${version})`);
}
