// The npm packages of a release (ADR 0027), as data: the wrapper, whose `bin`
// is the launcher and whose optionalDependencies name one package per target,
// and a platform package per target holding one binary, with the os/cpu/libc
// fields npm uses to install only the one that fits. Pure: no file is touched.
import platforms from "../../npm/platforms.json";

export interface Target {
  /** `${process.platform}-${process.arch}`, e.g. "linux-arm64". */
  key: string;
  os: string;
  cpu: string;
  libc?: string;
  /** Bun's compile target, e.g. "bun-linux-arm64". */
  bun: string;
}

export const TARGETS: Target[] = Object.entries(platforms.targets).map(([key, t]) => ({ key, ...t }));
export const WRAPPER: string = platforms.wrapper;

export function platformPackageName(key: string): string {
  return `${platforms.scope}/${key}`;
}

const OS_NAMES: Record<string, string> = { linux: "Linux", darwin: "macOS" };

export function platformManifest(t: Target, version: string, license: string): Record<string, unknown> {
  return {
    name: platformPackageName(t.key),
    version,
    description: `The vouch binary for ${OS_NAMES[t.os] ?? t.os} ${t.cpu}${t.libc ? ` (${t.libc})` : ""}. Install ${WRAPPER}, which picks it.`,
    license,
    os: [t.os],
    cpu: [t.cpu],
    ...(t.libc ? { libc: [t.libc] } : {}),
    files: ["bin/vouch"],
    // Yarn's Plug'n'Play would otherwise keep the binary inside a zip, where it cannot be executed.
    preferUnplugged: true,
    publishConfig: { access: "public" },
  };
}

export function wrapperManifest(version: string, description: string, license: string): Record<string, unknown> {
  return {
    name: WRAPPER,
    version,
    description,
    license,
    bin: { vouch: "bin/vouch.js" },
    files: ["bin/vouch.js"],
    engines: { node: ">=18" },
    // Exactly this version of each: the launcher refuses a binary of another version.
    optionalDependencies: Object.fromEntries(TARGETS.map((t) => [platformPackageName(t.key), version])),
  };
}

/** What the release writes into its folder, by target: archive names are the download names. */
export function archiveName(version: string, key: string): string {
  return `vouch-${version}-${key}.tar.gz`;
}

/** `npm pack`'s file name for a package: the scope's @ dropped and its / made a -. */
export function packName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}
