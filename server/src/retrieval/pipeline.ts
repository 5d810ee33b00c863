// The retrieval pipeline (The Needle and the Noise §4): (1) query → (2) lexical, API-description, graph and similar
// recall → (3) merge → (4) identifier-weighted BM25 → (5) statement-level dependence re-rank of
// the top-k → (6) goal-scoped line pruning → (7) hard token cap → vetting → the gate.
// Every stage is deterministic; ties are broken by id/path/line. Timings are the only variance.
//
// Usage: build a PipelineRequest (request.ts: index, roots, textOf, openPaths, path, position,
// budgetTokens, mode, maxRounds, threshold, isCancelled?) and `await retrieve(req, gate?)`.
// Items: the first is the cursor's member in its class context (source 'enclosing'); then one
// item per file-level type showing the selected declarations as signature + Javadoc first
// sentence (`symbol` = the type id, the extra `symbols` field lists every declaration shown);
// then config/doc chunks the task's terms hit. `result.repositories` names the folders recall used.

import type { ContextItem, ItemSource, RetrievalResult, SourceLine } from '../../../shared/protocol';
import type { FollowupOptions, GateHook, PipelineRequest, WeighedCandidate } from './request';
import { buildQuery, type Query } from './query';
import { lexicalRecall, type ConfigHit } from './recall/lexical';
import { descriptionRecall } from './recall/descriptions';
import { filePopularity, graphRecall } from './recall/graph';
import { similarChunks, similarRecall } from './recall/similar';
import { mergeCandidates, type Merged } from './merge';
import { rerank } from './rerank';
import { dependenceRerank, statementGraph } from './dependence';
import { enclosingContext, pruneEnclosing } from './prune';
import { compactIndent, joinShown, type ShownLine } from '../render/shownLines';
import type { Chunk } from './chunks';
import { countTokens, fitToBudget as capItems, TOKENIZER, totalTokens } from './cap';
import { chooseFolders } from './repos';
import { entryFor, indentUnit, linesOf, Packer, round, uriOf, groupOf, type Entry, type RenderedGroup } from './items';
import type { NeedleItem, SymbolRef } from './types';
import { splitIdentifier } from '../text/identifiers';
import { vetText } from '../vetting';
import { likeNamedUses, structuralItems, structuralTypes } from './structural';
import { packingFor } from './fitted';
import { checkedPacking, memberFeatures, needProbability, type Packing } from './memberModel';
import { judgeScenario, type ScenarioJudgement } from '../gate/scenario';

export class CancelledError extends Error {
  constructor() { super('retrieval cancelled'); this.name = 'CancelledError'; }
}

export type RetrievalResultWithRepos = RetrievalResult & { repositories?: string[] };

/** At most this many declarations are shown (beyond it, candidates are mostly noise). */
export const MAX_ENTRIES = 120;
/** Only the best-scored this many candidates are weighed by the member model (the rest score below every shown one). */
export const MAX_WEIGHED = 200;
/** Rank of the candidate whose score the member model's share of reference is taken of. */
export const REFERENCE_RANK = 3;
/** fixedK baseline: how many similar chunks, each followed by its one-hop callees. */
export const FIXED_K = 5;

const now = () => performance.now();

export async function retrieve(req: PipelineRequest, gate?: GateHook): Promise<RetrievalResultWithRepos> {
  const t0 = now();
  const timings: Record<string, number> = {};
  async function stage<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    // Yield to the event loop at every stage boundary, so a $/cancelRequest (or an edit) is seen.
    await new Promise<void>((r) => setImmediate(r));
    if (req.isCancelled?.()) throw new CancelledError();
    const s = now();
    const r = await fn();
    timings[name] = round((timings[name] ?? 0) + now() - s);
    return r;
  }
  const q = await stage('query', () => buildQuery(req));
  // Which body is being written decides which member model packs and how the gate judges.
  const scenario = await stage('query', () => scenarioOf(req, q));
  const folders = await stage('repositories', () => chooseFolders(req, q));
  let items: NeedleItem[];
  let candidates: WeighedCandidate[] = [];
  if (req.mode === 'similarity' || req.mode === 'fixedK') {
    items = await stage('similar', () => baselineItems(req, q, folders));
    items = await stage('cap', () => capItems(items, req.budgetTokens));
  } else if (req.mode === 'structural') {
    const enclosing = await stage('prune', () => enclosingItem(req, q, []));
    items = await stage('structural', () => structuralItems(req, q, enclosing, (ids) => itemsForSymbols(req, ids, 'followup', { doc: false }) as NeedleItem[]));
    items = await stage('cap', () => capItems(items, req.budgetTokens, enclosing ? 1 : 0));
  } else {
    const lexical = await stage('lexical', () => lexicalRecall(req, q, folders));
    const api = await stage('api', () => descriptionRecall(req.index, q, folders));
    const graph = await stage('graph', () => graphRecall(req, q, folders));
    const similar = await stage('similar', () => similarRecall(req, q, folders));
    let ranked = await stage('merge', () => mergeCandidates(req.index, q, [graph, lexical.candidates, api, similar]));
    ranked = await stage('rerank', () => rerank(ranked, q, req.index));
    ranked = await stage('dependence', async () => {
      if (!q.member) return ranked;
      const lines = linesOf(req, q.member.file.path);
      const start = q.member.sym.span.sl;
      const g = await statementGraph(lines.slice(start, q.member.sym.span.el + 1).join('\n'), req.position.line - start);
      return dependenceRerank(ranked, g);
    });
    req.observeRanked?.(ranked.map((c) => ({ id: c.id, path: c.ref.file.path, startLine: c.ref.sym.span.sl, nameLine: c.ref.sym.nameSpan.el, score: c.score })));
    const enclosing = await stage('prune', () => enclosingItem(req, q, ranked));
    // Packing decides on token upper bounds; the exact counts are enforced here (the hard cap).
    items = await stage('cap', () => {
      const packed = packRanked(req, ranked, enclosing, q, scenario);
      candidates = packed.candidates;
      return capItems(withConfig(req, packed.items, lexical.config), req.budgetTokens, enclosing ? 1 : 0);
    });
  }
  items = await stage('vet', () => vetItems(items));
  let verdict: Awaited<ReturnType<GateHook>> | undefined;
  if (gate && req.mode === 'rcl') {
    const target = q.target;
    verdict = await stage('gate', () => gate(req, target, items, { itemsForSymbols, fitToBudget, addedTokens: followupTokens }, { candidates, scenario }));
    items = capItems(verdict.items as NeedleItem[], req.budgetTokens, items.length && items[0].sources.includes('enclosing') ? 1 : 0);
  } else timings.gate = 0;
  if (req.isCancelled?.()) throw new CancelledError();
  timings.total = round(now() - t0);
  return {
    items: items.map(({ entries: _internal, ...item }) => item),
    tokens: totalTokens(items),
    tokenizer: TOKENIZER,
    coverage: verdict?.coverage ?? 0,
    novelty: verdict?.novelty ?? 0,
    confidence: verdict?.confidence ?? 0,
    threshold: verdict?.threshold ?? req.threshold,
    review: verdict?.review ?? false,
    reviewReasons: verdict?.reviewReasons ?? [],
    rounds: verdict?.rounds ?? 0,
    dependencySurface: verdict?.dependencySurface ?? [],
    uncertainty: verdict?.uncertainty ?? uncertaintyOf(items),
    timingsMs: timings as RetrievalResult['timingsMs'],
    repositories: folders,
    ...(verdict?.scenario ? { scenario: verdict.scenario, scenarioReason: verdict.scenarioReason, gateFeatures: verdict.gateFeatures } : {}),
    ...(req.explain ? { weighedCandidates: candidates.map((c) => ({ symbol: c.symbol, p: c.p })) } : {}),
  };
}

function uncertaintyOf(items: NeedleItem[]): { api: number; repository: number; similar: number } {
  // Share of shown tokens whose only support is a weaker signal (neutral 0 when nothing is shown).
  const total = totalTokens(items) || 1;
  const only = (s: ItemSource) => items.filter((i) => i.sources.length === 1 && i.sources[0] === s).reduce((a, i) => a + i.tokens, 0) / total;
  return { api: round(only('api')), repository: round(only('lexical')), similar: round(only('similar')) };
}

/** The cursor's own member (or type) context: always the first item. */
function enclosingItem(req: PipelineRequest, q: Query, ranked: Merged[]): NeedleItem | undefined {
  const ref = q.member ?? q.type;
  if (!ref) return undefined;
  const lines = linesOf(req, ref.file.path);
  const shown = pruneEnclosing(q, lines, req.position.line);
  if (!shown) return undefined;
  // Indented as the declaration groups are (items.ts), so the file's items merge into one layout.
  const unit = indentUnit(ref.file.facts, lines);
  const { text, sourceLines } = joinShown(shown.lines.map((s) => compactIndent(s, unit)));
  return {
    uri: uriOf(ref.file.path),
    range: { start: { line: shown.start, character: 0 }, end: { line: shown.end, character: (lines[shown.end] ?? '').length } },
    symbol: ref.sym.id,
    kind: ref.sym.kind,
    text,
    tokens: countTokens(text),
    score: round((ranked[0]?.score ?? 0) + 1),
    sources: ['enclosing'],
    untrusted: true,
    sourceLines,
    symbols: [ref.sym.id],
  };
}

/** The scenario of the request, from the cursor's file as the editor has it (gate/scenario.ts). */
function scenarioOf(req: PipelineRequest, q: Query): ScenarioJudgement {
  const text = q.target ? req.textOf(q.target.ref.file.path) : undefined;
  return judgeScenario(text, q.target, req.position, req.index.file(req.path)?.facts.hasErrors ?? false);
}

/**
 * Packs ranked candidates after the enclosing item by expected value: each candidate's
 * probability of being needed (memberModel.ts, under the scenario's model: fitted.ts packingFor)
 * is weighed against the tokens it adds, most probable first; it joins when p × value exceeds
 * them (a type not shown yet charges its header to its first member), and its Javadoc's first
 * sentence joins with it when p × docValue exceeds the tokens the sentence adds (its line, less
 * the `/** … *\/` it replaces): a summary buys no declaration, so it is priced on its own and
 * never keeps its declaration out. Within budget and MAX_ENTRIES.
 * The member's class context (its type's header and the fields it mentions) joins the type's
 * group, shown right after the member: in place in its class, never a copy of the header.
 */
function packRanked(req: PipelineRequest, ranked: Merged[], enclosing: NeedleItem | undefined, q: Query, scenario: ScenarioJudgement): { items: NeedleItem[]; candidates: WeighedCandidate[] } {
  let head = enclosing;
  if (head && head.tokens > req.budgetTokens) head = undefined;
  const member = head && q.member;
  const context = member ? enclosingContext(member, linesOf(req, member.file.path)).map((r) => entryFor(req, r, head!.score, ['enclosing'], false)) : [];
  // The context's tokens are reserved before any candidate, as the member's own are.
  const probe = new Packer(req, Number.MAX_SAFE_INTEGER, 0);
  probe.addAll(context);
  const packer = new Packer(req, req.budgetTokens, (head?.tokens ?? 0) + probe.total);
  const packing = checkedPacking(packingFor(scenario.scenario, req));
  const weighed = weighCandidates(req, ranked.slice(0, MAX_WEIGHED), q, packing);
  const shown = new Set<string>();
  for (const w of [...weighed].sort((a, b) => b.p - a.p || a.rank - b.rank)) {
    if (packer.count >= MAX_ENTRIES || w.p * packing.value < 1) break;
    const c = w.c;
    const withDoc = c.ref.sym.javadoc ? entryFor(req, c.ref, c.score, c.sources, true) : undefined;
    const docTokens = withDoc ? entryTokens(withDoc) - w.tokens : 0;
    if (withDoc && docTokens > 0 && w.p * packing.docValue > docTokens && packer.tryAdd(withDoc, (delta) => w.p * packing.value > delta - docTokens)) shown.add(c.id);
    else if (packer.tryAdd(w.entry, (delta) => w.p * packing.value > delta)) shown.add(c.id);
  }
  req.observeMembers?.(weighed.map((w) => ({ id: w.c.id, path: w.c.ref.file.path, startLine: w.c.ref.sym.span.sl, nameLine: w.c.ref.sym.nameSpan.el, x: w.x, p: w.p, shown: shown.has(w.c.id) })));
  packer.addAll(context);
  packedGroups.set(req, packer.renderedGroups());
  const candidates = weighed.map((w) => ({ symbol: w.c.id, uri: uriOf(w.c.ref.file.path), line: w.c.ref.sym.nameSpan.sl, p: round(w.p) }));
  const packed = packer.items();
  if (!head) return { items: packed, candidates };
  const own = context.length ? packed.findIndex((it) => it.symbol === context[0].group) : -1;
  if (own < 0) return { items: [head, ...packed], candidates };
  return { items: [head, packed[own], ...packed.slice(0, own), ...packed.slice(own + 1)], candidates };
}

/** Tokens of an entry's own lines, counted alone. */
const entryTokens = (e: Entry): number => countTokens(e.shown.lines.map((l) => l.text).join('\n'));

interface Weighed { c: Merged; rank: number; x: number[]; p: number; entry: Entry; tokens: number }

/** The member model's inputs and P(needed) of each candidate, with its signature-only entry. */
export function weighCandidates(req: PipelineRequest, ranked: Merged[], q: Query, packing: Packing = packingFor('new-body', req)): Weighed[] {
  const reference = ranked[Math.min(REFERENCE_RANK, ranked.length) - 1]?.score ?? 0;
  const self = q.member ?? q.type;
  const cursorGroup = self ? groupOf(self) : undefined;
  const perGroup = new Map<string, number>();
  const groupBest = new Map<string, number>();
  for (const c of ranked) {
    perGroup.set(c.group, (perGroup.get(c.group) ?? 0) + 1);
    groupBest.set(c.group, Math.max(groupBest.get(c.group) ?? 0, c.score));
  }
  const ids = new Set(ranked.map((c) => c.id));
  const top = Math.max(0, ranked[0]?.score ?? 0);
  const queryWords = new Set(q.words);
  const seenInGroup = new Map<string, number>();
  const likeNamedIds = likeNamedUses(req, q);
  const structural = new Set(structuralTypes(req, q, likeNamedIds).map(groupOf));
  const likeNamed = new Set(likeNamedIds);
  const usesInFile = filePopularity(req, req.path);
  const siblingCounts = new Map<SymbolRef['file'], Map<number, number>>();
  const siblingsOf = (ref: SymbolRef): number => {
    let counts = siblingCounts.get(ref.file);
    if (!counts) {
      counts = new Map();
      for (const s of ref.file.facts.symbols) counts.set(s.parent, (counts.get(s.parent) ?? 0) + 1);
      siblingCounts.set(ref.file, counts);
    }
    return counts.get(ref.sym.parent) ?? 1;
  };
  return ranked.map((c, rank) => {
    const entry = entryFor(req, c.ref, c.score, c.sources, false);
    const tokens = entryTokens(entry);
    const groupRank = seenInGroup.get(c.group) ?? 0;
    seenInGroup.set(c.group, groupRank + 1);
    const parts = splitIdentifier(c.ref.sym.name);
    const x = memberFeatures(c, {
      rank, reference, cursorPath: req.path, cursorGroup, tokens, groupCandidates: perGroup.get(c.group) ?? 0,
      top, groupBest: groupBest.get(c.group), groupRank, typeRanked: c.group !== c.id && ids.has(c.group), siblings: siblingsOf(c.ref),
      nameInQuery: parts.length ? parts.filter((w) => queryWords.has(w)).length / parts.length : 0,
      structuralType: structural.has(c.group), usedByLikeNamed: likeNamed.has(c.id),
      usesInFile: usesInFile.get(c.id),
    });
    return { c, rank, x, p: req.neededOverride?.(c.id) ?? needProbability(x, packing), entry, tokens };
  });
}

/** Config/doc chunks the task's terms hit (properties, YAML, OpenAPI, XML), added while they fit. */
function withConfig(req: PipelineRequest, items: NeedleItem[], config: ConfigHit[]): NeedleItem[] {
  let total = totalTokens(items);
  const out = [...items];
  for (const h of config) {
    const lines = linesOf(req, h.chunk.path);
    const { text, sourceLines } = chunkShown(h.chunk.header ? h.chunk.header.split('\n') : [], h.chunk);
    const tokens = countTokens(text);
    if (total + tokens > req.budgetTokens) continue;
    total += tokens;
    out.push({
      uri: uriOf(h.chunk.path),
      range: { start: { line: h.chunk.startLine, character: 0 }, end: { line: h.chunk.endLine, character: (lines[h.chunk.endLine] ?? '').length } },
      symbol: h.chunk.symbol, kind: h.chunk.kind, text, tokens, score: round(h.score), sources: ['lexical'], untrusted: true, sourceLines,
    });
  }
  return out;
}

/** A chunk's lines: its header (written, standing for the chunk's first line), then its own lines verbatim. */
function chunkShown(header: string[], chunk: Chunk): { text: string; sourceLines: SourceLine[] } {
  const shown: ShownLine[] = header.map((text) => ({ text, at: { line: chunk.startLine, written: 'header' } }));
  chunk.text.split('\n').forEach((text, i) => shown.push({ text, at: { line: chunk.startLine + i } }));
  return joinShown(shown);
}

/** The paper's baselines: `similarity` (BM25 over code chunks, nothing else) and `fixedK` (plus one-hop callees). */
function baselineItems(req: PipelineRequest, q: Query, folders: string[]): NeedleItem[] {
  const hits = similarChunks(req, q, folders, 40);
  const items: NeedleItem[] = hits.map((h) => {
    const { text, sourceLines } = chunkShown((h.chunk.header ?? '').split('\n').filter(Boolean).map((l) => (l.startsWith('//') ? l : '// ' + l)), h.chunk);
    const lines = linesOf(req, h.chunk.path);
    return {
      uri: uriOf(h.chunk.path),
      range: { start: { line: h.chunk.startLine, character: 0 }, end: { line: h.chunk.endLine, character: (lines[h.chunk.endLine] ?? '').length } },
      symbol: h.chunk.symbol, kind: h.chunk.kind, text, tokens: countTokens(text), score: round(h.score),
      sources: ['similar'], untrusted: true, sourceLines, symbols: h.chunk.symbol ? [h.chunk.symbol] : [],
    };
  });
  if (req.mode !== 'fixedK') return items;
  const top = items.slice(0, FIXED_K);
  const out: NeedleItem[] = [];
  const seen = new Set<string>();
  for (const it of top) {
    out.push(it);
    const ids: string[] = [];
    for (const e of it.symbol ? req.index.edgesFrom(it.symbol) : []) {
      if ((e.kind === 'call' || e.kind === 'ctorCall' || e.kind === 'new' || e.kind === 'methodRef') && !seen.has(e.to)) { seen.add(e.to); ids.push(e.to); }
    }
    for (const c of itemsForSymbols(req, ids, 'followup')) out.push({ ...c, sources: ['graph'], score: round(it.score * 0.9) } as NeedleItem);
  }
  return out;
}

function vetItems(items: NeedleItem[]): NeedleItem[] {
  return items.map((it) => {
    const v = vetText(it.text);
    if (v.text === it.text && !v.flags.length) return it;
    const text = v.text;
    return { ...it, text, tokens: text === it.text ? it.tokens : countTokens(text), flags: [...new Set([...(it.flags ?? []), ...v.flags])].sort() };
  });
}

/**
 * Items showing the declarations (signature + Javadoc first sentence) of specific symbols,
 * grouped per owning type; the gate's follow-up rounds and the fixedK baseline call it. Unknown
 * ids are skipped.
 */
export function itemsForSymbols(req: PipelineRequest, ids: string[], source: 'followup', options: FollowupOptions = {}): ContextItem[] {
  const packer = new Packer(req, Number.MAX_SAFE_INTEGER, 0);
  const refs = [...new Set(ids)].map((id) => req.index.symbol(id)).filter((r): r is NonNullable<typeof r> => !!r);
  refs.sort((a, b) => (groupOf(a) < groupOf(b) ? -1 : groupOf(a) > groupOf(b) ? 1 : a.sym.span.sl - b.sym.span.sl));
  const shown = new Map<string, NeedleItem>();
  for (const it of (options.into ?? []) as NeedleItem[]) {
    if (it.symbol && it.entries && !shown.has(it.symbol)) shown.set(it.symbol, it);
  }
  const seeded = new Set<string>();
  // Group by group (refs are sorted by group), so each is rendered once, in the order the refs give.
  let entries: Entry[] = [];
  let group: string | undefined;
  for (const r of refs) {
    if (groupOf(r) !== group) { packer.addAll(entries); entries = []; group = groupOf(r); }
    const old = shown.get(group);
    if (old && !seeded.has(old.symbol!)) {
      seeded.add(old.symbol!);
      entries.push(...shownGroupInto(req, packer, old));
    }
    entries.push(entryFor(req, r, 0, [source], options.doc ?? true));
  }
  packer.addAll(entries);
  return vetItems(packer.items());
}

/** Per item set the gate prices against: each touched type group's packer, seeded with the group as shown. */
const seededPackers = new WeakMap<ContextItem[], Map<string, Packer>>();
/** Per request, the groups packing rendered (packRanked): the gate's pricing starts from them instead of rendering them again. */
const packedGroups = new WeakMap<PipelineRequest, ReadonlyMap<string, RenderedGroup>>();

/**
 * Puts the group of a shown item into `packer`: the group packing rendered, while the item still
 * shows it as packed (no follow-up joined it), and then returns nothing to add; otherwise the
 * entries that render it again. An adopted group's entries keep packing's scores and sources; the
 * item's are their maximum and union, so the items rendered from either are the same.
 */
function shownGroupInto(req: PipelineRequest, packer: Packer, item: NeedleItem): Entry[] {
  const g = packedGroups.get(req)?.get(item.symbol!);
  if (g && packer.adopt(g, item.entries!)) return [];
  const entries: Entry[] = [];
  for (const e of item.entries!) {
    const ref = req.index.symbol(e.id);
    if (ref) entries.push(entryFor(req, ref, item.score, item.sources, e.doc));
  }
  return entries;
}

/**
 * Tokens the follow-up declarations of `ids` (signatures only, as the gate fetches them) would add
 * to `into`: what packing charges a candidate (Packer's count: its lines, the gap marker it
 * splits, a new group's header), against the groups they join as shown plus what this item set's
 * earlier accepted entries added. `accept` sees the price; when it agrees the entries count as
 * shown for the next price (one round's plan is priced as it grows). Not vetted, not rendered
 * into items: a price, computed per entry the gate weighs.
 */
export function followupTokens(req: PipelineRequest, ids: string[], into: ContextItem[], accept: (tokens: number) => boolean = () => false): number {
  const refs = [...new Set(ids)].map((id) => req.index.symbol(id)).filter((r): r is NonNullable<typeof r> => !!r);
  let perGroup = seededPackers.get(into);
  if (!perGroup) seededPackers.set(into, (perGroup = new Map()));
  const priced: { seeded: Packer; mine: Entry[] }[] = [];
  let added = 0;
  for (const group of [...new Set(refs.map(groupOf))].sort()) {
    let seeded = perGroup.get(group);
    if (!seeded) {
      seeded = new Packer(req, Number.MAX_SAFE_INTEGER, 0);
      const shown = (into as NeedleItem[]).find((it) => it.symbol === group && it.entries);
      if (shown) seeded.addAll(shownGroupInto(req, seeded, shown));
      perGroup.set(group, seeded);
    }
    const mine = refs.filter((r) => groupOf(r) === group && !seeded!.has(r.sym.id)).map((r) => entryFor(req, r, 0, ['followup'], false));
    if (!mine.length) continue;
    priced.push({ seeded, mine });
    if (mine.length === 1) seeded.tryAdd(mine[0], (delta) => { added += delta; return false; });
    else {
      const trial = seeded.clone();
      const before = trial.total;
      trial.addAll(mine);
      added += trial.total - before;
    }
  }
  if (priced.length && accept(added)) for (const { seeded, mine } of priced) seeded.addAll(mine);
  return added;
}

export function fitToBudget(items: ContextItem[], budget: number): ContextItem[] {
  return capItems(items, budget, items.length && items[0].sources.includes('enclosing') ? 1 : 0);
}

