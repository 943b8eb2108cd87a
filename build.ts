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

async function compile(outfile: string, target?: string): Promise<void> {
  const result = await Bun.build({
    entrypoints: ["./src/cli.ts"],
    compile: target ? { target: target as Bun.Build.CompileTarget, outfile } : { outfile },
    bytecode: true,
    format: "esm",
    minify: true,
    sourcemap: "none",
    define: { "process.env.NODE_ENV": '"production"', VOUCH_VERSION: JSON.stringify(version) },
    plugins: [stubDevtools],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
}

const cross = process.argv.includes("--cross");
await compile("./dist/vouch");
if (cross) {
  for (const target of CROSS_TARGETS) await compile(`./dist/vouch-${target.replace(/^bun-/, "")}`, target);
}
console.error(`built dist/vouch${cross ? " and " + CROSS_TARGETS.length + " cross targets" : ""} (vouch ${version})`);
