// The last `keep` bytes of a stream, with a count of every byte seen.
// Memory is at most `keep` bytes however much is pushed: a ring buffer that
// grows (doubling) up to `keep` and then overwrites its oldest bytes. Nothing is
// allocated until the first byte: most commands print nothing on stderr, many on
// stdout either (two 4 KiB buffers per process before, ADR 0085).

const INITIAL_BYTES = 4096;
const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder();

export class TailBuffer {
  private buf: Uint8Array;
  /** Next write position once the ring is full; the fill level before that. */
  private pos = 0;
  private full = false;
  /** Every byte pushed, kept or not. */
  total = 0;

  constructor(readonly keep: number) {
    if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keepBytes must be a whole number >= 0, got ${keep}`);
    this.buf = EMPTY;
  }

  /** Bytes allocated for the window now (at most `keep`). */
  get capacity(): number {
    return this.buf.length;
  }

  get truncated(): boolean {
    return this.total > this.keep;
  }

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.keep === 0 || chunk.length === 0) return;
    if (this.buf.length === 0) this.buf = new Uint8Array(Math.min(this.keep, INITIAL_BYTES));
    if (chunk.length >= this.keep) {
      // The chunk alone covers the whole window.
      if (this.buf.length < this.keep) this.buf = new Uint8Array(this.keep);
      this.buf.set(chunk.subarray(chunk.length - this.keep));
      this.pos = 0;
      this.full = true;
      return;
    }
    if (!this.full) {
      const needed = this.pos + chunk.length;
      if (needed <= this.keep) {
        this.growFor(needed);
        this.buf.set(chunk, this.pos);
        this.pos = needed % this.keep;
        this.full = needed === this.keep;
        return;
      }
      this.growFor(this.keep);
    }
    const cap = this.buf.length;
    // Ring of exactly `keep` bytes from here on: write, wrapping at the end.
    const first = Math.min(chunk.length, cap - this.pos);
    this.buf.set(chunk.subarray(0, first), this.pos);
    const rest = chunk.length - first;
    if (rest > 0) this.buf.set(chunk.subarray(first), 0);
    this.pos = (this.pos + chunk.length) % cap;
    this.full = true;
  }

  /** The kept bytes, oldest first. */
  bytes(): Uint8Array {
    if (!this.full) return this.buf.slice(0, this.pos);
    const out = new Uint8Array(this.buf.length);
    out.set(this.buf.subarray(this.pos), 0);
    out.set(this.buf.subarray(0, this.pos), this.buf.length - this.pos);
    return out;
  }

  /** The kept bytes as text. When the window starts inside a UTF-8 character
   *  (output was cut), the orphaned continuation bytes are dropped. */
  text(): string {
    if (this.total === 0) return "";
    let bytes = this.bytes();
    if (this.truncated) {
      let skip = 0;
      while (skip < 3 && skip < bytes.length && (bytes[skip]! & 0xc0) === 0x80) skip++;
      bytes = bytes.subarray(skip);
    }
    return decoder.decode(bytes);
  }

  private growFor(needed: number): void {
    if (needed <= this.buf.length || this.buf.length === this.keep) return;
    const size = Math.min(this.keep, Math.max(needed, this.buf.length * 2));
    const bigger = new Uint8Array(size);
    bigger.set(this.buf.subarray(0, this.pos));
    this.buf = bigger;
  }
}
