// Where shown tokens go: rcl at budget 4,000 on VALIDATION tasks. First the token account
// (retrieval/tokenAccount.ts): each shown line in one category by what it is (the cursor's member,
// its class context, ranked members' signatures, bodies, Javadoc summaries, markers, group
// headers, follow-up groups, non-Java chunks), per context, with its signal share. Then each shown
// line's tokens split by the item it is in (the cursor's member, its type group, other groups, config chunks), by
// what the line is (verbatim code, a written Javadoc summary, header comment, gap marker) and by
// whether it lies in a gold declaration (attribution.ts). Diagnostic for the packing work.
//
// Also, per corpus and pooled: recall, full coverage, median tokens, line noise, and the gate's
// follow-up (rounds, tokens added, review rate); gap markers per context by kind. `--dump N` prints the items of the first
// N tasks of each corpus, one line per shown line with its token count and kind.
//
//   node dist/bench/noise-breakdown.bench.js [--tasks 40] [--validation 12] [--corpus NAME]... [--dump N] [--imports masked|kept] [--oracle]
//
// --oracle: packing knows the gold (P(needed) 1 for a gold declaration, 0 for every other ranked
// candidate) and the gate adds nothing (no follow-up rounds): the tokens and noise of a perfect
// selection among the ranked candidates, as this renderer shows it. What it cannot show (gold never
// ranked or ranked below the weighed) is lost as in rcl.
//
// --imports masked|kept: masked (default) blanks the imports only the hidden code used, as an editor
// would not have them yet (bench/retrieval/tasks.ts ImportProtocol); kept is the old protocol, for comparison.

import type { ContextItem } from '../shared/protocol';
import { defaultSettings, retrieveAt } from '../server/src/service';
import { countTokens } from '../server/src/retrieval/cap';
import { arg, args, importProtocolArg } from './cli';
import { DEVELOPMENT_CORPORA, INJECTED_CORPORA } from './corpora/list.mjs';
import { shownLineSources } from './retrieval/attribution';
import { median, modeMetrics, relPathOfUri, scoreResponse, type TaskScore } from './retrieval/score';
import { forEachValidationTask, goldRef } from './retrieval/validationTasks';
import { accountContext, accountTable, type Account } from './retrieval/tokenAccount';
import { join } from 'node:path';

const ROOT = process.cwd();
(async () => {
  const test = Number(arg('--tasks') ?? 40);
  const validation = Number(arg('--validation') ?? 12);
  const names = args('--corpus').length ? args('--corpus') : [...DEVELOPMENT_CORPORA, ...INJECTED_CORPORA];
  const cells = new Map<string, { tokens: number; signal: number }>();
  const add = (k: string, n: number, s: boolean) => { const c = cells.get(k) ?? { tokens: 0, signal: 0 }; c.tokens += n; if (s) c.signal += n; cells.set(k, c); };
  let total = 0;
  const dump = Number(arg('--dump') ?? 0);
  const oracle = process.argv.includes('--oracle');
  /** Per context: its tokens, and its gap markers by kind. */
  const contexts: { tokens: number; markers: Record<string, number> }[] = [];
  const scores = new Map<string, TaskScore[]>();
  const account: Account = new Map();
  const gateOf = new Map<string, { rounds: number; followupTokens: number; review: number }[]>();
  for (const name of names) {
    let seen = 0;
    const count = await forEachValidationTask(ROOT, name, { test, validation, imports: importProtocolArg() }, async ({ task, src, indexer, uri, textOf, regions }) => {
      const t0 = performance.now();
      const gold = oracle ? new Set(task.gold.map((g) => goldRef(indexer.index, src, g)?.sym.id)) : undefined;
      const settings = gold ? { ...defaultSettings(), maxRounds: 0, neededOverride: (id: string) => (gold.has(id) ? 1 : 0) } : defaultSettings();
      const res = await retrieveAt(indexer, { textDocument: { uri }, position: task.cursor, budgetTokens: 4000, mode: 'rcl' }, settings);
      scores.set(name, [...(scores.get(name) ?? []), scoreResponse(task, res, src, performance.now() - t0, { regions, textOf })]);
      const followupTokens = res.items.filter((it) => it.sources.includes('followup')).reduce((a, it) => a + it.tokens, 0);
      gateOf.set(name, [...(gateOf.get(name) ?? []), { rounds: res.rounds, followupTokens, review: res.review ? 1 : 0 }]);
      accountContext({ items: res.items, fileOf: (rel) => indexer.index.file(join(src, rel)), relOf: (u) => relPathOfUri(u, src), textOf, regions }, account);
      const context = { tokens: res.tokens, markers: {} as Record<string, number> };
      contexts.push(context);
      const dumping = seen++ < dump;
      if (dumping) console.log(`===== ${name} ${task.file}:${task.cursor.line + 1} · ${res.tokens} tokens · ${res.items.length} items · ${res.rounds} rounds`);
      res.items.forEach((it: ContextItem, i) => {
        const rel = relPathOfUri(it.uri, src);
        const mine = regions.filter((r) => r.file === rel);
        const lines = rel ? (textOf(rel) ?? '').split('\n') : [];
        const srcs = rel ? shownLineSources(it, lines) : [];
        const place = i === 0 && it.sources.includes('enclosing') ? 'cursor member' : it.sources.includes('enclosing') ? 'own type group' : !(it as { symbols?: string[] }).symbols ? 'chunk' : it.sources.length === 1 && it.sources[0] === 'followup' ? 'follow-up group' : 'ranked group';
        if (dumping) console.log(`--- ${it.symbol ?? it.kind} · ${place} · ${it.tokens} tokens`);
        it.text.split('\n').forEach((line, k) => {
          const n = countTokens(line);
          total += n;
          const at = it.sourceLines?.[k];
          // A gap marker by what it hides: a Javadoc, whole declarations, or lines (a body).
          const what = at?.written === 'gap' ? `gap ${at.hidden?.javadoc ? 'javadoc' : at.hidden?.members.length ? 'members' : 'lines'}` : at?.written ?? 'code';
          if (at?.written === 'gap') context.markers[what] = (context.markers[what] ?? 0) + 1;
          const s = srcs[k] !== undefined && mine.some((r) => r.start <= srcs[k] && srcs[k] <= r.end);
          if (dumping) console.log(`${String(n).padStart(3)} ${s ? '*' : ' '} ${what.padEnd(11)} ${line}`);
          add(`${place.padEnd(16)} ${what}`, n, s);
          add(`${place.padEnd(16)} (all)`, n, s);
        });
      });
    });
    if (count !== undefined) console.error(`${name}: ${count} tasks`);
  }
  console.log(`token account, ${contexts.length} contexts (rcl${oracle ? ' with the gold as P(needed), no follow-up' : ''}, budget 4,000, validation):`);
  for (const l of accountTable(account, contexts.length)) console.log('  ' + l);
  console.log('\nwhere                    tokens  share  signal-share');
  for (const [k, c] of [...cells].sort()) console.log(`${k.padEnd(24)} ${String(c.tokens).padStart(7)}  ${(c.tokens / total).toFixed(3)}  ${(c.signal / c.tokens).toFixed(3)}`);
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / (xs.length || 1);
  console.log('\ncorpus                  tasks  recall  full   median-tokens  line-noise  rounds  followup-group-tokens  review  p50-ms');
  for (const [n, ss] of [...scores, ['pooled', [...scores.values()].flat()] as [string, TaskScore[]]]) {
    const m = modeMetrics(ss);
    const g = n === 'pooled' ? [...gateOf.values()].flat() : gateOf.get(n) ?? [];
    console.log(`${n.padEnd(22)} ${String(m.tasks).padStart(6)}  ${m.recallMicro.toFixed(3)}  ${m.fullCoverageRate.toFixed(3)}  ${String(Math.round(m.tokensMedian)).padStart(13)}  ${m.lineNoiseRatio.toFixed(3).padStart(10)}  ${mean(g.map((x) => x.rounds)).toFixed(2).padStart(6)}  ${mean(g.map((x) => x.followupTokens)).toFixed(0).padStart(21)}  ${mean(g.map((x) => x.review)).toFixed(3).padStart(6)}  ${m.latencyP50Ms.toFixed(0).padStart(6)}`);
  }
  const kinds = [...new Set(contexts.flatMap((c) => Object.keys(c.markers)))].sort();
  console.log(`\n${contexts.length} contexts · median tokens ${median(contexts.map((c) => c.tokens))} · gap markers per context (mean, median): ${kinds.map((k) => `${k} ${(contexts.reduce((a, c) => a + (c.markers[k] ?? 0), 0) / contexts.length).toFixed(1)}, ${median(contexts.map((c) => c.markers[k] ?? 0))}`).join(' · ')}`);
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
