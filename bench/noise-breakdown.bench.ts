// Where shown tokens go: rcl at budget 4,000 on VALIDATION tasks, each shown line's tokens split
// by the item it is in (the cursor's member, its type group, other groups, config chunks), by
// what the line is (verbatim code, a written Javadoc summary, header comment, gap marker) and by
// whether it lies in a gold declaration (attribution.ts). Diagnostic for the packing work.
//
//   node dist/bench/noise-breakdown.bench.js [--tasks 40] [--validation 12] [--corpus NAME]...

import type { ContextItem } from '../shared/protocol';
import { defaultSettings, retrieveAt } from '../server/src/service';
import { countTokens } from '../server/src/retrieval/cap';
import { arg, args } from './cli';
import { DEVELOPMENT_CORPORA, INJECTED_CORPORA } from './corpora/list.mjs';
import { shownLineSources } from './retrieval/attribution';
import { relPathOfUri } from './retrieval/score';
import { forEachValidationTask } from './retrieval/validationTasks';

const ROOT = process.cwd();
(async () => {
  const test = Number(arg('--tasks') ?? 40);
  const validation = Number(arg('--validation') ?? 12);
  const names = args('--corpus').length ? args('--corpus') : [...DEVELOPMENT_CORPORA, ...INJECTED_CORPORA];
  const cells = new Map<string, { tokens: number; signal: number }>();
  const add = (k: string, n: number, s: boolean) => { const c = cells.get(k) ?? { tokens: 0, signal: 0 }; c.tokens += n; if (s) c.signal += n; cells.set(k, c); };
  let total = 0;
  for (const name of names) {
    const count = await forEachValidationTask(ROOT, name, { test, validation }, async ({ task, src, indexer, uri, textOf, regions }) => {
      const res = await retrieveAt(indexer, { textDocument: { uri }, position: task.cursor, budgetTokens: 4000, mode: 'rcl' }, defaultSettings());
      res.items.forEach((it: ContextItem, i) => {
        const rel = relPathOfUri(it.uri, src);
        const mine = regions.filter((r) => r.file === rel);
        const lines = rel ? (textOf(rel) ?? '').split('\n') : [];
        const srcs = rel ? shownLineSources(it, lines) : [];
        const place = i === 0 && it.sources.includes('enclosing') ? 'cursor member' : it.sources.includes('enclosing') ? 'own type group' : !(it as { symbols?: string[] }).symbols ? 'chunk' : it.sources.length === 1 && it.sources[0] === 'followup' ? 'follow-up group' : 'ranked group';
        it.text.split('\n').forEach((line, k) => {
          const n = countTokens(line);
          total += n;
          const at = it.sourceLines?.[k];
          // A gap marker by what it hides: a Javadoc, whole declarations, or lines (a body).
          const what = at?.written === 'gap' ? `gap ${at.hidden?.javadoc ? 'javadoc' : at.hidden?.members.length ? 'members' : 'lines'}` : at?.written ?? 'code';
          const s = srcs[k] !== undefined && mine.some((r) => r.start <= srcs[k] && srcs[k] <= r.end);
          add(`${place.padEnd(16)} ${what}`, n, s);
          add(`${place.padEnd(16)} (all)`, n, s);
        });
      });
    });
    if (count !== undefined) console.error(`${name}: ${count} tasks`);
  }
  console.log('where                    tokens  share  signal-share');
  for (const [k, c] of [...cells].sort()) console.log(`${k.padEnd(24)} ${String(c.tokens).padStart(7)}  ${(c.tokens / total).toFixed(3)}  ${(c.signal / c.tokens).toFixed(3)}`);
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
