// The vetting rule of The Needle and the Noise §4 (docs/method.md) at the tool layer: proposed code that reproduces retrieved
// content verbatim is rejected when that content was flagged instruction-like. Lines are compared
// whitespace-normalised; lines without a letter or digit (`}`, `);`) neither count nor break a run.

import type { ContextItem } from '../../../shared/protocol';

export const MIN_COPIED_LINES = 3;

export interface CopiedRun {
  /** 0-based lines of the proposed code, inclusive. */
  startLine: number;
  endLine: number;
  lines: number;
  item: ContextItem;
}

interface Sig { text: string; line: number }

function significant(text: string): Sig[] {
  const out: Sig[] = [];
  text.split(/\r?\n/).forEach((l, line) => {
    const t = l.trim().replace(/\s+/g, ' ');
    if (/[A-Za-z0-9]/.test(t)) out.push({ text: t, line });
  });
  return out;
}

/** Longest runs (≥ MIN_COPIED_LINES significant lines) of `code` found consecutively in an instruction-like item. */
export function copiedInstructionRuns(code: string, items: ContextItem[], minLines = MIN_COPIED_LINES): CopiedRun[] {
  const mine = significant(code);
  const runs: CopiedRun[] = [];
  const flagged = items.filter((it) => it.flags?.includes('instruction-like'));
  for (const item of flagged) {
    const theirs = significant(item.text);
    let i = 0;
    while (i < mine.length) {
      let best = 0;
      for (let j = 0; j < theirs.length; j++) {
        let k = 0;
        while (i + k < mine.length && j + k < theirs.length && mine[i + k].text === theirs[j + k].text) k++;
        if (k > best) best = k;
      }
      if (best >= minLines) {
        runs.push({ startLine: mine[i].line, endLine: mine[i + best - 1].line, lines: best, item });
        i += best;
      } else i++;
    }
  }
  // One finding per stretch of the proposed code: keep the longest run starting at each line.
  runs.sort((a, b) => a.startLine - b.startLine || b.lines - a.lines || (a.item.uri < b.item.uri ? -1 : 1));
  const out: CopiedRun[] = [];
  for (const r of runs) if (!out.some((o) => r.startLine >= o.startLine && r.endLine <= o.endLine)) out.push(r);
  return out;
}
