// How far V8 lets the old generation grow past what survived the last full collection before it
// collects again. By default the factor is up to 4 when the heap allocates fast (which a burst of
// retrievals does), so on the whole JDK (1.1 GB live) garbage filled the heap to 3 GB of RSS
// between full collections. A fixed factor bounds that at no risk of running out: it is a trigger
// for collecting, not a limit like --max-old-space-size. Set for the language server, the CLI
// (whose `mcp` serves requests too) and the benches that measure them, at start; V8 reads the
// flag whenever it sets the next limit.

import { setFlagsFromString } from 'node:v8';

/** The old generation may grow to (1 + this/100) × its live size before the next full collection. */
export const HEAP_GROWING_PERCENT = 25;

/**
 * Sets V8's heap growing factor; NEEDLE_HEAP_GROWING_PERCENT overrides the percent (0: V8's own
 * heuristics), and an explicit --heap-growing-percent on the command line or in NODE_OPTIONS wins over both.
 */
export function boundHeapGrowth(env: NodeJS.ProcessEnv = process.env): number {
  const given = [...process.execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((a) => a.startsWith('--heap-growing-percent'))) return NaN;
  const asked = env.NEEDLE_HEAP_GROWING_PERCENT;
  const percent = asked !== undefined && /^\d+$/.test(asked) ? Number(asked) : HEAP_GROWING_PERCENT;
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
