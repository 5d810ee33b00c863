// Stage 2b (The Needle and the Noise §4 (2), AllianceCoder): symbol/API-description matching. Every symbol gets a
// deterministic natural-language description (Javadoc first sentence, split identifier words,
// signature words, owner type words); the query's words are matched against those descriptions
// with BM25 (descriptionTable.ts: MiniSearch's scoring in a compact index), description to
// description rather than text to code. The index follows index.version file by file (built by
// retrieval's prepare stage, loaded in its finished form on a warm start); the scores of each term searched
// are remembered (see orSearch) until an edit moves them, which is what keeps a warm request, and
// the first one after an edit, fast on a large workspace.

import type { WorkspaceIndex } from '../../index/workspaceIndex';
import type { FileFacts, SymbolFact } from '../../java/facts';
import { splitIdentifier } from '../../text/identifiers';
import type { Query } from '../query';
import { addCandidate, type Candidate } from '../types';
import { docSummary, filesToCompare, typeNames } from '../symbols';
import { DescriptionTable, FIELD_BOOST, FIELDS, type TermScores } from './descriptionTable';
import { CorruptCache } from '../../index/cacheCodec';
import { SlotTable } from '../../text/slotTable';
import type { SavedKind } from '../preparedCache';

/** Candidates kept from the description search; the best gets API_WEIGHT, the rest proportionally. */
const MAX_RESULTS = 40;
const API_WEIGHT = 1.0;

/** A declaration's description: its four fields, and the whole as one text. */
export interface Description { name: string; signature: string; owner: string; doc: string; text: string }

export function describe(sym: SymbolFact, owner: SymbolFact | undefined): Description {
  const name = splitIdentifier(sym.name).join(' ');
  const signature = [
    ...(sym.params ?? []).flatMap((p) => [...splitIdentifier(p.name), ...typeNames(p.type).flatMap(splitIdentifier)]),
    ...typeNames(sym.returnType ?? sym.type).flatMap(splitIdentifier),
  ].join(' ');
  const ownerWords = owner ? splitIdentifier(owner.name).join(' ') : '';
  const doc = docSummary(sym.javadoc, 400);
  const text = `${doc} ${sym.kind} ${name} ${signature ? 'with ' + signature : ''} ${ownerWords ? 'in ' + ownerWords : ''}`.replace(/\s+/g, ' ').trim();
  return { name, signature, owner: ownerWords, doc, text };
}

interface DescCache {
  version: number;
  /** The index's changeSeq when it last looked (filesToCompare). */
  seq: number;
  table: DescriptionTable;
  /** Per file: the facts object indexed, its hash, and the document ids added for it, in fileDocs order (incremental updates). */
  files: Map<string, FilePart>;
  /** orSearch's accumulators by document id, and the documents its last search touched (`touched[0, count)`). */
  acc?: { score: Float64Array; matched: Uint16Array; touched: Int32Array; count: number };
  /** Each searched term's scores at this version (see orSearch), and how many entries they hold. */
  terms: Map<string, TermScores>;
  termEntries: number;
}

/**
 * Past this many remembered (document, score) entries the term memo starts over: a frequent term
 * of the whole JDK holds ~100k entries, and a long session searches thousands of terms.
 */
const MAX_TERM_ENTRIES = 2_000_000;
const cache = new WeakMap<WorkspaceIndex, DescCache>();

function tokenize(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).flatMap((t) => splitIdentifier(t)).filter((t) => t.length > 1);
}

/**
 * The description index, kept in step with the workspace index: on a new index.version only
 * files whose descriptions changed are taken out (their documents derived again from the old
 * facts) and added again, so term statistics end up as in a fresh build and results do not
 * depend on edit history. The remembered term scores go only when they moved: all of them when
 * the document count or a field's total length changed, else those of the terms whose postings
 * changed; a body edit, which changes no description, keeps them all.
 */
export function descriptionTable(index: WorkspaceIndex): DescriptionTable {
  return descriptions(index).table;
}

/** A file's part of the index: the facts its documents describe, their content hash, and its documents' ids in describedSymbols order. */
interface FilePart { facts: FileFacts; hash: string; docs: number[] }

/** The index as a warm start loads it (SAVED_DESCRIPTION_TABLE): the table, and per file its hash and documents' ids. */
export interface SavedDescriptionIndex { table: DescriptionTable; files: Map<string, { hash: string; docs: number[] }> }

/**
 * Builds the description index (retrieval's prepare stage). `saved`: the index in its finished
 * form as an earlier start left it: a file whose indexed hash is the one its documents were made
 * from keeps them (their declarations named from its facts), every other file's documents are
 * taken out and the file described again, as after an edit, so the index is the one a fresh
 * build makes (every score to the last bit; results never depend on document ids).
 */
export function prepareDescriptions(index: WorkspaceIndex, saved?: SavedDescriptionIndex): void {
  if (saved && !cache.has(index)) {
    const files = new Map<string, FilePart>();
    const stale: number[] = [];
    for (const [path, part] of saved.files) {
      const f = index.file(path);
      const syms = f && f.hash === part.hash ? describedSymbols(f.facts) : undefined;
      if (!f || !syms || syms.length !== part.docs.length) { stale.push(...part.docs); continue; }
      part.docs.forEach((d, i) => saved.table.name(d, syms[i].id));
      files.set(path, { facts: f.facts, hash: f.hash, docs: part.docs });
    }
    saved.table.removeDocuments(stale);
    saved.table.takeChangedTerms(); // nothing is remembered yet
    cache.set(index, { version: -1, seq: 0, table: saved.table, files, terms: new Map(), termEntries: 0 });
  }
  descriptions(index);
}

/** The index as it is now, to save (what a later start may load). */
export function currentDescriptionIndex(index: WorkspaceIndex): SavedDescriptionIndex {
  const c = descriptions(index);
  return { table: c.table, files: c.files };
}

/**
 * The index in its finished form (preparedCache.ts): the table's pools and terms
 * (DescriptionTable.saved), then per file (path order) its hash and its documents' ids. A
 * document's declaration is not saved: it is named from the file's facts at load. Loading
 * tokenizes nothing and adds no document.
 */
export const SAVED_DESCRIPTION_TABLE: SavedKind<SavedDescriptionIndex> = {
  name: 'saved description index', suffix: '.descriptions',
  write: (w, { table, files }) => {
    const t = table.saved();
    t.terms.write(w);
    for (const a of [t.at, t.docs, t.tfs, t.fieldLength]) w.int32s(a);
    w.int(table.capacity);
    w.list([...files.keys()].sort(), (path) => { const part = files.get(path)!; w.str(path); w.str(part.hash); w.int32s(Int32Array.from(part.docs)); });
  },
  read: (r) => {
    const terms = SlotTable.read(r);
    const [at, docs, tfs, fieldLength] = Array.from({ length: 4 }, () => r.int32s());
    const capacity = r.count();
    const paths: (string | undefined)[] = new Array(capacity).fill(undefined);
    const files = new Map<string, { hash: string; docs: number[] }>();
    const n = r.count();
    for (let i = 0; i < n; i++) {
      const path = r.str(), hash = r.str(), ids = Array.from(r.int32s());
      for (const d of ids) {
        if (!(d >= 0 && d < capacity) || paths[d] !== undefined) throw new CorruptCache('saved description index malformed: a document id out of range or taken twice');
        paths[d] = path;
      }
      files.set(path, { hash, docs: ids });
    }
    return { table: DescriptionTable.fromSaved({ terms, at, docs, tfs, fieldLength }, paths, tokenize), files };
  },
  hashes: (s) => s.files,
};

function descriptions(index: WorkspaceIndex): DescCache {
  let c = cache.get(index);
  if (c && c.version === index.version) return c;
  if (!c) cache.set(index, (c = { version: -1, seq: 0, files: new Map(), terms: new Map(), termEntries: 0, table: new DescriptionTable(tokenize) }));
  const { table } = c;
  const stats = table.stats();
  const take = (docs: number[], described: FileDoc[]) => described.forEach((d, i) => table.remove(docs[i], d.fields));
  const { files, gone } = filesToCompare(index, c.version < 0 ? undefined : c.seq, c.files);
  c.seq = index.changeSeq;
  for (const f of files) {
    const old = c.files.get(f.path);
    if (old && old.facts === f.facts) continue;
    const now = fileDocs(f.facts);
    if (old) {
      const before = fileDocs(old.facts);
      // Most edits (a body, a comment, lines moving) leave every description as it was: the
      // table, and so every term's scores, stay.
      if (sameDocs(before, now)) { old.facts = f.facts; old.hash = f.hash; continue; }
      take(old.docs, before);
    }
    c.files.set(f.path, { facts: f.facts, hash: f.hash, docs: now.map((d) => table.add(d.sym, f.path, d.fields)) });
  }
  for (const p of gone) { const e = c.files.get(p)!; take(e.docs, fileDocs(e.facts)); c.files.delete(p); }
  const changed = table.takeChangedTerms();
  const renumbered = table.compact();
  if (c.version < 0) table.trim(); // a first build grew every list by pushes
  if (renumbered) for (const e of c.files.values()) e.docs = e.docs.map((d) => renumbered[d]);
  c.version = index.version;
  if (renumbered || table.stats() !== stats) {
    // Document ids, the document count or a field's total length moved: every score with them.
    c.acc = undefined;
    c.terms = new Map();
    c.termEntries = 0;
  } else {
    // Otherwise only the terms of documents that came or went score differently (descriptionTable.ts).
    for (const term of changed) {
      const t = c.terms.get(term);
      if (!t) continue;
      c.termEntries -= t.docs.length;
      c.terms.delete(term);
    }
    if (c.acc && c.acc.score.length < table.capacity) c.acc = undefined;
  }
  return c;
}

interface FileDoc { sym: string; fields: string[] }

function sameDocs(a: FileDoc[], b: FileDoc[]): boolean {
  return a.length === b.length && a.every((d, i) => d.sym === b[i].sym && d.fields.every((f, k) => f === b[i].fields[k]));
}

/** How many terms' scores are remembered now (tests: what an edit kept). */
export function rememberedTerms(index: WorkspaceIndex): number {
  return descriptions(index).terms.size;
}

/** The declarations a file's documents describe: each non-local one, the first of a repeated id. */
function describedSymbols(facts: FileFacts): SymbolFact[] {
  const seen = new Set<string>();
  return facts.symbols.filter((s) => !s.local && !s.anonymous && !seen.has(s.id) && !!seen.add(s.id));
}

/** A file's documents: the fields of each described declaration, from the facts alone. */
function fileDocs(facts: FileFacts): FileDoc[] {
  return describedSymbols(facts).map((s) => {
    const d = describe(s, s.parent >= 0 ? facts.symbols[s.parent] : undefined);
    return { sym: s.id, fields: [d.name, d.signature, d.owner, d.doc] };
  });
}

/** Every document as MiniSearch would be given it (id `path\0symbol`, the four fields), in path order: the tests' reference. */
export function descriptionDocuments(index: WorkspaceIndex): Record<'id' | (typeof FIELDS)[number], string>[] {
  return [...index.allFiles()].sort((a, b) => (a.path < b.path ? -1 : 1)).flatMap((f) => fileDocs(f.facts).map((d) => ({
    id: `${f.path}\0${d.sym}`, ...Object.fromEntries(FIELDS.map((name, i) => [name, d.fields[i]])) as Record<(typeof FIELDS)[number], string>,
  })));
}

/** The MiniSearch options the table reproduces (tests build the reference with them). */
export const MINISEARCH_OPTIONS = {
  fields: [...FIELDS], storeFields: [], tokenize,
  searchOptions: { boost: Object.fromEntries(FIELDS.map((f, i) => [f, FIELD_BOOST[i]])), prefix: false, fuzzy: false, combineWith: 'OR' as const },
};

/** The terms searched for a query text: tokenized, lower-cased (as documents are), repeats kept. */
function searchTerms(text: string): string[] {
  return tokenize(text).map((t) => t.toLowerCase()).filter((t) => !!t);
}

function termScores(c: DescCache, term: string): TermScores {
  let t = c.terms.get(term);
  if (t) return t;
  t = c.table.termScores(term);
  if (c.termEntries + t.docs.length > MAX_TERM_ENTRIES) { c.terms.clear(); c.termEntries = 0; }
  c.terms.set(term, t);
  c.termEntries += t.docs.length;
  return t;
}

/**
 * MiniSearch's OR search, summed as it sums, from remembered per-term scores: a document's score is
 * the sum of its terms' scores in query order (a repeated term counts each time), times the
 * number of distinct query terms it matches. Searching the whole query instead walks every
 * posting of every term — `int`, `get`, `string` hold a fifth of the JDK's descriptions each —
 * on every request; here that happens once per term until an edit moves its scores. The scores are read
 * from a shared array, valid until the next search.
 */
function orSearch(c: DescCache, query: string): { touched: Int32Array; score: Float64Array } {
  const capacity = c.table.capacity;
  // The touched documents in an array of the table's size, not pushed one by one: on the JDK a
  // query's common terms match a good part of its descriptions.
  const acc = (c.acc ??= { score: new Float64Array(capacity), matched: new Uint16Array(capacity), touched: new Int32Array(capacity), count: 0 });
  const { score, matched, touched } = acc;
  for (let k = 0; k < acc.count; k++) { const d = touched[k]; score[d] = 0; matched[d] = 0; } // the previous search's
  let count = 0;
  const distinct = new Set<string>();
  for (const term of searchTerms(query)) {
    const first = !distinct.has(term);
    distinct.add(term);
    const t = termScores(c, term);
    for (let i = 0; i < t.docs.length; i++) {
      const d = t.docs[i];
      if (!matched[d]) touched[count++] = d;
      score[d] += t.scores[i];
      if (first) matched[d]++;
    }
  }
  acc.count = count;
  for (let k = 0; k < count; k++) score[touched[k]] *= matched[touched[k]];
  return { touched: touched.subarray(0, count), score };
}

/**
 * Words sent to the description search. They are ordered name, parameters, type, Javadoc, task,
 * then body identifiers; past this many, a long body's words add cost (every OR'ed term scans its
 * postings) more than they add signal.
 */
export const MAX_QUERY_WORDS = 24;

/** Description-to-description recall; `folders` restricts results (repository prefilter). */
export function descriptionRecall(index: WorkspaceIndex, q: Query, folders?: string[]): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  if (!q.words.length) return out;
  const c = descriptions(index);
  const self = q.member?.sym.id;
  // The first MAX_RESULTS distinct declarations by (score, sym, path); scores rounded first: float noise must not reorder.
  const before = (a: Hit, b: Hit) => a.score > b.score || (a.score === b.score && (a.sym < b.sym || (a.sym === b.sym && a.path < b.path)));
  const best: Hit[] = [];
  const { sym, path } = c.table;
  const { touched, score } = orSearch(c, q.words.slice(0, MAX_QUERY_WORDS).join(' '));
  for (let k = 0; k < touched.length; k++) {
    const d = touched[k];
    const rounded = Math.round(score[d] * 1e6) / 1e6;
    if (best.length >= MAX_RESULTS && rounded < best[MAX_RESULTS - 1].score) continue; // most documents end here
    const h: Hit = { sym: sym[d]!, path: path[d]!, score: rounded };
    if (h.sym === self || (folders && !folders.some((f) => h.path.startsWith(f)))) continue;
    if (best.length >= MAX_RESULTS && !before(h, best[MAX_RESULTS - 1])) continue;
    const same = best.findIndex((x) => x.sym === h.sym); // the same declaration in two folders counts once
    if (same >= 0) {
      if (!before(h, best[same])) continue;
      best.splice(same, 1);
    }
    let at = best.length;
    while (at > 0 && before(h, best[at - 1])) at--;
    best.splice(at, 0, h);
    if (best.length > MAX_RESULTS) best.pop();
  }
  const top = best[0]?.score ?? 1;
  for (const r of best) addCandidate(out, r.sym, API_WEIGHT * (r.score / top), 'api', 'description match', false, 'description');
  return out;
}

interface Hit { sym: string; path: string; score: number }
