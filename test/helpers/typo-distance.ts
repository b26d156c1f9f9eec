// Brute-force typo counts, the oracle of the typo automaton and typo search tests: the optimal
// string alignment (Damerau–Levenshtein with adjacent swaps) distance over code points by the
// full table, plus one when the first characters differ (Meilisearch's counting).

export function osaDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  const d = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[s.length][t.length];
}

/** Typos between a query term and a term: the distance, one more when the first character differs. */
export function naiveTypos(query: string, term: string): number {
  return osaDistance(query, term) + ([...query][0] === [...term][0] ? 0 : 1);
}
