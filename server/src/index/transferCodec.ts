// Parse results crossing from a worker thread to the main thread (with reference sites), and known
// facts the other way for a derive-only job (without), in the cache's compact encoding: a string
// table plus typed arrays whose buffers are transferred, not copied. As JSON text, producing and parsing java.base's ~112 MB of facts
// cost ~2 s of CPU.

import { decodeFacts, encodeFacts, Reader, Writer, type EncodedFiles } from './cacheCodec';
import type { ParseOutcome } from './parseFile';

/** `refs`: with the facts' reference sites (parse replies); a derive-only job's facts travel without. */
export function encodeOutcomes(outcomes: readonly ParseOutcome[], refs = true): EncodedFiles {
  const w = new Writer();
  w.list(outcomes, (o) => {
    w.str(o.path);
    w.bool(o.ok);
    if (!o.ok) { w.str(o.reason); return; }
    w.str(o.hash);
    w.bool(!!o.stamp);
    if (o.stamp) w.floats.push(o.stamp.size, o.stamp.mtimeMs);
    encodeFacts(w, o.facts, refs);
  });
  return w.finish();
}

/** The buffers of an encoding, to hand to postMessage's transfer list. */
export function transferables(e: EncodedFiles): ArrayBuffer[] {
  return [e.offsets.buffer as ArrayBuffer, e.ints.buffer as ArrayBuffer, e.floats.buffer as ArrayBuffer];
}

export function decodeOutcomes(e: EncodedFiles, refs = true): ParseOutcome[] {
  const r = new Reader(e);
  const outcomes = r.list((): ParseOutcome => {
    const path = r.str();
    if (!r.bool()) return { path, ok: false, reason: r.str() };
    const hash = r.str();
    const stamp = r.bool() ? { size: r.float(), mtimeMs: r.float() } : undefined;
    const facts = decodeFacts(r, refs);
    return stamp ? { path, ok: true, hash, facts, stamp } : { path, ok: true, hash, facts };
  });
  if (!r.done) throw new Error('worker reply has trailing data');
  return outcomes;
}
