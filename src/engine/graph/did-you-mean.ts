// "Did you mean" suggestions for misspelt names (fields, kinds, node ids, inputs).

/** Edit distance with adjacent transpositions (optimal string alignment). Three
 *  rolling rows, not a matrix: it runs once per unknown name and candidate. */
export function editDistance(a: string, b: string): number {
  const cols = b.length + 1;
  let before = new Int32Array(cols); // row i-2
  let prev = Int32Array.from({ length: cols }, (_, j) => j); // row i-1
  let cur = new Int32Array(cols);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      cur[j] = best;
    }
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[b.length]!;
}

/** Candidate sets up to this size are searched exhaustively (every graph a person
 *  writes); above it a Suggester answers from an index and a bounded sample. */
export const EXHAUSTIVE_UP_TO = 256;
/** At most this many edit distances per (distinct) word in a large set. */
export const MAX_COMPARISONS = 256;

let comparisons = 0;
/** Edit distances computed so far in this process: lets tests bound the work per unknown name. */
export function comparisonCount(): number {
  return comparisons;
}

function distance(a: string, b: string): number {
  comparisons++;
  return editDistance(a, b);
}

/** Close enough: a case-only difference, or at most 40% of the word's length in edits (at least 1). */
function closeEnough(word: string, bestDistance: number): boolean {
  const limit = Math.max(1, Math.round(word.length * 0.4));
  // A suggestion must share something with the word: "b" is not a typo of "a".
  return bestDistance <= limit && bestDistance < word.length;
}

/** Every candidate, first closest wins: the answer for the small sets of a hand-written graph. */
function exhaustive(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return closeEnough(word, bestDistance) ? best : undefined;
}

/** The word and each of its one-character deletions: two strings one edit apart
 *  (insert, delete, substitute, swap neighbours) always share one of these keys. */
function deletions(word: string): string[] {
  const out = [word];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Suggestions against one fixed candidate set, each distinct word answered once. Below
 *  EXHAUSTIVE_UP_TO candidates the answer is exactly suggest()'s; above it a word one
 *  edit from a candidate is found through a deletion index, and anything further is
 *  looked for among at most MAX_COMPARISONS candidates nearest its length, so the work
 *  per unknown name is bounded however large the graph (issue 29). */
export class Suggester {
  private readonly list: string[];
  private readonly answers = new Map<string, string | undefined>();
  private byLower?: Map<string, number[]>;
  private byDeletion?: Map<string, number[]>;
  private byLength?: Map<number, number[]>;

  constructor(candidates: Iterable<string>) {
    this.list = [...candidates];
  }

  suggest(word: string): string | undefined {
    if (word.length > 64) return undefined; // long text is not a typo of a short name
    if (this.answers.has(word)) return this.answers.get(word);
    const answer = this.list.length <= EXHAUSTIVE_UP_TO ? exhaustive(word, this.list) : this.indexed(word);
    this.answers.set(word, answer);
    return answer;
  }

  private indexed(word: string): string | undefined {
    this.build();
    const lower = word.toLowerCase();
    const sameCase = this.byLower!.get(lower)?.find((i) => this.list[i] !== word);
    if (sameCase !== undefined) return this.list[sameCase];
    const near = new Set<number>();
    for (const k of deletions(lower)) for (const i of this.byDeletion!.get(k) ?? []) near.add(i);
    const oneEdit = this.closest(
      lower,
      [...near].sort((a, b) => a - b),
    );
    if (oneEdit.best !== undefined && closeEnough(word, oneEdit.distance)) return oneEdit.best;
    const further = this.closest(lower, this.byNearLength(word.length));
    return further.best !== undefined && closeEnough(word, further.distance) ? further.best : undefined;
  }

  /** The first closest of `order` (indices into the list), at most MAX_COMPARISONS of them. */
  private closest(lower: string, order: readonly number[]): { best?: string; distance: number } {
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const i of order.slice(0, MAX_COMPARISONS)) {
      const candidate = this.list[i]!;
      if (candidate.toLowerCase() === lower) continue; // the word itself
      const d = distance(lower, candidate.toLowerCase());
      if (d < bestDistance) [best, bestDistance] = [candidate, d];
    }
    return best === undefined ? { distance: Infinity } : { best, distance: bestDistance };
  }

  /** Candidate indices by closeness of length to the word's, up to MAX_COMPARISONS. */
  private byNearLength(length: number): number[] {
    const out: number[] = [];
    const limit = Math.max(1, Math.round(length * 0.4));
    for (let gap = 0; gap <= limit && out.length < MAX_COMPARISONS; gap++) {
      for (const l of gap === 0 ? [length] : [length - gap, length + gap]) {
        for (const i of this.byLength!.get(l) ?? []) {
          if (out.length >= MAX_COMPARISONS) break;
          out.push(i);
        }
      }
    }
    return out;
  }

  private build(): void {
    if (this.byLower) return;
    const push = (m: Map<string | number, number[]>, k: string | number, i: number) => {
      const l = m.get(k);
      if (l === undefined) m.set(k, [i]);
      else if (l[l.length - 1] !== i) l.push(i);
    };
    this.byLower = new Map();
    this.byDeletion = new Map();
    this.byLength = new Map();
    this.list.forEach((c, i) => {
      const lower = c.toLowerCase();
      push(this.byLower as Map<string | number, number[]>, lower, i);
      push(this.byLength as Map<string | number, number[]>, c.length, i);
      if (c.length <= 64) for (const k of deletions(lower)) push(this.byDeletion as Map<string | number, number[]>, k, i);
    });
  }
}

/** The closest candidate when it is close enough to be a likely typo, else undefined.
 *  Close enough: a case-only difference, or at most 40% of the word's length in edits (at least 1).
 *  A caller asking many times against one large set should keep a Suggester instead. */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  return new Suggester(candidates).suggest(word);
}

/** " (did you mean X?)" or "". */
export function didYouMean(word: string, candidates: Iterable<string> | Suggester): string {
  const s = candidates instanceof Suggester ? candidates.suggest(word) : suggest(word, candidates);
  return s === undefined ? "" : ` (did you mean ${s}?)`;
}

/** "a, b or c" */
export function listOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
