// Small text helpers of `vouch init`: text from a project file shown on one
// line (a comment or a description), and the test folders a project has.
import { sanitizeInline } from "../../text/sanitize.ts";
import type { ProtectedPath } from "./detected.ts";
import type { ProjectFiles } from "./project-files.ts";

/** Text from a project file as one clean line of at most max characters: no control
 *  character, no newline (it goes into a YAML comment, where a newline would end it). */
export function oneLine(text: string, max: number): string {
  const clean = sanitizeInline(text).replace(/\s+/g, " ").trim();
  return clean.length <= max ? clean : `${clean.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** The usual top-level test folders that exist here. */
const TEST_FOLDERS = ["test", "tests", "spec", "__tests__", "e2e"];

export function testFolderGlobs(files: ProjectFiles): ProtectedPath[] {
  return TEST_FOLDERS.filter((d) => files.isDir(d)).map((d) => ({ glob: `${d}/**`, why: "the tests" }));
}
