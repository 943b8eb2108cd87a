// The npm launcher's pure decisions (npm/vouch-cli/bin/vouch.js), and that the
// release's package manifests and the launcher agree on every target: the
// launcher finds a package by `${process.platform}-${process.arch}`, npm
// installs it by the os/cpu fields the release writes. Installed for real in
// release.test.ts.
import { describe, expect, test } from "vitest";
import { createRequire } from "node:module";
import fc from "fast-check";
import { platformManifest, platformPackageName, TARGETS, wrapperManifest } from "../../scripts/release/packages.ts";

interface Choice {
  ok: boolean;
  key: string;
  name?: string;
  version?: string;
  supported: string[];
}
interface Problem {
  what: string;
  hints: string[];
}
const launcher = createRequire(import.meta.url)("../../npm/vouch-cli/bin/vouch.js") as {
  choosePackage(manifest: { optionalDependencies?: Record<string, string> }, platform: string, arch: string): Choice;
  problemMessage(p: Problem): string;
};

const manifest = wrapperManifest("1.2.3", "d", "MIT") as { name: string; optionalDependencies: Record<string, string> };

describe("the launcher picks the package npm installed for this platform", () => {
  test("every release target: the package whose os/cpu npm matches is the one the launcher looks for", () => {
    expect(TARGETS.map((t) => t.key)).toEqual(["linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64"]);
    for (const t of TARGETS) {
      const m = platformManifest(t, "1.2.3", "MIT") as { os: string[]; cpu: string[] };
      const choice = launcher.choosePackage(manifest, m.os[0]!, m.cpu[0]!);
      expect(choice).toEqual({
        ok: true,
        key: t.key,
        name: platformPackageName(t.key),
        version: "1.2.3",
        supported: TARGETS.map((x) => x.key),
      });
    }
  });

  test("a platform with no package is refused, naming the supported ones", () => {
    for (const [platform, arch] of [
      ["win32", "x64"],
      ["linux", "ia32"],
      ["freebsd", "arm64"],
      ["linux", "arm"],
    ] as const) {
      expect(launcher.choosePackage(manifest, platform, arch)).toMatchObject({
        ok: false,
        key: `${platform}-${arch}`,
        supported: ["linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64"],
      });
    }
  });

  test("hostile platform names never pick a package or reach a prototype member", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "toString", "linux-x64/..", "")),
        fc.string(),
        (platform, arch) => {
          const choice = launcher.choosePackage(manifest, platform, arch);
          const key = `${platform}-${arch}`;
          expect(choice.ok).toBe(TARGETS.some((t) => t.key === key));
          if (choice.ok) expect(choice.name).toBe(platformPackageName(key));
        },
      ),
    );
    expect(launcher.choosePackage({}, "linux", "x64")).toMatchObject({ ok: false, supported: [] });
  });

  test("a problem prints as `vouch: ...` and one `hint:` line each, as vouch's own messages do", () => {
    expect(launcher.problemMessage({ what: "no binary", hints: ["do a", "or b"] })).toBe("vouch: no binary\nhint: do a\nhint: or b\n");
  });
});
