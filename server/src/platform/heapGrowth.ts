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

/** The percent boundHeapGrowth set (undefined: it set none, V8's own heuristics or the user's flag rule). */
let bound: number | undefined;
/** Cold indexes under way that asked for V8's own heuristics (relaxHeapGrowth). */
let relaxed = 0;

/**
 * Sets V8's heap growing factor; NEEDLE_HEAP_GROWING_PERCENT overrides the percent (0: V8's own
 * heuristics), and an explicit --heap-growing-percent on the command line or in NODE_OPTIONS wins over both.
 */
export function boundHeapGrowth(env: NodeJS.ProcessEnv = process.env): number {
  const given = [...process.execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((a) => a.startsWith('--heap-growing-percent'))) { bound = undefined; return NaN; }
  const asked = env.NEEDLE_HEAP_GROWING_PERCENT;
  const percent = asked !== undefined && /^\d+$/.test(asked) ? Number(asked) : HEAP_GROWING_PERCENT;
  bound = percent > 0 ? percent : undefined;
  if (bound && !relaxed) setFlags(`--heap-growing-percent=${bound}`);
  return percent;
}

/**
 * V8's own growing heuristics until the returned function is called (idempotent; nested calls
 * restore the bound when the last one ends). For a cold index: its heap only grows, from nothing
 * to all the facts and edges, and a tight factor collects that growing heap again and again (8 %
 * of a cold index's wall time on the whole JDK). Does nothing when boundHeapGrowth set no bound.
 */
export function relaxHeapGrowth(): () => void {
  if (!bound) return () => {};
  if (relaxed++ === 0) setFlags('--heap-growing-percent=0');
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--relaxed === 0 && bound) setFlags(`--heap-growing-percent=${bound}`);
  };
}

/** Where V8's flags are set (tests observe it). */
let setFlags = (flags: string): void => setFlagsFromString(flags);
export function observeHeapFlags(observer: (flags: string) => void): void {
  const set = setFlags;
  setFlags = (flags) => { observer(flags); set(flags); };
}
