// Reads one output stream of a child to its end: every byte counted, the last
// bytes kept (TailBuffer), complete lines handed to a callback (LineSplitter).
// Memory stays bounded whatever the child prints.
import { LineSplitter, type LineCallback } from "./line-splitter.ts";
import { TailBuffer } from "./tail-buffer.ts";

/** The part of a stream reader used here (Bun's and the DOM typings differ). */
interface ChunkReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(): Promise<void>;
}

export class StreamPump {
  readonly tail: TailBuffer;
  private readonly lines?: LineSplitter;
  private reader?: ChunkReader;
  /** The first error thrown by the line callback: reported after the group is dead. */
  callbackError: unknown;

  constructor(
    keepBytes: number,
    maxLineLength: number,
    /** Called for every chunk that arrives (for idle supervision). */
    private readonly onBytes: () => void,
    onLine?: LineCallback,
    /** Called once when the line callback throws (the caller stops the group). */
    onCallbackError?: () => void,
  ) {
    this.tail = new TailBuffer(keepBytes);
    if (onLine) {
      this.lines = new LineSplitter((line, cut) => {
        if (this.callbackError !== undefined) return;
        try {
          onLine(line, cut);
        } catch (e) {
          // A throwing callback must not stop the reading: the pipe would fill and
          // the child block. Remember it; the caller stops the group and rethrows
          // once it is dead.
          this.callbackError = e;
          onCallbackError?.();
        }
      }, maxLineLength);
    }
  }

  /** Resolves when the stream ends (every holder of its write end is gone) or stop() is called. */
  async run(stream: ReadableStream<Uint8Array>): Promise<void> {
    const reader: ChunkReader = stream.getReader();
    this.reader = reader;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || value === undefined) break;
        this.tail.push(value);
        this.lines?.push(value);
        this.onBytes();
      }
    } catch {
      // A cancelled or broken pipe ends the stream; what was read is kept.
    } finally {
      this.lines?.end();
    }
  }

  /** Stops reading (a process outside the group still holds the pipe). */
  stop(): void {
    this.reader?.cancel().catch(() => {});
  }
}
