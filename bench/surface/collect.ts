// Collects the gate's surface candidates on benchmark tasks, in process: index a corpus once
// (no cache, no server), and per task open the file with the body emptied exactly as the retrieval
// benchmark does (tasks.ts maskText, imports only the body used blanked by default), list every surface candidate with its route hints, label it
// gold when it is a declaration the original body referenced, and keep what the pipeline retrieved
// with no follow-up round (to replay the gate's confidence under another route table).

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import type { ContextItem } from '../../shared/protocol';
import { Indexer } from '../../server/src/index/indexer';
import { retrieveAt, defaultSettings } from '../../server/src/service';
import { dependencySurface, surfaceCandidates, type RouteHint, type RouteScenario } from '../../server/src/gate/surface';
import { markCovered } from '../../server/src/gate/coverage';
import { bodyOf } from '../../server/src/gate/sufficiency';
import { relPathOfUri, itemHolds } from '../retrieval/score';
import { loadOracle, sampleTasks, scenarioTask, type GoldSymbol, type ImportProtocol, type ScenarioTask, type Task } from '../retrieval/tasks';
import { isTypeKind, type TypeInfo } from '../../server/src/java/symbols';
import type { SymbolRef, WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { typeNameResolver, parseTypeText } from '../../server/src/java/resolve';
import { declarationsByName, directSubtypesOf } from '../../server/src/retrieval/symbols';

export interface CandidateRow {
  symbol: string;
  reasons: RouteHint[];
  gold: boolean;
  /** Shown by the items retrieved before any follow-up round. */
  covered: boolean;
  /** Shown by the items after the gate's follow-up rounds. */
  coveredAfter?: boolean;
  novelty: number;
}

export interface TaskRows {
  corpus: string;
  /** Whose route table prices its rows (the collection's scenario). */
  scenario: RouteScenario;
  task: string;
  gold: GoldSymbol[];
  /** Gold symbols that no candidate matched, each with how it relates to the target (MissClass). */
  missed: (GoldSymbol & { why: MissClass })[];
  rows: CandidateRow[];
  /** Every gold symbol is in the items retrieved before any follow-up round. */
  fullyCovered: boolean;
  /** The gate in force with its follow-up rounds (default maxRounds): confidence, whether every gold symbol ended in the items, how many did, the tokens, and the review label. */
  gate: { confidence: number; rounds: number; fullyCovered: boolean; goldInItems?: number; tokens?: number; review?: boolean; gateMs?: number };
  /** Gold symbols the bounded surface in force (D̂, MAX_SURFACE) leaves out, with how each relates to the target (Relation) and whether it was a candidate at all. */
  dhatMissed?: { qualified: string; why: Relation; candidate: boolean; also: Relation[] }[];
  /** Kind of the target's enclosing type and its simple name (for reading the misses). */
  owner: string;
  ms: number;
}

export interface CollectOptions {
  root: string; name: string; sourceRoot: string; test: number; validation: number; seed?: string; log: (m: string) => void;
  /** new (default): the body emptied; partial: its first half kept, gold = what is first used after the cut (tasks.ts scenarioTask). */
  scenario?: 'new' | 'partial';
  /** Candidates and D̂ only: no retrieval, so rows are never covered and the gate figures are empty (for iterating on routes). */
  candidatesOnly?: boolean;
  /** How masking treats the file's imports (tasks.ts ImportProtocol; default masked). */
  imports?: ImportProtocol;
}

/**
 * How a gold symbol no candidate reached relates to the target, checked in this order: the
 * enclosing type itself (or an outer one), a constructor or other member of it, a member of an
 * internal supertype of it, of a type of the signature, of a type of one of its fields, of a type
 * that is itself a candidate; else a constructor, a type or a member of a type out of all reach.
 */
export const MISS_CLASSES = ['own-type', 'own-constructor', 'own-member', 'inherited-member', 'signature-type-member', 'field-type-member',
  'candidate-type-member', 'constructor-elsewhere', 'type-elsewhere', 'member-elsewhere', 'not-indexed'] as const;
export type MissClass = (typeof MISS_CLASSES)[number];

/** The declaration a gold symbol names in the index (file, name line, declared name). */
function goldSymbol(index: WorkspaceIndex, sourceRoot: string, g: GoldSymbol): SymbolRef | undefined {
  const f = index.file(join(sourceRoot, g.file));
  if (!f) return undefined;
  const facts = f.facts;
  const i = facts.symbols.findIndex((s) => s.nameSpan.sl === g.maskedLine && (s.kind === 'constructor' ? (s.parent >= 0 ? facts.symbols[s.parent].name : s.name) : s.name) === g.name);
  return i < 0 ? undefined : { file: f, sym: facts.symbols[i], index: i } as SymbolRef;
}

/** Transitive internal supertypes of the given types, via the resolved extends/implements edges (the types themselves left out). */
function supertypeIds(index: WorkspaceIndex, ids: string[]): Set<string> {
  const supers = new Set<string>();
  const queue = [...ids];
  while (queue.length) for (const e of index.edgesFrom(queue.shift()!)) if ((e.kind === 'extends' || e.kind === 'implements') && !supers.has(e.to)) { supers.add(e.to); queue.push(e.to); }
  for (const id of ids) supers.delete(id);
  return supers;
}

/** The internal type ids a type text names (generic arguments included), resolved from the target's file. */
function typeIdsFrom(index: WorkspaceIndex, target: SymbolRef): (text: string | undefined) => string[] {
  const resolve = typeNameResolver(index.table, target.file.path, target.file.facts);
  return (text) => {
    const out: string[] = [];
    const walk = (p: ReturnType<typeof parseTypeText>) => { if (!p) return; const t = resolve(p.name, target.index); if (t && t !== 'external') out.push((t as TypeInfo).id); p.args.forEach(walk); };
    if (text) walk(parseTypeText(text));
    return out;
  };
}

export function missClassOf(index: WorkspaceIndex, target: SymbolRef, sourceRoot: string, g: GoldSymbol, candidates: Set<string>): MissClass {
  const r = goldSymbol(index, sourceRoot, g);
  if (!r) return 'not-indexed';
  const facts = target.file.facts;
  const outer: string[] = [];
  for (let i = target.sym.parent; i >= 0; i = facts.symbols[i].parent) if (isTypeKind(facts.symbols[i].kind)) outer.push(facts.symbols[i].id);
  if (isTypeKind(r.sym.kind)) return outer.includes(r.sym.id) ? 'own-type' : 'type-elsewhere';
  const ownerId = r.sym.parent >= 0 ? r.file.facts.symbols[r.sym.parent].id : '';
  if (outer.includes(ownerId)) return r.sym.kind === 'constructor' ? 'own-constructor' : 'own-member';
  if (supertypeIds(index, outer).has(ownerId)) return 'inherited-member';
  const typesOf = typeIdsFrom(index, target);
  const sig = [...(target.sym.params ?? []).map((p) => p.type), target.sym.returnType].flatMap(typesOf);
  if (sig.includes(ownerId)) return 'signature-type-member';
  const own = outer.length ? index.table.type(outer[0]) : undefined;
  const fieldTypes = own ? [...own.members.values()].flat().map((i) => own.facts.symbols[i]).filter((m) => m.kind === 'field').flatMap((m) => typesOf(m.type)) : [];
  if (fieldTypes.includes(ownerId)) return 'field-type-member';
  if (candidates.has(ownerId)) return 'candidate-type-member';
  return r.sym.kind === 'constructor' ? 'constructor-elsewhere' : 'member-elsewhere';
}

/**
 * How a gold symbol the bounded surface misses relates to the target method, for choosing routes
 * (the first that holds, in this order; `also` lists every one that holds):
 * - javadoc-mention: its declared name is a word of the target's Javadoc;
 * - signature-type / signature-type-member: a type of the signature (parameters, return, throws), or a member of one (or of a supertype of one);
 * - contract-impl-use: used by another implementation of a method the target overrides (any
 *   subtype, at any depth, of the type declaring the overridden method);
 * - namesake-use: used by a same-name method of another type;
 * - alike-use: used by a member of the class whose name shares word parts with the target's (Jaccard ≥ 0.3);
 * - own-field / own-method: a field, or another method or constructor, of the enclosing type;
 * - sibling-use: used by another member of the enclosing type;
 * - then missClassOf's own classes (inherited-member, field-type-member, candidate-type-member, …-elsewhere).
 */
export const RELATIONS = ['javadoc-mention', 'signature-type', 'signature-type-member', 'contract-impl-use', 'namesake-use', 'alike-use', 'own-field', 'own-method', 'sibling-use',
  ...MISS_CLASSES.filter((c) => c !== 'own-member' && c !== 'own-constructor' && c !== 'own-type' && c !== 'signature-type-member'), 'own-type'] as const;
export type Relation = (typeof RELATIONS)[number] | MissClass;

const wordsOf = (name: string) => new Set(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean));

export function relationsOf(index: WorkspaceIndex, target: SymbolRef, sourceRoot: string, g: GoldSymbol, candidates: Set<string>): Relation[] {
  const out: Relation[] = [];
  const r = goldSymbol(index, sourceRoot, g);
  const base = missClassOf(index, target, sourceRoot, g, candidates);
  if (!r) return ['not-indexed'];
  const id = r.sym.id;
  const sym = target.sym;
  const facts = target.file.facts;
  const ownIdx = sym.parent;
  const own = ownIdx >= 0 ? index.table.type(facts.symbols[ownIdx].id) : undefined;
  const uses = (mid: string) => index.edgesFrom(mid).some((e) => e.to === id);
  if (sym.javadoc && new RegExp(`\\b${g.name.replace(/\$/g, '\\$')}\\b`).test(sym.javadoc)) out.push('javadoc-mention');
  const typeIds = typeIdsFrom(index, target);
  const supersOf = (tid: string): string[] => [...supertypeIds(index, [tid])];
  const sig = [...(sym.params ?? []).map((p) => p.type), sym.returnType, ...(sym.throws ?? [])].flatMap(typeIds);
  const sigAll = new Set(sig.flatMap((t) => [t, ...supersOf(t)]));
  const ownerId = r.sym.parent >= 0 ? r.file.facts.symbols[r.sym.parent].id : '';
  if (sig.includes(id)) out.push('signature-type');
  if (ownerId && sigAll.has(ownerId)) out.push('signature-type-member');
  if (own && sym.kind === 'method') {
    const arity = sym.params?.length ?? 0;
    const impls = new Set<string>();
    for (const st of supersOf(own.id)) {
      const t = index.table.type(st);
      if (!t || !(t.members.get(sym.name) ?? []).some((i) => (t.facts.symbols[i].params?.length ?? 0) === arity)) continue;
      const seen = new Set<string>([st]); const q = [st];
      while (q.length && seen.size < 200) for (const sub of directSubtypesOf(index, q.shift()!)) {
        if (seen.has(sub)) continue;
        seen.add(sub); q.push(sub);
        const tt = index.table.type(sub);
        for (const i of tt?.members.get(sym.name) ?? []) { const m = tt!.facts.symbols[i]; if (m.id !== sym.id && (m.params?.length ?? 0) === arity) impls.add(m.id); }
      }
    }
    if ([...impls].some(uses)) out.push('contract-impl-use');
    const namesakes = (declarationsByName(index).get(sym.name) ?? []).filter((m) => m !== sym.id && !impls.has(m) && index.symbol(m)?.sym.kind === 'method');
    if (namesakes.some(uses)) out.push('namesake-use');
  }
  if (own) {
    const mine = wordsOf(sym.name);
    let alike = false, sibling = false;
    for (const [, idxs] of own.members) for (const i of idxs) {
      const m = own.facts.symbols[i];
      if (m.id === sym.id || m.kind === 'field' || m.kind === 'enumConstant' || !uses(m.id)) continue;
      sibling = true;
      const theirs = wordsOf(m.name);
      const both = [...mine].filter((w) => theirs.has(w)).length;
      if (both / (mine.size + theirs.size - both) >= 0.3) alike = true;
    }
    if (alike) out.push('alike-use');
    if (ownerId === own.id) out.push(r.sym.kind === 'field' || r.sym.kind === 'enumConstant' ? 'own-field' : 'own-method');
    if (sibling) out.push('sibling-use');
  }
  if (base !== 'own-member' && base !== 'own-constructor') out.push(base);
  return out.length ? out : [base];
}

/** A candidate is gold when it is declared on the gold's (masked) name line of the gold's file, under the gold's name. */
function goldOf(gold: GoldSymbol[], rel: string | undefined, line: number, name: string): GoldSymbol | undefined {
  return gold.find((g) => g.file === rel && g.maskedLine === line && g.name === name);
}

export async function collectCorpus(o: CollectOptions): Promise<TaskRows[]> {
  const oracle = await loadOracle(o.root, o.sourceRoot);
  const tasks = sampleTasks(oracle, { test: o.test, validation: o.validation, seed: o.seed }).filter((t) => t.split === 'validation');
  const indexer = new Indexer({ cacheDir: null });
  await indexer.addFolder(o.sourceRoot);
  o.log(`${o.name}: ${tasks.length} validation tasks, ${indexer.index.stats().files} files`);
  const out: TaskRows[] = [];
  for (const task of tasks) {
    const r = await collectTask(indexer, o, task);
    if (r) out.push(r);
  }
  indexer.removeFolder(o.sourceRoot);
  return out;
}

async function collectTask(indexer: Indexer, o: CollectOptions, task: Task): Promise<TaskRows | undefined> {
  const path = join(o.sourceRoot, task.file);
  const original = readFileSync(path, 'utf8');
  let st: ScenarioTask;
  try { st = scenarioTask(original, task, o.scenario ?? 'new', o.imports); } catch { return undefined; }
  if (!st.gold.length) return undefined;
  const masked = st.text;
  await indexer.setDocument(path, masked);
  try {
    // Retrieval first, as in the server: the gate runs after the pipeline has built its per-version tables.
    const result = o.candidatesOnly ? { items: [] as ContextItem[] } : await retrieveAt(indexer, { textDocument: { uri: pathToFileURL(path).href }, position: st.cursor, budgetTokens: 4000, mode: 'rcl', maxRounds: 0 }, defaultSettings());
    const ref = indexer.index.enclosingSymbol(path, st.cursor.line, st.cursor.character);
    if (!ref) return undefined;
    // The body and its brace as the gate reads them (sufficiency.ts bodyOf).
    const written = bodyOf(masked, ref.sym.span);
    const body = written?.text;
    const bodyStart = written?.brace;
    const t0 = performance.now();
    const cands = surfaceCandidates(indexer.index, ref, body, bodyStart);
    const ms = performance.now() - t0;
    const entries = new Map(dependencySurface(indexer.index, ref, body, { max: Infinity, scenario: routeScenarioOf(o.scenario), bodyStart }).map((e) => [e.symbol, e]));
    const items: ContextItem[] = result.items;
    const covered = new Set(markCovered([...entries.values()], items).filter((e) => e.covered).map((e) => e.symbol));
    const matched = new Set<GoldSymbol>();
    const rows: CandidateRow[] = cands.map((c) => {
      const e = entries.get(c.symbol)!;
      const name = declName(indexer, c.symbol);
      const g = goldOf(st.gold, e.uri ? relPathOfUri(e.uri, o.sourceRoot) : undefined, e.line ?? -1, name);
      if (g) matched.add(g);
      return { symbol: c.symbol, reasons: c.reasons, gold: !!g, covered: covered.has(c.symbol), novelty: e.novelty };
    });
    const rels = items.map((it) => relPathOfUri(it.uri, o.sourceRoot));
    const fullyCovered = st.gold.every((g) => items.some((it, i) => itemHolds(it, rels[i], g)));
    // The real gate, follow-up rounds included (what the retrieval benchmark scores).
    const gated = o.candidatesOnly ? { items: [] as ContextItem[], confidence: NaN, rounds: 0, tokens: 0, review: undefined, timingsMs: undefined } : await retrieveAt(indexer, { textDocument: { uri: pathToFileURL(path).href }, position: st.cursor, budgetTokens: 4000, mode: 'rcl' }, defaultSettings());
    const gatedRels = gated.items.map((it) => relPathOfUri(it.uri, o.sourceRoot));
    const coveredAfter = new Set(markCovered([...entries.values()], gated.items).filter((e) => e.covered).map((e) => e.symbol));
    for (const r of rows) r.coveredAfter = coveredAfter.has(r.symbol);
    const goldInItems = st.gold.filter((g) => gated.items.some((it, i) => itemHolds(it, gatedRels[i], g))).length;
    const gate = { confidence: gated.confidence, rounds: gated.rounds, fullyCovered: goldInItems === st.gold.length, goldInItems, tokens: gated.tokens, review: gated.review, gateMs: gated.timingsMs?.gate };
    const facts = ref.file.facts;
    const owner = ref.sym.parent >= 0 ? `${facts.symbols[ref.sym.parent].kind} ${facts.symbols[ref.sym.parent].name}` : '-';
    const candidateIds = new Set(cands.map((c) => c.symbol));
    const missed = st.gold.filter((g) => !matched.has(g)).map((g) => ({ ...g, why: missClassOf(indexer.index, ref, o.sourceRoot, g, candidateIds) }));
    // D̂ as the gate bounds it (MAX_SURFACE estimated entries under the table in force): which gold it leaves out, and how each relates to the target.
    const bounded = new Set(dependencySurface(indexer.index, ref, body, { scenario: routeScenarioOf(o.scenario), bodyStart }).map((e) => e.symbol));
    const goldRow = new Map<GoldSymbol, string>();
    for (const r of rows) if (r.gold) { const g = goldOf(st.gold, relPathOfUri(entries.get(r.symbol)!.uri ?? '', o.sourceRoot), entries.get(r.symbol)!.line ?? -1, declName(indexer, r.symbol)); if (g) goldRow.set(g, r.symbol); }
    const dhatMissed = st.gold.filter((g) => !bounded.has(goldRow.get(g) ?? '')).map((g) => {
      const also = relationsOf(indexer.index, ref, o.sourceRoot, g, candidateIds);
      return { qualified: g.qualified, why: also[0], candidate: goldRow.has(g), also };
    });
    return { corpus: o.name, scenario: routeScenarioOf(o.scenario), task: task.id, gold: st.gold, missed, rows, fullyCovered, gate, owner, ms, dhatMissed };
  } finally {
    await indexer.closeDocument(path);
  }
}

export function routeScenarioOf(scenario: CollectOptions['scenario']): RouteScenario {
  return scenario === 'partial' ? 'partial-body' : 'new-body';
}

/** The name written at a symbol's declaration (a constructor's is its class name). */
function declName(indexer: Indexer, id: string): string {
  const r = indexer.index.symbol(id)!;
  if (r.sym.kind !== 'constructor') return r.sym.name;
  return r.sym.parent >= 0 ? r.file.facts.symbols[r.sym.parent].name : r.sym.name;
}
