// A redaction is a character range inside one line, so replacing it can never change the
// line count. Secrets that span lines (PEM blocks) become one span per line; only the first
// is reported, so `secrets` lists each secret once.

import type { TextLines } from '../text/lines';

export interface SecretSpan {
  /** Absolute offsets [start, end) in the text; never crossing a line break. */
  start: number;
  end: number;
  line: number;
  kind: string;
  /** False for the continuation lines of a multi-line secret. */
  reported: boolean;
}

export const redactionMarker = (kind: string): string => `«redacted:${kind}»`;

/**
 * Accepted spans, kept sorted and non-overlapping. Detectors add their spans in batches, in
 * priority order: a span overlapping one already accepted is dropped, so precise detectors
 * (added first) win over the generic key/value heuristics. Each batch is merged in one linear
 * pass, so thousands of matches on one line stay cheap.
 */
export class SpanSet {
  private accepted: SecretSpan[] = [];

  addBatch(batch: SecretSpan[]): void {
    const sorted = [...batch].sort((a, b) => a.start - b.start);
    const fresh: SecretSpan[] = [];
    let i = 0;
    let freshEnd = -1;
    for (const s of sorted) {
      if (s.end <= s.start || s.start < freshEnd) continue;
      while (i < this.accepted.length && this.accepted[i].end <= s.start) i++;
      if (i < this.accepted.length && this.accepted[i].start < s.end) continue;
      fresh.push(s);
      freshEnd = s.end;
    }
    if (fresh.length > 0) this.accepted = mergeByStart(this.accepted, fresh);
  }

  /** All accepted spans, ordered by position in the text. */
  sorted(): SecretSpan[] {
    return this.accepted;
  }
}

function mergeByStart(a: SecretSpan[], b: SecretSpan[]): SecretSpan[] {
  const out: SecretSpan[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i].start <= b[j].start ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

/** Rebuilds the text with every span replaced by its marker. */
export function applyRedactions(lines: TextLines, spans: SecretSpan[]): string {
  if (spans.length === 0) return lines.text;
  const parts: string[] = [];
  let from = 0;
  for (const s of spans) {
    parts.push(lines.text.slice(from, s.start), redactionMarker(s.kind));
    from = s.end;
  }
  parts.push(lines.text.slice(from));
  return parts.join('');
}
