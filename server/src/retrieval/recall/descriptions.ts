// Stage 2b (The Needle and the Noise §4 (2), AllianceCoder): symbol/API-description matching. Every symbol gets a
// deterministic natural-language description (Javadoc first sentence, split identifier words,
// signature words, owner type words); the query's words are matched against those descriptions
// with BM25 (minisearch), description to description rather than text to code.
// The MiniSearch index is built lazily and cached per index.version; so are the scores of each
// term searched (see orSearch), which is what keeps a warm request fast on a large workspace.

import MiniSearch from 'minisearch';
import type { WorkspaceIndex } from '../../index/workspaceIndex';
import type { FileFacts, SymbolFact } from '../../java/facts';
import { splitIdentifier } from '../../text/identifiers';
import type { Query } from '../query';
import { addCandidate, type Candidate } from '../types';
import { firstSentence, typeNames } from '../symbols';

/** Candidates kept from the description search; the best gets API_WEIGHT, the rest proportionally. */
const MAX_RESULTS = 40;
const API_WEIGHT = 1.0;

interface Doc { id: string; sym: string; path: string; name: string; signature: string; owner: string; doc: string }
/** What a search needs of an indexed document (its text fields are derived again from the facts to remove it). */
type DocKey = Pick<Doc, 'id' | 'sym' | 'path'>;

export function describe(sym: SymbolFact, owner: SymbolFact | undefined): Doc & { text: string } {
  const name = splitIdentifier(sym.name).join(' ');
  const signature = [
    ...(sym.params ?? []).flatMap((p) => [...splitIdentifier(p.name), ...typeNames(p.type).flatMap(splitIdentifier)]),
    ...typeNames(sym.returnType ?? sym.type).flatMap(splitIdentifier),
  ].join(' ');
  const ownerWords = owner ? splitIdentifier(owner.name).join(' ') : '';
  const doc = firstSentence(sym.javadoc, 400);
  const text = `${doc} ${sym.kind} ${name} ${signature ? 'with ' + signature : ''} ${ownerWords ? 'in ' + ownerWords : ''}`.replace(/\s+/g, ' ').trim();
  return { id: sym.id, sym: sym.id, path: '', name, signature, owner: ownerWords, doc, text };
}

interface DescCache {
  version: number;
  ms: MiniSearch<Doc>;
  /** Per file: the facts object indexed and the documents added for it (incremental updates). */
  files: Map<string, { facts: FileFacts; docs: DocKey[] }>;
  /** This version's documents numbered, and each searched term's scores by number (see orSearch). */
  numbered?: {
    docs: DocKey[];
    number: Map<string, number>;
    /** orSearch's accumulators by document number, reused; `touched` lists the entries in use. */
    score: Float64Array;
    matched: Uint16Array;
    touched: number[];
  };
  terms: Map<string, TermScores>;
}
/** One term's MiniSearch score in each document containing it. */
interface TermScores { docs: Int32Array; scores: Float64Array }
const cache = new WeakMap<WorkspaceIndex, DescCache>();

function tokenize(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).flatMap((t) => splitIdentifier(t)).filter((t) => t.length > 1);
}

/**
 * The description index, kept in step with the workspace index: on a new index.version only
 * files whose facts changed are discarded and re-added. Documents are keyed `path\0symbolId`.
 */
export function descriptionIndex(index: WorkspaceIndex): MiniSearch<Doc> {
  return descriptions(index).ms;
}

/** Builds the description index and its numbered documents (retrieval's prepare stage). */
export function prepareDescriptions(index: WorkspaceIndex): void {
  numbered(descriptions(index));
}

function descriptions(index: WorkspaceIndex): DescCache {
  let c = cache.get(index);
  if (c && c.version === index.version) return c;
  if (!c) {
    c = {
      version: -1,
      files: new Map(),
      terms: new Map(),
      ms: new MiniSearch<Doc>({
        fields: ['name', 'signature', 'owner', 'doc'],
        // Nothing stored: a search maps each result's id to this version's numbered documents.
        storeFields: [],
        tokenize,
        searchOptions: { boost: { name: 3, doc: 1.5, signature: 1, owner: 0.5 }, prefix: false, fuzzy: false, combineWith: 'OR' },
      }),
    };
    cache.set(index, c);
  }
  const live = new Set<string>();
  for (const f of [...index.allFiles()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    live.add(f.path);
    const old = c.files.get(f.path);
    if (old && old.facts === f.facts) continue;
    // remove (not discard): term statistics end up exactly as in a fresh build, so results do not depend on edit history.
    if (old) c.ms.removeAll(fileDocs(f.path, old.facts));
    const docs = fileDocs(f.path, f.facts);
    c.ms.addAll(docs);
    c.files.set(f.path, { facts: f.facts, docs: docs.map(({ id, sym, path }) => ({ id, sym, path })) });
  }
  for (const [p, e] of [...c.files]) if (!live.has(p)) { c.ms.removeAll(fileDocs(p, e.facts)); c.files.delete(p); }
  c.version = index.version;
  // Any change moves document counts and lengths, hence every score.
  c.numbered = undefined;
  c.terms = new Map();
  return c;
}

/**
 * A file's documents, one per non-local declaration (the first of a repeated id). Derived from the
 * facts alone, so removing a file derives exactly the documents that were added for it.
 */
function fileDocs(path: string, facts: FileFacts): Doc[] {
  const keys = new Set<string>();
  const docs: Doc[] = [];
  for (const s of facts.symbols) {
    if (s.local || s.anonymous) continue;
    const id = `${path}\0${s.id}`;
    if (keys.has(id)) continue;
    keys.add(id);
    const d = describe(s, s.parent >= 0 ? facts.symbols[s.parent] : undefined);
    docs.push({ id, sym: s.id, path, name: d.name, signature: d.signature, owner: d.owner, doc: d.doc });
  }
  return docs;
}

/** The terms MiniSearch searches for a query text: tokenized, lower-cased (its default processTerm), repeats kept. */
function searchTerms(text: string): string[] {
  return tokenize(text).map((t) => t.toLowerCase()).filter((t) => !!t);
}

function numbered(c: DescCache): NonNullable<DescCache['numbered']> {
  if (!c.numbered) {
    const docs = [...c.files.values()].flatMap((e) => e.docs);
    c.numbered = { docs, number: new Map(docs.map((d, i) => [d.id, i])), score: new Float64Array(docs.length), matched: new Uint16Array(docs.length), touched: [] };
  }
  return c.numbered;
}

/** One term's scores, searched alone (a query of one term is scored exactly as that term within a longer query). */
function termScores(c: DescCache, term: string): TermScores {
  let t = c.terms.get(term);
  if (t) return t;
  const { number } = numbered(c);
  const docs: number[] = [], scores: number[] = [];
  // Each result is read as the filter sees it and none is kept: nothing is left to sort.
  c.ms.search(term, { tokenize: (x) => [x], processTerm: (x) => x, filter: (r) => { docs.push(number.get(String(r.id))!); scores.push(r.score); return false; } });
  t = { docs: Int32Array.from(docs), scores: Float64Array.from(scores) };
  c.terms.set(term, t);
  return t;
}

/**
 * MiniSearch's OR search, to the last bit, from cached per-term scores: a document's score is
 * the sum of its terms' scores in query order (a repeated term counts each time), times the
 * number of distinct query terms it matches. Searching the whole query instead walks every
 * posting of every term — `int`, `get`, `string` hold a fifth of the JDK's descriptions each —
 * on every request; here that happens once per term and index version. The scores are read
 * from a shared array, valid until the next search.
 */
function orSearch(c: DescCache, query: string): { docs: DocKey[]; touched: number[]; score: Float64Array } {
  const n = numbered(c);
  const { docs, score, matched } = n;
  for (const d of n.touched) { score[d] = 0; matched[d] = 0; } // the previous search's
  const touched: number[] = (n.touched = []);
  const distinct = new Set<string>();
  for (const term of searchTerms(query)) {
    const first = !distinct.has(term);
    distinct.add(term);
    const t = termScores(c, term);
    for (let i = 0; i < t.docs.length; i++) {
      const d = t.docs[i];
      if (!matched[d]) touched.push(d);
      score[d] += t.scores[i];
      if (first) matched[d]++;
    }
  }
  for (const d of touched) score[d] *= matched[d];
  return { docs, touched, score };
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
  // The first MAX_RESULTS distinct declarations by (score, sym, id); scores rounded first: float noise must not reorder.
  const before = (a: Hit, b: Hit) => a.score > b.score || (a.score === b.score && (a.sym < b.sym || (a.sym === b.sym && a.id < b.id)));
  const best: Hit[] = [];
  const { docs, touched, score } = orSearch(c, q.words.slice(0, MAX_QUERY_WORDS).join(' '));
  for (const d of touched) {
    const rounded = Math.round(score[d] * 1e6) / 1e6;
    if (best.length >= MAX_RESULTS && rounded < best[MAX_RESULTS - 1].score) continue; // most documents end here
    const doc = docs[d];
    if (doc.sym === self || (folders && !folders.some((f) => doc.path.startsWith(f)))) continue;
    const h: Hit = { sym: doc.sym, id: doc.id, score: rounded };
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
  for (const r of best) addCandidate(out, r.sym, API_WEIGHT * (r.score / top), 'api', 'description match');
  return out;
}

interface Hit { sym: string; id: string; score: number }
