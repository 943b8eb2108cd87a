// A small time-to-live cache.
export class TtlCache {
  constructor(ttlMs, now = () => Date.now()) {
    this.ttlMs = ttlMs;
    this.now = now;
    this.entries = new Map();
  }

  set(key, value) {
    this.entries.set(key, { value, at: this.now() });
  }

  get(key) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    return entry.value;
  }

  size() {
    return this.entries.size;
  }
}
