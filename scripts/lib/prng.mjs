// The one seeded PRNG of tests, benchmarks and scripts (mulberry32), so "seeded, reproducible"
// means the same sequence everywhere.

/**
 * @param {number} seed
 * @returns {() => number} uniform in [0, 1)
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A string seed hashed with 32-bit FNV-1a, then mulberry32.
 * @param {string} seed
 * @returns {() => number}
 */
export function prngFromString(seed) {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) { h ^= seed.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return mulberry32(h);
}
