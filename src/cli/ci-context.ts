// Where a run's files are, for the CI formats (ADR 0058): the repository root every
// location is relative to, and the repository and commit for SARIF. The root is --root,
// else the CI's checkout (GITHUB_WORKSPACE, CI_PROJECT_DIR), else the nearest folder
// above the run's base folder that holds `.git`, else that folder itself.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CiContextFor } from "../report/render.ts";

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function gitRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

export function ciContextFor(env: Record<string, string | undefined>, cwd: string, root?: string): CiContextFor {
  return (baseDir) => {
    const from = baseDir ?? cwd;
    const dir = root !== undefined ? resolve(cwd, root) : env.GITHUB_WORKSPACE || env.CI_PROJECT_DIR || gitRoot(from) || from;
    const server = env.GITHUB_SERVER_URL?.replace(/\/+$/, "");
    const repositoryUri = server && env.GITHUB_REPOSITORY ? `${server}/${env.GITHUB_REPOSITORY}` : env.CI_PROJECT_URL || undefined;
    const commit = [env.GITHUB_SHA, env.CI_COMMIT_SHA].find((c) => c !== undefined && COMMIT.test(c));
    return { root: resolve(dir), ...(repositoryUri ? { repositoryUri } : {}), ...(commit ? { commit } : {}) };
  };
}
