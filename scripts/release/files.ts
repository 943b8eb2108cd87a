// The release's file work: the archive per target (tar), the npm packages
// (npm pack), and SHA256SUMS over everything written. Each runs a real program
// (tar, npm), as a person would, so the files are what those tools make.
import { createReadStream } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ReleaseError } from "./release-error.ts";

async function exec(argv: string[], cwd: string): Promise<string> {
  const child = Bun.spawn(argv, { cwd, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0)
    throw new ReleaseError(`${argv.join(" ")} failed with exit ${code}:\n${err.trim()}`, `run it by hand in ${cwd} to see why`);
  return out;
}

/** `tar -czf OUT -C PARENT NAME`: the archive unpacks into one folder, NAME. */
export async function tarGz(out: string, parent: string, name: string): Promise<void> {
  await exec(["tar", "-czf", out, "-C", parent, name], parent);
}

/** `npm pack` of a package folder into `dest`; returns the file name npm chose. */
export async function npmPack(dir: string, dest: string): Promise<string> {
  const out = await exec(["npm", "pack", "--pack-destination", dest, "--ignore-scripts", "--json", "--silent"], dir);
  const [packed] = JSON.parse(out) as { filename: string }[];
  if (!packed) throw new ReleaseError(`npm pack in ${dir} printed no file`, "run npm pack there by hand");
  return packed.filename.replace(/^@/, "").replace("/", "-");
}

async function sha256(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of createReadStream(path)) hasher.update(chunk as Buffer);
  return hasher.digest("hex");
}

/** SHA256SUMS in the format `sha256sum -c` reads: "<hex>  <name>", sorted by name. */
export async function writeSums(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => n !== "SHA256SUMS").sort();
  const lines = [];
  for (const name of names) lines.push(`${await sha256(join(dir, name))}  ${name}`);
  await writeFile(join(dir, "SHA256SUMS"), lines.map((l) => `${l}\n`).join(""));
  return names;
}

/** Runs the jobs `limit` at a time: compressing 100 MB binaries is the release's slow part. */
export async function inParallel<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, jobs.length)) }, worker));
  return results;
}
