// Splits a byte stream into text lines for live callbacks. UTF-8 characters
// cut between chunks are decoded whole; a line longer than `maxLength`
// characters is delivered cut to that length (with cut = true) and the rest of
// it is dropped, so one endless line cannot grow memory.

export type LineCallback = (line: string, cut: boolean) => void;

export class LineSplitter {
  private readonly decoder = new TextDecoder();
  private pieces: string[] = [];
  private length = 0;
  private dropped = false;

  constructor(
    private readonly onLine: LineCallback,
    private readonly maxLength: number,
  ) {}

  push(chunk: Uint8Array): void {
    this.scan(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended: a final line without a newline is delivered too. */
  end(): void {
    this.scan(this.decoder.decode());
    if (this.length > 0 || this.dropped) this.flush();
  }

  private scan(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl === -1) {
        this.append(text, start, text.length);
        return;
      }
      this.append(text, start, nl);
      this.flush();
      start = nl + 1;
    }
  }

  private append(text: string, from: number, to: number): void {
    if (to <= from) return;
    const room = this.maxLength - this.length;
    if (to - from > room) {
      let end = from + Math.max(room, 0);
      // Never keep half of a surrogate pair.
      if (end > from && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      if (end > from) this.pieces.push(text.slice(from, end));
      this.length = this.maxLength;
      this.dropped = true;
      return;
    }
    this.pieces.push(from === 0 && to === text.length ? text : text.slice(from, to));
    this.length += to - from;
  }

  private flush(): void {
    const line = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
    const cut = this.dropped;
    this.pieces = [];
    this.length = 0;
    this.dropped = false;
    this.onLine(line, cut);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
