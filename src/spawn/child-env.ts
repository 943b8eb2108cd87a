// THE one function that builds a child's environment (docs/architecture.md §2, invariant 5,
// §6). A child gets the allowlist, the variables named explicitly, and the
// engine's own VOUCH_* data variables — never the parent's environment as is.
// This is the only file in src/spawn that may read process.env.

/** Passed to every child when the parent has them. TRACEPARENT and TRACESTATE (W3C trace
 *  context) let a child's own spans nest under the trace vouch runs in; a traced session
 *  hands each child its own span's instead, through `vars` (ADR 0059). */
export const ALLOWED_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LANG",
  "TERM",
  "TMPDIR",
  "TZ",
  "SHELL",
  "TRACEPARENT",
  "TRACESTATE",
];
/** Locale variables (LC_ALL, LC_CTYPE, ...) pass as a family. */
const ALLOWED_PREFIX = "LC_";
/** Set by Claude Code in its own shells; a nested `claude` then refuses or misbehaves. Never passed. */
export const ALWAYS_REMOVED: readonly string[] = ["CLAUDECODE"];

export interface ChildEnv {
  env: Record<string, string>;
  /** Names from passNames that were found in the parent and passed (never values). */
  passed: string[];
  /** Names from passNames that the parent does not have. */
  missing: string[];
}

function allowed(name: string): boolean {
  return ALLOWED_NAMES.includes(name) || name.startsWith(ALLOWED_PREFIX);
}

/** The allowlisted part of `parent`: the same for every child of a session, so a session's
 *  runner builds it once (childEnvBase) instead of walking vouch's whole environment per
 *  command (issue 29 item 2). Null prototype, own members only: a name such as `constructor`
 *  or `__proto__` is an ordinary variable here, never an inherited member. */
export function childEnvBase(parent: Record<string, string | undefined>): Readonly<Record<string, string>> {
  const base: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && allowed(name) && !ALWAYS_REMOVED.includes(name)) base[name] = value;
  }
  return Object.freeze(base);
}

/**
 * The complete environment of a child process.
 * @param parent   the parent's environment (pass `parentEnv()` in production, a literal in tests)
 * @param passNames names to pass through although not allowlisted (credentials, model switches, ...)
 * @param vars     the engine's own data variables (VOUCH_RUN_ID, VOUCH_STATE_FILE, ...); they win over the parent
 * @param base     childEnvBase(parent), when the caller keeps it for many children of the same parent
 */
export function buildChildEnv(
  parent: Record<string, string | undefined>,
  passNames: string[],
  vars: Record<string, string> = {},
  base: Readonly<Record<string, string>> = childEnvBase(parent),
): ChildEnv {
  const env: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, base);
  const passed: string[] = [];
  const missing: string[] = [];
  for (const name of new Set(passNames)) {
    if (ALWAYS_REMOVED.includes(name)) continue;
    const value = Object.hasOwn(parent, name) ? parent[name] : undefined;
    if (value === undefined) missing.push(name);
    else {
      env[name] = value;
      passed.push(name);
    }
  }
  for (const [name, value] of Object.entries(vars)) env[name] = value;
  for (const name of ALWAYS_REMOVED) delete env[name];
  return { env, passed, missing };
}

/** A copy of vouch's own environment, to hand to buildChildEnv as `parent`. */
export function parentEnv(): Record<string, string | undefined> {
  return { ...process.env };
}
