// Cargo.toml: cargo's own evidence. Plain `cargo clippy` exits 0 on warnings, so
// it would pass whatever it found: `-D warnings` makes a warning fail the check.
// `cargo fmt --check` exits 1 and prints the diff when a file needs formatting.
// Nothing of Cargo.toml is read: its presence is the whole signal.
import type { Finding } from "./detected.ts";
import type { ProjectFiles } from "./project-files.ts";
import { testFolderGlobs } from "./text.ts";

export function detectRust(files: ProjectFiles): Finding {
  if (!files.exists("Cargo.toml")) return { checks: [], found: [], notes: [], protect: [] };
  return {
    checks: [
      {
        kind: "tests",
        prefix: "cargo",
        origin: "Cargo.toml: the crate's tests",
        run: "cargo test",
        program: "cargo",
        timeout: "10m",
        description: "cargo test (unit, integration and doc tests)",
      },
      {
        kind: "clippy",
        prefix: "cargo",
        origin: "Cargo.toml: clippy, warnings as errors (plain cargo clippy exits 0 on warnings)",
        run: "cargo clippy --all-targets -- -D warnings",
        program: "cargo",
        timeout: "10m",
        description: "cargo clippy with every warning an error",
      },
      {
        kind: "fmt",
        prefix: "cargo",
        origin: "Cargo.toml: rustfmt",
        run: "cargo fmt --check",
        program: "cargo",
        timeout: "2m",
        description: "no file needs rustfmt (cargo fmt --check prints the diff)",
      },
    ],
    found: ["Cargo.toml: cargo test, cargo clippy, cargo fmt --check"],
    notes: [],
    protect: testFolderGlobs(files),
  };
}
