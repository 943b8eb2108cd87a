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

/** The closest candidate when it is close enough to be a likely typo, else undefined.
 *  Close enough: a case-only difference, or at most 40% of the word's length in edits (at least 1). */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > 64) return undefined; // long text is not a typo of a short name
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.max(1, Math.round(word.length * 0.4));
  // A suggestion must share something with the word: "b" is not a typo of "a".
  return bestDistance <= limit && bestDistance < word.length ? best : undefined;
}

/** " (did you mean X?)" or "". */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const s = suggest(word, candidates);
  return s === undefined ? "" : ` (did you mean ${s}?)`;
}

/** "a, b or c" */
export function listOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
