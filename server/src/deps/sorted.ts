// Lookups in sorted string arrays (a jar's type names are kept sorted, not in sets: hundreds of jars, tens of thousands of names).

/** The first index of a sorted array whose value is not below `value`. */
export function lowerBound(sorted: string[], value: string): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function holdsSorted(sorted: string[], value: string): boolean {
  return sorted[lowerBound(sorted, value)] === value;
}

