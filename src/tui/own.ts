// Records keyed by node or map id: read own members only, write as data, so
// no id (even `constructor` or `__proto__`) meets an inherited member. Graphs
// refuse those ids at load (ADR 0019); the view model holds anyway, since it
// also reads ledgers written by other versions.
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets `key` as an own data property, even for `__proto__`. */
export function put<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `record` with `key` set, as an own data property even for `__proto__`. */
export function withKey<T>(record: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const out: Record<string, T> = { ...record };
  put(out, key, value);
  return out;
}
