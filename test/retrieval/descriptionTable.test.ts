// The compact description index scores every term exactly as MiniSearch does, through adds,
// removals (whose running mean of field lengths depends on the order) and compaction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import MiniSearch from 'minisearch';
import { DescriptionTable, FIELDS } from '../../server/src/retrieval/recall/descriptionTable';
import { MINISEARCH_OPTIONS } from '../../server/src/retrieval/recall/descriptions';

const WORDS = ['order', 'Order', 'line', 'total', 'getTotal', 'discount', 'loyalty', 'price', 'money', 'apply', 'tax', 'cart', 'x', 'HTTPServer'];

function docs(n: number, seed: number): { id: string; fields: string[] }[] {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  return Array.from({ length: n }, (_, i) => ({
    id: `d${seed}-${i}`,
    fields: FIELDS.map((_, f) => Array.from({ length: Math.floor(rand() * (f === 3 ? 12 : 4)) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ')),
  }));
}

function compare(table: DescriptionTable, ms: MiniSearch, ids: Map<string, number>, label: string): void {
  for (const term of new Set(WORDS.map((w) => w.toLowerCase()).concat(['get', 'http', 'server', 'absent']))) {
    const want = new Map(ms.search(term, { tokenize: (x) => [x], processTerm: (x) => x }).map((r) => [ids.get(String(r.id))!, r.score]));
    const got = table.termScores(term);
    assert.equal(got.docs.length, want.size, `${label}: ${term}`);
    for (let i = 0; i < got.docs.length; i++) assert.equal(got.scores[i], want.get(got.docs[i]), `${label}: ${term} in ${got.docs[i]}`);
  }
}

test('description table: the same scores as MiniSearch, to the bit, through adds, removals and compaction', () => {
  const ms = new MiniSearch(MINISEARCH_OPTIONS);
  const table = new DescriptionTable(MINISEARCH_OPTIONS.tokenize);
  const ids = new Map<string, number>();
  const live = new Map<string, string[]>();
  const add = (d: { id: string; fields: string[] }) => {
    ms.add({ id: d.id, ...Object.fromEntries(FIELDS.map((f, i) => [f, d.fields[i]])) });
    ids.set(d.id, table.add(d.id, 'p', d.fields));
    live.set(d.id, d.fields);
  };
  const remove = (id: string) => {
    const fields = live.get(id)!;
    ms.remove({ id, ...Object.fromEntries(FIELDS.map((f, i) => [f, fields[i]])) });
    table.remove(ids.get(id)!, fields);
    live.delete(id);
  };
  for (const d of docs(300, 1)) add(d);
  compare(table, ms, ids, 'built');
  for (const id of [...live.keys()].filter((_, i) => i % 3 === 0)) remove(id);
  for (const d of docs(50, 2)) add(d);
  compare(table, ms, ids, 'after edits');
  for (const id of [...live.keys()].filter((_, i) => i % 4 !== 0)) remove(id);
  const map = table.compact(10);
  assert.ok(map, 'compacted');
  for (const [id, d] of ids) ids.set(id, map[d]);
  assert.equal(table.size, live.size);
  compare(table, ms, ids, 'after compaction');
  for (const d of docs(20, 3)) add(d);
  compare(table, ms, ids, 'added after compaction');
});
