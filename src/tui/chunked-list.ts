// An immutable sparse list for map branches: setting one entry copies one chunk
// of 64 and the chunk index, not the whole list, so a 10,000-branch map costs
// the reducer about the same per event as a 10-branch one.

const CHUNK = 64;

export interface ChunkedList<T> {
  readonly chunks: readonly (readonly (T | undefined)[] | undefined)[];
  /** One past the highest index set. */
  readonly length: number;
}

export function emptyList<T>(): ChunkedList<T> {
  return { chunks: [], length: 0 };
}

export function getAt<T>(list: ChunkedList<T>, index: number): T | undefined {
  return list.chunks[Math.floor(index / CHUNK)]?.[index % CHUNK];
}

export function setAt<T>(list: ChunkedList<T>, index: number, value: T): ChunkedList<T> {
  const c = Math.floor(index / CHUNK);
  const chunks = list.chunks.slice();
  const chunk = (chunks[c] ?? []).slice();
  chunk[index % CHUNK] = value;
  chunks[c] = chunk;
  return { chunks, length: Math.max(list.length, index + 1) };
}

/** The entries that are set, in index order. */
export function* entries<T>(list: ChunkedList<T>): Generator<T> {
  for (const chunk of list.chunks) {
    if (!chunk) continue;
    for (const v of chunk) if (v !== undefined) yield v;
  }
}

/** The list without entry `index`; a chunk left with no entry goes too, so a list whose
 *  entries are all cleared holds one slot per 64 indexes and nothing else (ADR 0078). */
export function clearAt<T>(list: ChunkedList<T>, index: number): ChunkedList<T> {
  const c = Math.floor(index / CHUNK);
  const old = list.chunks[c];
  if (old?.[index % CHUNK] === undefined) return list;
  const chunk = old.slice();
  chunk[index % CHUNK] = undefined;
  const chunks = list.chunks.slice();
  chunks[c] = chunk.some((v) => v !== undefined) ? chunk : undefined;
  return { chunks, length: list.length };
}
