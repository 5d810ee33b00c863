// Stage 2b (003 §4 (2), AllianceCoder): symbol/API-description matching. Every symbol gets a
// deterministic natural-language description (Javadoc first sentence, split identifier words,
// signature words, owner type words); the query's words are matched against those descriptions
// with BM25 (minisearch), description to description rather than text to code.
// The MiniSearch index is built lazily and cached per index.version.

import MiniSearch from 'minisearch';
import type { WorkspaceIndex } from '../../index/workspaceIndex';
import type { SymbolFact } from '../../java/facts';
import { splitIdentifier } from '../../text/identifiers';
import type { Query } from '../query';
import { addCandidate, type Candidate } from '../types';
import { firstSentence, typeNames } from '../symbols';

/** Candidates kept from the description search; the best gets API_WEIGHT, the rest proportionally. */
const MAX_RESULTS = 40;
const API_WEIGHT = 1.0;

interface Doc { id: string; sym: string; path: string; name: string; signature: string; owner: string; doc: string }

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
  /** Per file: the facts object indexed and the MiniSearch ids added for it (incremental updates). */
  files: Map<string, { facts: object; docs: Doc[] }>;
}
const cache = new WeakMap<WorkspaceIndex, DescCache>();

function tokenize(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).flatMap((t) => splitIdentifier(t)).filter((t) => t.length > 1);
}

/**
 * The description index, kept in step with the workspace index: on a new index.version only
 * files whose facts changed are discarded and re-added. Documents are keyed `path\0symbolId`.
 */
export function descriptionIndex(index: WorkspaceIndex): MiniSearch<Doc> {
  let c = cache.get(index);
  if (c && c.version === index.version) return c.ms;
  if (!c) {
    c = {
      version: -1,
      files: new Map(),
      ms: new MiniSearch<Doc>({
        fields: ['name', 'signature', 'owner', 'doc'],
        storeFields: ['path', 'sym'],
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
    if (old) c.ms.removeAll(old.docs);
    const keys = new Set<string>();
    const docs: Doc[] = [];
    for (const s of f.facts.symbols) {
      if (s.local || s.anonymous) continue;
      const d = describe(s, s.parent >= 0 ? f.facts.symbols[s.parent] : undefined);
      const id = `${f.path}\0${s.id}`;
      if (keys.has(id)) continue;
      keys.add(id);
      docs.push({ id, sym: s.id, path: f.path, name: d.name, signature: d.signature, owner: d.owner, doc: d.doc });
    }
    c.ms.addAll(docs);
    c.files.set(f.path, { facts: f.facts, docs });
  }
  for (const [p, e] of [...c.files]) if (!live.has(p)) { c.ms.removeAll(e.docs); c.files.delete(p); }
  c.version = index.version;
  return c.ms;
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
  const ms = descriptionIndex(index);
  const self = q.member?.sym.id;
  const seen = new Set<string>();
  const results: { sym: string; score: number }[] = [];
  const raw = ms.search(q.words.slice(0, MAX_QUERY_WORDS).join(' '))
    .map((r) => ({ id: String(r.id), sym: String(r.sym), path: String(r.path), score: Math.round(r.score * 1e6) / 1e6 }))
    .filter((r) => r.sym !== self && (!folders || folders.some((f) => r.path.startsWith(f))))
    .sort((a, b) => b.score - a.score || (a.sym < b.sym ? -1 : a.sym > b.sym ? 1 : a.id < b.id ? -1 : 1));
  for (const r of raw) {
    if (seen.has(r.sym)) continue; // the same declaration in two folders counts once
    seen.add(r.sym);
    results.push({ sym: r.sym, score: r.score }); // scores rounded above: float noise must not reorder
    if (results.length >= MAX_RESULTS) break;
  }
  const top = results[0]?.score ?? 1;
  for (const r of results) addCandidate(out, r.sym, API_WEIGHT * (r.score / top), 'api', 'description match');
  return out;
}
