// Edit distance for "did you mean": optimal string alignment (adjacent transpositions count one),
// with a case-only difference counted as half an edit.

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.toLowerCase() === b.toLowerCase()) return 0.5;
  const x = a.toLowerCase(), y = b.toLowerCase();
  const m = x.length, n = y.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => { const r = new Array<number>(n + 1).fill(0); r[0] = i; return r; });
  for (let j = 0; j <= n; j++) d[0][j] = j;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}

/** How far a name may be from a candidate to be offered as a likely intended name. */
export function closeEnough(name: string, candidate: string): boolean {
  const limit = Math.max(2, Math.ceil(Math.min(name.length, candidate.length) * 0.34));
  if (editDistance(name, candidate) <= limit) return true;
  // `findById` for `find`, `requireTextValue` for `requireText`: one name extends the other.
  const a = name.toLowerCase(), b = candidate.toLowerCase();
  return Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a));
}

/** Candidates ordered by distance to `name`, then alphabetically (deterministic). */
export function rankByDistance<T>(name: string, items: T[], nameOf: (t: T) => string, keyOf: (t: T) => string): { item: T; distance: number }[] {
  return items
    .map((item) => ({ item, distance: editDistance(name, nameOf(item)) }))
    .sort((p, q) => p.distance - q.distance || (keyOf(p.item) < keyOf(q.item) ? -1 : keyOf(p.item) > keyOf(q.item) ? 1 : 0));
}
