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

interface Doc { id: string; path: string; name: string; signature: string; owner: string; doc: string }

export function describe(sym: SymbolFact, owner: SymbolFact | undefined): Doc & { text: string } {
  const name = splitIdentifier(sym.name).join(' ');
  const signature = [
    ...(sym.params ?? []).flatMap((p) => [...splitIdentifier(p.name), ...typeNames(p.type).flatMap(splitIdentifier)]),
    ...typeNames(sym.returnType ?? sym.type).flatMap(splitIdentifier),
  ].join(' ');
  const ownerWords = owner ? splitIdentifier(owner.name).join(' ') : '';
  const doc = firstSentence(sym.javadoc, 400);
  const text = `${doc} ${sym.kind} ${name} ${signature ? 'with ' + signature : ''} ${ownerWords ? 'in ' + ownerWords : ''}`.replace(/\s+/g, ' ').trim();
  return { id: sym.id, path: '', name, signature, owner: ownerWords, doc, text };
}

const cache = new WeakMap<WorkspaceIndex, { version: number; ms: MiniSearch<Doc> }>();

function tokenize(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).flatMap((t) => splitIdentifier(t)).filter((t) => t.length > 1);
}

export function descriptionIndex(index: WorkspaceIndex): MiniSearch<Doc> {
  const c = cache.get(index);
  if (c && c.version === index.version) return c.ms;
  const ms = new MiniSearch<Doc>({
    fields: ['name', 'signature', 'owner', 'doc'],
    storeFields: ['path'],
    tokenize,
    searchOptions: { boost: { name: 3, doc: 1.5, signature: 1, owner: 0.5 }, prefix: false, fuzzy: false, combineWith: 'OR' },
  });
  const seen = new Set<string>();
  const docs: Doc[] = [];
  for (const f of [...index.allFiles()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    for (const s of f.facts.symbols) {
      if (s.local || s.anonymous || seen.has(s.id)) continue;
      seen.add(s.id);
      const d = describe(s, s.parent >= 0 ? f.facts.symbols[s.parent] : undefined);
      docs.push({ id: d.id, path: f.path, name: d.name, signature: d.signature, owner: d.owner, doc: d.doc });
    }
  }
  ms.addAll(docs);
  cache.set(index, { version: index.version, ms });
  return ms;
}

/** Description-to-description recall; `folders` restricts results (repository prefilter). */
export function descriptionRecall(index: WorkspaceIndex, q: Query, folders?: string[]): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  if (!q.words.length) return out;
  const ms = descriptionIndex(index);
  const self = q.member?.sym.id;
  const results = ms.search(q.words.join(' '))
    .filter((r) => r.id !== self && (!folders || folders.some((f) => String(r.path).startsWith(f))))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, MAX_RESULTS);
  const top = results[0]?.score ?? 1;
  for (const r of results) addCandidate(out, r.id, API_WEIGHT * (r.score / top), 'api', 'description match');
  return out;
}
