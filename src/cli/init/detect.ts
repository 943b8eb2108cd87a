// Everything `vouch init` detects in a project folder, in a fixed order: a
// Makefile first (a project that has one usually runs the rest through it), then
// package.json, deno.json, Python, go.mod, Cargo.toml; the CI workflows only
// when none of those gave a check. Reads through ProjectFiles only.
import { detectDeno } from "./detect-deno.ts";
import { detectGo } from "./detect-go.ts";
import { detectMake } from "./detect-make.ts";
import { detectNode } from "./detect-node.ts";
import { detectPython } from "./detect-python.ts";
import { detectRust } from "./detect-rust.ts";
import { detectWorkflows } from "./detect-workflows.ts";
import { merge, type Finding } from "./detected.ts";
import type { ProjectFiles } from "./project-files.ts";

const DETECTORS = [detectMake, detectNode, detectDeno, detectPython, detectGo, detectRust];

export function detect(files: ProjectFiles): Finding {
  const found = merge(DETECTORS.map((d) => d(files)));
  if (found.checks.length > 0) return found;
  return merge([found, detectWorkflows(files)]);
}
