// `npm run bench:typing`: what a half-written method costs against the same method empty or
// complete (issue 16 §3). For methods across a corpus, the open document is set to three
// variants and each is timed as the editor sees it: the index update (didChange) plus the
// retrieval at the cursor. Variants of one method:
//   complete  the real file with a new line in the middle of the body, the cursor on it;
//   empty     the body emptied (`{ }` around a blank line), cursor inside;
//   half      the body's second half removed with the method's closing brace, so braces are
//             unbalanced and every member below parses inside it; cursor at the end of what is left.
// Reports p50/p95/max per variant, the ratio half/empty of the p95, and how many files each update
// re-resolved (a broken body must re-resolve one file, not every consulter of the class).
// Usage: node dist/bench/typing.bench.js [--corpus jsoup] [--corpus commons-lang3] [--count 40]

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, args, corpusSourceRoot } from './cli';
import { Indexer } from '../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../server/src/service';

export type Variant = 'complete' | 'empty' | 'half';
export const VARIANTS: Variant[] = ['complete', 'empty', 'half'];

export interface TypingCase { text: string; line: number; character: number }

/**
 * The three variants of one method body (lines `bodyStart`..`bodyEnd`, 0-based, the lines holding
 * the opening and closing brace), or undefined when the body is too short to halve.
 */
export function typingVariants(text: string, bodyStart: number, bodyEnd: number): Record<Variant, TypingCase> | undefined {
  const lines = text.split('\n');
  if (bodyEnd - bodyStart < 4) return undefined;
  const open = lines[bodyStart].lastIndexOf('{');
  if (open < 0 || !lines[bodyEnd].trimStart().startsWith('}')) return undefined;
  const inner = lines.slice(bodyStart + 1, bodyEnd);
  const mid = bodyStart + 1 + Math.floor(inner.length / 2);
  const indent = (lines[bodyStart + 1].match(/^\s*/) ?? [''])[0];
  const head = lines.slice(0, bodyStart).concat(lines[bodyStart].slice(0, open + 1));
  const empty = head.concat(indent, lines[bodyEnd]).concat(lines.slice(bodyEnd + 1));
  // The first half of the body, the cursor on a fresh line below it, then the rest of the file without the method's end.
  const half = lines.slice(0, mid).concat(indent).concat(lines.slice(bodyEnd + 1));
  return {
    complete: { text: lines.slice(0, mid).concat(indent).concat(lines.slice(mid)).join('\n'), line: mid, character: indent.length },
    empty: { text: empty.join('\n'), line: bodyStart + 1, character: indent.length },
    half: { text: half.join('\n'), line: mid, character: indent.length },
  };
}

export interface Sample { variant: Variant; updateMs: number; retrieveMs: number; reresolved: number }

/** Sets the open document to each variant in turn and times update + retrieval; restores the file after. */
export async function measureTyping(ix: Indexer, path: string, cases: Record<Variant, TypingCase>): Promise<Sample[]> {
  const original = ix.textOf(path)!;
  await ix.setDocument(path, original);
  const out: Sample[] = [];
  for (const variant of VARIANTS) {
    const c = cases[variant];
    const resolutions = ix.index.resolutions;
    const s0 = performance.now();
    await ix.setDocument(path, c.text);
    const s1 = performance.now();
    await retrieveAt(ix, { textDocument: { uri: uriOfPath(path) }, position: { line: c.line, character: c.character } }, defaultSettings());
    out.push({ variant, updateMs: s1 - s0, retrieveMs: performance.now() - s1, reresolved: ix.index.resolutions - resolutions });
    if (process.env.NEEDLE_TYPING_DEBUG && ix.index.resolutions - resolutions > 1) console.log(`${variant} ${path}:${c.line + 1} re-resolved ${ix.index.resolutions - resolutions}`);
    // Back to the real text between variants, as the editor would after an undo.
    await ix.setDocument(path, original);
  }
  await ix.closeDocument(path);
  return out;
}

const pct = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

async function main(): Promise<void> {
  const corpora = args('--corpus').length ? args('--corpus') : ['jsoup', 'commons-lang3'];
  const count = Number(arg('--count') ?? 40);
  for (const name of corpora) {
    const root = corpusSourceRoot(name);
    const ix = new Indexer({ cacheDir: mkdtempSync(join(tmpdir(), 'needle-typing-')) });
    await ix.addFolder(root);
    // Methods with a body of 5+ lines in files where other members follow, every k-th one.
    const candidates = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1)).flatMap((f) =>
      f.facts.symbols.filter((s) => s.kind === 'method' && s.span.el - s.nameSpan.sl >= 6 && f.facts.symbols.some((o) => o.span.sl > s.span.el))
        .map((s) => ({ path: f.path, sym: s })));
    const step = Math.max(1, Math.floor(candidates.length / count));
    const samples: Sample[] = [];
    // One warm-up request builds the lazy workspace-wide structures, which belong to the first answer, not to typing.
    await retrieveAt(ix, { textDocument: { uri: uriOfPath(candidates[0].path) }, position: { line: candidates[0].sym.nameSpan.sl, character: 0 } }, defaultSettings());
    let methods = 0;
    for (let i = 0; i < candidates.length && methods < count; i += step) {
      const { path, sym } = candidates[i];
      const text = ix.textOf(path)!;
      const lines = text.split('\n');
      let bodyStart = sym.nameSpan.sl;
      while (bodyStart <= sym.span.el && !lines[bodyStart].includes('{')) bodyStart++;
      const cases = typingVariants(text, bodyStart, sym.span.el);
      if (!cases) continue;
      samples.push(...await measureTyping(ix, path, cases));
      methods++;
    }
    console.log(`${name}: ${ix.index.stats().files} files, ${methods} methods (update = didChange into the index, total = update + retrieval)`);
    console.log('  variant     update p50/p95 ms   retrieval p50/p95 ms   total p50/p95/max ms   files re-resolved mean/max');
    const p95 = new Map<Variant, number>();
    for (const v of VARIANTS) {
      const s = samples.filter((x) => x.variant === v);
      const total = s.map((x) => x.updateMs + x.retrieveMs);
      p95.set(v, pct(total, 0.95));
      const f = (xs: number[]) => `${pct(xs, 0.5).toFixed(0)}/${pct(xs, 0.95).toFixed(0)}`;
      const rr = s.map((x) => x.reresolved);
      console.log(`  ${v.padEnd(10)}  ${f(s.map((x) => x.updateMs)).padStart(16)}   ${f(s.map((x) => x.retrieveMs)).padStart(19)}   ${(f(total) + '/' + Math.max(...total).toFixed(0)).padStart(20)}   ${(rr.reduce((a, b) => a + b, 0) / rr.length).toFixed(1)}/${Math.max(...rr)}`);
    }
    console.log(`  p95 ratio half/empty ${(p95.get('half')! / p95.get('empty')!).toFixed(2)} (target ≤ 1.5), half/complete ${(p95.get('half')! / p95.get('complete')!).toFixed(2)}`);
  }
}

if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });
