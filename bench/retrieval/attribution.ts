// Line-attributed noise (The Needle and the Noise §6, RCL): the share of shown tokens that lie
// outside every gold declaration. Each shown line is attributed to a source line of its item's file
// and counts as signal when that line falls inside a gold declaration's region:
//   - a member's region is its declaration, Javadoc included (first Javadoc line .. span end);
//   - a type's region is its header only (Javadoc and signature lines): a type shown with many
//     members is a hit for the type, not for the members nobody needed.
// A line the server wrote (a shortened Javadoc, a header comment, a gap marker) carries, in the
// item's structured `sourceLines`, the first line of the declaration it introduces, so it counts
// with that declaration. Items without `sourceLines` (made by something other than the pipeline)
// are attributed by aligning their verbatim lines with the file inside the item's range.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextItem } from '../../shared/protocol';
import { factsOfText } from '../../server/src/index/parseFile';
import type { SymbolFact } from '../../server/src/java/facts';
import { isTypeKind } from '../../server/src/java/symbols';
import { countTokens } from '../../server/src/retrieval/cap';
import { docStartLine, signatureLines } from '../../server/src/retrieval/symbols';
import type { GoldSymbol } from './tasks';

/**
 * 0-based inclusive source lines of one gold declaration's region in the (masked) workspace;
 * `decl` is the declaration's own first line, so a region with `start < decl` has a Javadoc.
 */
export interface GoldRegion { file: string; start: number; end: number; decl: number }

/** Current text of a workspace file by relative path (the masked state during a task). */
export type TextOf = (rel: string) => string | undefined;

/** A TextOf reading a workspace folder on disk. */
export function diskTextOf(workspace: string): TextOf {
  return (rel) => { try { return readFileSync(join(workspace, rel), 'utf8'); } catch { return undefined; } };
}

/** The origin of one shown line; the shape of `ContextItem.sourceLines` entries. */
export interface ShownLineSource { line: number; written?: string }
type MaybeSourceLined = ContextItem & { sourceLines?: ShownLineSource[] };

const KIND_OF_GOLD: Record<GoldSymbol['kind'], (s: SymbolFact) => boolean> = {
  method: (s) => s.kind === 'method',
  constructor: (s) => s.kind === 'constructor',
  field: (s) => s.kind === 'field' || s.kind === 'enumConstant',
  type: (s) => isTypeKind(s.kind),
};

/**
 * Regions of a task's gold declarations, read from the workspace as it is now (the masked state).
 * A gold declaration the parser does not find at its line gets its name line alone.
 */
export async function goldRegions(gold: GoldSymbol[], textOf: TextOf): Promise<GoldRegion[]> {
  const byFile = new Map<string, GoldSymbol[]>();
  for (const g of gold) byFile.set(g.file, [...(byFile.get(g.file) ?? []), g]);
  const out: GoldRegion[] = [];
  for (const [file, gs] of [...byFile].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const text = textOf(file);
    if (text === undefined) continue;
    const lines = text.split('\n');
    const symbols = (await factsOfText(text)).symbols;
    for (const g of gs) {
      const sym = symbols.find((s) => s.nameSpan.sl === g.maskedLine && s.name === g.name && KIND_OF_GOLD[g.kind](s))
        ?? symbols.find((s) => s.nameSpan.sl === g.maskedLine && KIND_OF_GOLD[g.kind](s));
      if (!sym) { out.push({ file, start: g.maskedLine, end: g.maskedLine, decl: g.maskedLine }); continue; }
      const start = Math.min(docStartLine(sym, lines), sym.span.sl);
      const end = isTypeKind(sym.kind) ? signatureLines(sym, lines).end : sym.span.el;
      out.push({ file, start, end, decl: sym.span.sl });
    }
  }
  return out;
}

/**
 * Source line of each line of `item.text`: the item's own `sourceLines` when it has them; else
 * each line equal to a file line inside the item's range maps to it (searching forward first,
 * since items show lines in source order), and every other line (one the server wrote) to the
 * next mapped line, the declaration it introduces (the last one for trailing lines).
 */
export function shownLineSources(item: ContextItem, fileLines: string[]): number[] {
  const textLines = item.text.split('\n');
  const given = (item as MaybeSourceLined).sourceLines;
  if (given && given.length === textLines.length) return given.map((s) => s.line);
  const lo = item.range.start.line, hi = Math.min(item.range.end.line, fileLines.length - 1);
  const mapped: (number | undefined)[] = [];
  let next = lo;
  for (const t of textLines) {
    let at: number | undefined;
    for (let j = next; j <= hi && at === undefined; j++) if (fileLines[j] === t) at = j;
    for (let j = lo; j < next && at === undefined; j++) if (fileLines[j] === t) at = j;
    mapped.push(at);
    if (at !== undefined) next = at + 1;
  }
  const out: number[] = new Array(textLines.length);
  let following = hi;
  for (let i = textLines.length - 1; i >= 0; i--) {
    const m = mapped[i];
    if (m !== undefined) following = m;
    out[i] = m ?? following;
  }
  // Trailing written lines (a closing gap marker) belong to the last mapped line before them.
  let last: number | undefined;
  for (let i = 0; i < textLines.length; i++) {
    if (mapped[i] !== undefined) last = mapped[i];
    else if (last !== undefined && !mapped.slice(i).some((m) => m !== undefined)) out[i] = last;
  }
  return out;
}

export interface LineNoise { tokens: number; noiseTokens: number }

/** Shown tokens (counted per line) and those outside every gold region, over a response's items. */
export function lineAttributedNoise(items: ContextItem[], rels: (string | undefined)[], regions: GoldRegion[], textOf: TextOf): LineNoise {
  const fileLines = new Map<string, string[]>();
  const linesOfFile = (rel: string): string[] => {
    let l = fileLines.get(rel);
    if (!l) fileLines.set(rel, (l = (textOf(rel) ?? '').split('\n')));
    return l;
  };
  let tokens = 0, noiseTokens = 0;
  items.forEach((it, i) => {
    const rel = rels[i];
    const mine = regions.filter((r) => r.file === rel);
    const sources = rel ? shownLineSources(it, linesOfFile(rel)) : [];
    it.text.split('\n').forEach((line, k) => {
      const n = countTokens(line);
      tokens += n;
      const src = sources[k];
      if (src === undefined || !mine.some((r) => r.start <= src && src <= r.end)) noiseTokens += n;
    });
  });
  return { tokens, noiseTokens };
}

export interface JavadocsShown { docs: number; shown: number }

/**
 * Of the gold declarations that have a Javadoc, how many are shown with it: with the summary
 * line the server writes for a declaration (`written: 'doc'` at its first line) or with any of
 * its Javadoc's own lines. The model needs a needed declaration's contract, not only its name:
 * this is the part of a gold region the line-attributed noise already counts as signal.
 */
export function javadocsShown(items: ContextItem[], rels: (string | undefined)[], regions: GoldRegion[], textOf: TextOf): JavadocsShown {
  const withDoc = regions.filter((r) => r.start < r.decl);
  const seen = new Set<GoldRegion>();
  items.forEach((it, i) => {
    const rel = rels[i];
    const mine = withDoc.filter((r) => r.file === rel && !seen.has(r));
    if (!rel || !mine.length) return;
    const given = (it as MaybeSourceLined).sourceLines;
    const lines = it.text.split('\n');
    const at: ShownLineSource[] = given && given.length === lines.length ? given : shownLineSources(it, (textOf(rel) ?? '').split('\n')).map((line) => ({ line }));
    for (const r of mine) {
      if (at.some((s) => (s.written === 'doc' && s.line === r.decl) || (!s.written && r.start <= s.line && s.line < r.decl))) seen.add(r);
    }
  });
  return { docs: withDoc.length, shown: seen.size };
}
