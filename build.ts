// Compiles src/cli.ts into one standalone binary: dist/vouch.
// `bun run build.ts` builds for this machine; `--cross` also builds
// linux-x64, linux-arm64 and darwin-arm64 as dist/vouch-<target>.
import type { BunPlugin } from "bun";
import { version } from "./package.json";

// ink imports react-devtools-core only in development; the import must resolve
// at bundle time or the binary dies at start (see ADR 0001). An empty module is enough.
const stubDevtools: BunPlugin = {
  name: "stub-react-devtools-core",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "vouch-stub" }));
    build.onLoad({ filter: /.*/, namespace: "vouch-stub" }, () => ({ contents: "export default {};", loader: "js" }));
  },
};

const CROSS_TARGETS = ["bun-linux-x64", "bun-linux-arm64", "bun-darwin-arm64"] as const;

/** Everything but the output: test/invariants/startup-chunk.test.ts bundles with it too.
 *  `splitting`: each lazily imported command is its own chunk inside the binary, so
 *  `--version` loads a small entry chunk instead of the whole 1.1 MB bundle
 *  (`--version` median 55 -> 38 ms wall on the 2-core build machine, ADR 0001). */
export const BUNDLE_OPTIONS = {
  entrypoints: [`${import.meta.dirname}/src/cli.ts`],
  bytecode: true,
  format: "esm",
  minify: true,
  splitting: true,
  sourcemap: "none",
  define: { "process.env.NODE_ENV": '"production"', VOUCH_VERSION: JSON.stringify(version) },
  plugins: [stubDevtools],
} satisfies Partial<Bun.BuildConfig>;

async function compile(outfile: string, target?: string): Promise<void> {
  const result = await Bun.build({
    ...BUNDLE_OPTIONS,
    compile: target ? { target: target as Bun.Build.CompileTarget, outfile } : { outfile },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
}

if (import.meta.main) {
  const cross = process.argv.includes("--cross");
  await compile("./dist/vouch");
  if (cross) {
    for (const target of CROSS_TARGETS) await compile(`./dist/vouch-${target.replace(/^bun-/, "")}`, target);
  }
  console.error(`built dist/vouch${cross ? " and " + CROSS_TARGETS.length + " cross targets" : ""} (vouch ${version})`);
}
