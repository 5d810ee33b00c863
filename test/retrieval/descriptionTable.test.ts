// The compact description index scores every term as MiniSearch does (within 1e-12: MiniSearch's
// average field length is a running mean whose last bits depend on the order documents came and
// went, the table's an exact total over the count), through adds, removals and compaction; and,
// bit for bit, as a fresh table of the same live documents does, whatever the history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import MiniSearch from 'minisearch';
import { DescriptionTable, FIELDS } from '../../server/src/retrieval/recall/descriptionTable';
import { MINISEARCH_OPTIONS } from '../../server/src/retrieval/recall/descriptions';
import { viaSavedForm } from '../helpers/slotTables';

const WORDS = ['order', 'Order', 'line', 'total', 'getTotal', 'discount', 'loyalty', 'price', 'money', 'apply', 'tax', 'cart', 'x', 'HTTPServer'];

function docs(n: number, seed: number): { id: string; fields: string[] }[] {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  return Array.from({ length: n }, (_, i) => ({
    id: `d${seed}-${i}`,
    fields: FIELDS.map((_, f) => Array.from({ length: Math.floor(rand() * (f === 3 ? 12 : 4)) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ')),
  }));
}

const TERMS = [...new Set(WORDS.map((w) => w.toLowerCase()).concat(['get', 'http', 'server', 'absent']))];

function compare(table: DescriptionTable, ms: MiniSearch, ids: Map<string, number>, label: string): void {
  for (const term of TERMS) {
    const want = new Map(ms.search(term, { tokenize: (x) => [x], processTerm: (x) => x }).map((r) => [ids.get(String(r.id))!, r.score]));
    const got = table.termScores(term);
    assert.equal(got.docs.length, want.size, `${label}: ${term}`);
    for (let i = 0; i < got.docs.length; i++) {
      const w = want.get(got.docs[i]);
      assert.ok(w !== undefined && Math.abs(got.scores[i] - w) <= 1e-12 * w, `${label}: ${term} in ${got.docs[i]}: ${got.scores[i]} against ${w}`);
    }
  }
}

/** Each term's scores by document, keyed by the document's name: what a fresh table must equal bit for bit. */
function scoresByName(table: DescriptionTable, name: (doc: number) => string): Map<string, Map<string, number>> {
  return new Map(TERMS.map((term) => {
    const t = table.termScores(term);
    return [term, new Map([...t.docs].map((d, i) => [name(d), t.scores[i]]))];
  }));
}

function sameAsFresh(table: DescriptionTable, ids: Map<string, number>, live: Map<string, string[]>, label: string): void {
  const fresh = new DescriptionTable(MINISEARCH_OPTIONS.tokenize);
  const freshIds = new Map<number, string>();
  for (const [id, fields] of [...live].reverse()) freshIds.set(fresh.add(id, 'p', fields), id); // another order than the history's
  const names = new Map([...ids].map(([id, d]) => [d, id]));
  assert.equal(fresh.stats(), table.stats(), label);
  assert.deepEqual(scoresByName(table, (d) => names.get(d)!), scoresByName(fresh, (d) => freshIds.get(d)!), label);
}

test('description table: MiniSearch\'s scores through adds, removals and compaction, and a fresh table\'s to the bit', () => {
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
    ids.delete(id);
    live.delete(id);
  };
  for (const d of docs(300, 1)) add(d);
  compare(table, ms, ids, 'built');
  sameAsFresh(table, ids, live, 'built');
  for (const id of [...live.keys()].filter((_, i) => i % 3 === 0)) remove(id);
  for (const d of docs(50, 2)) add(d);
  compare(table, ms, ids, 'after edits');
  sameAsFresh(table, ids, live, 'after edits');
  for (const id of [...live.keys()].filter((_, i) => i % 4 !== 0)) remove(id);
  const map = table.compact(10);
  assert.ok(map, 'compacted');
  for (const [id, d] of ids) ids.set(id, map[d]);
  assert.equal(table.size, live.size);
  compare(table, ms, ids, 'after compaction');
  sameAsFresh(table, ids, live, 'after compaction');
  for (const d of docs(20, 3)) add(d);
  compare(table, ms, ids, 'added after compaction');
  sameAsFresh(table, ids, live, 'added after compaction');
});

test('description table: its finished form loads back scoring as the saved table; documents removed without their fields end as a fresh table', () => {
  const table = new DescriptionTable(MINISEARCH_OPTIONS.tokenize);
  const ids = new Map<string, number>();
  const live = new Map<string, string[]>();
  const add = (t: DescriptionTable, d: { id: string; fields: string[] }) => { ids.set(d.id, t.add(d.id, `p${d.id}`, d.fields)); live.set(d.id, d.fields); };
  for (const d of docs(200, 4)) add(table, d);
  table.trim();
  // Edits after a pack: lists copied out of the pool, some emptied.
  for (const id of [...live.keys()].filter((_, i) => i % 5 === 0)) { table.remove(ids.get(id)!, live.get(id)!); ids.delete(id); live.delete(id); }
  for (const d of docs(30, 5)) add(table, d);
  const names = () => new Map([...ids].map(([id, d]) => [d, id]));
  const paths = Array.from({ length: table.capacity }, (_, d) => table.path[d]);
  const fromTable = table.saved();
  const saved = { ...fromTable, terms: viaSavedForm(fromTable.terms) };
  const loaded = DescriptionTable.fromSaved(saved, paths, MINISEARCH_OPTIONS.tokenize);
  for (const d of ids.values()) loaded.name(d, table.sym[d]!);
  assert.equal(loaded.stats(), table.stats());
  assert.deepEqual(scoresByName(loaded, (d) => names().get(d)!), scoresByName(table, (d) => names().get(d)!), 'loaded scores as saved');
  sameAsFresh(loaded, ids, live, 'loaded');
  // A third of the documents go without their fields (files changed while stopped), then more come.
  const gone = [...live.keys()].filter((_, i) => i % 3 === 1);
  loaded.removeDocuments(gone.map((id) => ids.get(id)!));
  for (const id of gone) { ids.delete(id); live.delete(id); }
  assert.equal(loaded.size, live.size);
  sameAsFresh(loaded, ids, live, 'documents removed without their fields');
  for (const d of docs(40, 6)) add(loaded, d);
  sameAsFresh(loaded, ids, live, 'added after');
  loaded.trim();
  sameAsFresh(loaded, ids, live, 'packed again');
  // Inconsistent forms are refused.
  const spoilt: [string, () => void][] = [
    ['a posting of a document no file holds', () => DescriptionTable.fromSaved(saved, paths.map((p, d) => (d === saved.docs[0] ? undefined : p)), MINISEARCH_OPTIONS.tokenize)],
    ['ranges out of order', () => DescriptionTable.fromSaved({ ...saved, at: saved.at.map((v, i) => (i === 4 ? saved.at[6] + 1 : v)) }, paths, MINISEARCH_OPTIONS.tokenize)],
    ['a free term with postings', () => { const terms = viaSavedForm(saved.terms); terms.delete(1); DescriptionTable.fromSaved({ ...saved, terms }, paths, MINISEARCH_OPTIONS.tokenize); }],
    ['a frequency of 0', () => DescriptionTable.fromSaved({ ...saved, tfs: saved.tfs.map((v, i) => (i === 0 ? 0 : v)) }, paths, MINISEARCH_OPTIONS.tokenize)],
  ];
  for (const [what, load] of spoilt) assert.throws(load, /malformed/, what);
});
