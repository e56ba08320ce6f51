// "Did you mean ...?" for unknown keys, enum values, resource names and rule ids.

/** Edit distance with adjacent transpositions counting as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate closest to `word`, if close enough to be a likely typo: a case-insensitive
 * match first, else the smallest edit distance within about a third of the word's length,
 * else the only candidate that starts with it.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.max(1, Math.floor(Math.min(word.length, 40) / 3));
  if (best !== undefined && bestDistance <= limit) return best;
  // A cut-off word ("sche" for "schema") is far in edits but plain as a prefix.
  const prefixed = word.length >= 3 ? [...candidates].filter((c) => c.toLowerCase().startsWith(lower)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** ` (did you mean "x"?)` when a close candidate exists, else the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = word.length > 80 ? undefined : closest(word, candidates);
  return match === undefined ? '' : ` (did you mean "${match}"?)`;
}
