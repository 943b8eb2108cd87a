// Finding a program on PATH by looking at the file system (no process is
// started): the first executable regular file named `name` in a PATH folder.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

export function findOnPath(name: string, pathVar: string | undefined): string | null {
  if (name.includes("/")) return isExecutableFile(name) ? name : null;
  for (const dir of (pathVar ?? "").split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue; // a relative PATH entry depends on the cwd: skip it
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
