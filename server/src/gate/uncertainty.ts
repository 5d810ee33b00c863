// Evidence uncertainty (OpenCoder, "Uncertainty-Aware Framework", eqs. 4-7): every retrieved item
// belongs to one evidence source m - API knowledge, repository context or similar code - and gets
// an uncertainty u ∈ [0,1] saying how likely it is irrelevant, incomplete or incompatible with the
// target. Items are scored γ = r · w_m · max(0, 1 − α·u) (α = 0.5), the top 70 % per source are
// kept, merged and deduplicated; the per-source mean u is the uncertainty trace the result
// reports. Target-aware API refinement removes the target itself, redundant overloads and APIs
// whose types cannot meet the target's.

import type { ContextItem, SurfaceEntry } from '../../../shared/protocol';
import { parseTypeText } from '../java/resolve';
import { isTypeKind } from '../java/symbols';
import type { SymbolRef, WorkspaceIndex } from '../index/workspaceIndex';
import type { Target } from '../retrieval/request';
import { itemCovers } from './coverage';

export type EvidenceSource = 'api' | 'repository' | 'similar';
export interface UncertaintyTrace { api: number; repository: number; similar: number }

/** OpenCoder eq. 6: α, the strength of the uncertainty discount. */
export const ALPHA = 0.5;
/** OpenCoder: share of candidates kept per source, ranked by γ. */
export const KEEP_SHARE = 0.7;
/**
 * Source-intent weights w_m before normalisation (they are normalised to sum 1). OpenCoder finds
 * no universal source ranking (Finding 1), so API and repository evidence weigh the same; similar
 * code is discounted a little because it is the likeliest to be related but incompatible.
 */
export const SOURCE_WEIGHTS: Readonly<Record<EvidenceSource, number>> = { api: 1, repository: 1, similar: 0.8 };
/** u components. Irrelevance is graded by the heaviest surface entry the item shows. */
export const U_IRRELEVANT = 0.5;
/** The item shows a pruned/elided body or misses the name of the symbol it claims to show. */
export const U_INCOMPLETE = 0.25;
/** A callable whose signature types cannot meet the target's types. */
export const U_INCOMPATIBLE = 0.35;
/** Uncertainty reported for a source that contributed no item: nothing supports it. */
export const U_ABSENT_SOURCE = 1;

export interface UncertaintyContext {
  index?: WorkspaceIndex;
  target?: Target;
  /** The dependency surface D̂(q); relevance is judged against it. */
  surface: SurfaceEntry[];
  sourceWeights?: Partial<Record<EvidenceSource, number>>;
}

export interface ItemUncertainty { u: number; irrelevant: number; incomplete: number; incompatible: number }
export interface RankedEvidence { item: ContextItem; source: EvidenceSource; u: number; gamma: number }

const CALLABLE = new Set(['method', 'constructor']);
const ELISION = /…|\/\/\s*\.\.\.|\/\*\s*\.\.\.\s*\*\/|\{\s*\.\.\.\s*\}/;
const ELISION_FLAGS = new Set(['elided', 'pruned', 'truncated', 'body-elided']);

function symbolKind(item: ContextItem, index?: WorkspaceIndex): string | undefined {
  if (item.kind) return item.kind;
  return item.symbol ? index?.symbol(item.symbol)?.sym.kind : undefined;
}

/** The evidence source of an item: API = 'api'/'graph' items showing a callable declaration. */
export function sourceClassOf(item: ContextItem, index?: WorkspaceIndex): EvidenceSource {
  const s = new Set(item.sources);
  if ((s.has('api') || s.has('graph')) && CALLABLE.has(symbolKind(item, index) ?? '')) return 'api';
  if (s.has('enclosing') || s.has('lexical') || s.has('followup') || s.has('api') || s.has('graph')) return 'repository';
  if (s.has('similar')) return 'similar';
  return 'repository';
}

/** Simple names of the types in a type text (generic arguments included, arrays erased). */
function typeNames(text: string | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  const walk = (p: ReturnType<typeof parseTypeText>) => {
    if (!p) return;
    out.push(p.name.split('.').pop()!);
    for (const a of p.args) walk(a);
  };
  walk(parseTypeText(text));
  return out;
}

/** Types every signature shares: they say nothing about compatibility. */
const TRIVIAL_TYPES = new Set(['void', 'Object', 'T', 'E', 'K', 'V', 'R', 'String', 'CharSequence', 'int', 'long', 'short', 'byte', 'char',
  'boolean', 'float', 'double', 'Integer', 'Long', 'Short', 'Byte', 'Character', 'Boolean', 'Float', 'Double', 'Number']);

/** Type names the target works with: its signature, its class and fields, the surface's types. */
export function targetTypeNames(ctx: UncertaintyContext): Set<string> {
  const names = new Set<string>();
  const ref = ctx.target?.ref;
  if (ref) {
    const s = ref.sym;
    for (const p of s.params ?? []) typeNames(p.type).forEach((n) => names.add(n));
    typeNames(s.returnType).forEach((n) => names.add(n));
    const owner = ctx.target?.owner ?? ownerOf(ref);
    if (owner) {
      names.add(owner.sym.name);
      for (const m of owner.file.facts.symbols) if (owner.file.facts.symbols[m.parent] === owner.sym && m.kind === 'field') typeNames(m.type).forEach((n) => names.add(n));
    }
  }
  for (const e of ctx.surface) if (isTypeKind(e.kind)) names.add(e.symbol.split(/[.$]/).pop()!);
  for (const t of TRIVIAL_TYPES) names.delete(t);
  return names;
}

function ownerOf(ref: SymbolRef): SymbolRef | undefined {
  let i = ref.sym.parent;
  const syms = ref.file.facts.symbols;
  while (i >= 0 && !isTypeKind(syms[i].kind)) i = syms[i].parent;
  return i >= 0 ? { file: ref.file, index: i, sym: syms[i] } : undefined;
}

/**
 * Whether a callable's types can meet the target's: it is in the surface, or its declaring type,
 * or a parameter/return type, is one the target works with. Unknown callables are compatible.
 */
export function compatibleWithTarget(symbolId: string, ctx: UncertaintyContext, names = targetTypeNames(ctx)): boolean {
  if (ctx.surface.some((e) => e.symbol === symbolId)) return true;
  const r = ctx.index?.symbol(symbolId);
  if (!r || !CALLABLE.has(r.sym.kind)) return true;
  const owner = ownerOf(r);
  if (owner && names.has(owner.sym.name)) return true;
  const sig = [...(r.sym.params ?? []).flatMap((p) => typeNames(p.type)), ...typeNames(r.sym.returnType)].filter((n) => !TRIVIAL_TYPES.has(n));
  if (sig.length === 0) return true;
  return sig.some((n) => names.has(n));
}

export function itemUncertainty(item: ContextItem, ctx: UncertaintyContext, names = targetTypeNames(ctx)): ItemUncertainty {
  let relevance = 0;
  for (const e of ctx.surface) if (e.weight > relevance && itemCovers(item, e)) relevance = e.weight;
  if (ctx.surface.length === 0) relevance = 0.5;
  const irrelevant = U_IRRELEVANT * (1 - Math.min(1, relevance));
  let incomplete = 0;
  if (ELISION.test(item.text) || (item.flags ?? []).some((f) => ELISION_FLAGS.has(f))) incomplete = U_INCOMPLETE;
  else if (item.symbol && item.symbol.includes('#')) {
    const name = item.symbol.replace(/\(.*$/, '').split('#')[1];
    if (name !== '<init>' && !item.text.includes(name)) incomplete = U_INCOMPLETE;
  }
  const incompatible = item.symbol && !compatibleWithTarget(item.symbol, ctx, names) ? U_INCOMPATIBLE : 0;
  return { u: Math.min(1, irrelevant + incomplete + incompatible), irrelevant, incomplete, incompatible };
}

function normalisedWeights(w?: Partial<Record<EvidenceSource, number>>): Record<EvidenceSource, number> {
  const raw = { ...SOURCE_WEIGHTS, ...(w ?? {}) };
  const sum = raw.api + raw.repository + raw.similar;
  return sum > 0 ? { api: raw.api / sum, repository: raw.repository / sum, similar: raw.similar / sum } : { api: 1 / 3, repository: 1 / 3, similar: 1 / 3 };
}

/** Per-source mean uncertainty (OpenCoder eq. 5); a source without items reports U_ABSENT_SOURCE. */
export function uncertaintyTrace(items: ContextItem[], ctx: UncertaintyContext): UncertaintyTrace {
  const names = targetTypeNames(ctx);
  const sum: Record<EvidenceSource, number> = { api: 0, repository: 0, similar: 0 };
  const n: Record<EvidenceSource, number> = { api: 0, repository: 0, similar: 0 };
  for (const it of items) {
    const s = sourceClassOf(it, ctx.index);
    sum[s] += itemUncertainty(it, ctx, names).u;
    n[s]++;
  }
  const avg = (s: EvidenceSource) => (n[s] ? round4(sum[s] / n[s]) : U_ABSENT_SOURCE);
  return { api: avg('api'), repository: avg('repository'), similar: avg('similar') };
}

export interface FuseOptions { alpha?: number; keepShare?: number; k?: number }

/**
 * OpenCoder eqs. 6-7: γ-score every item (r = score normalised by the largest score), keep the top
 * `keepShare` per source (at least one), merge, deduplicate (same symbol, or same file with
 * overlapping lines: the higher γ wins) and rank by γ; `k` caps the result. Deterministic: ties
 * by uri, then start line.
 */
export function fuseEvidence(items: ContextItem[], ctx: UncertaintyContext, options: FuseOptions = {}): { items: ContextItem[]; ranked: RankedEvidence[]; trace: UncertaintyTrace } {
  const alpha = options.alpha ?? ALPHA;
  const keep = options.keepShare ?? KEEP_SHARE;
  const w = normalisedWeights(ctx.sourceWeights);
  const names = targetTypeNames(ctx);
  const maxScore = Math.max(0, ...items.map((i) => (Number.isFinite(i.score) ? i.score : 0)));
  const bySource = new Map<EvidenceSource, RankedEvidence[]>();
  for (const item of items) {
    const source = sourceClassOf(item, ctx.index);
    const u = itemUncertainty(item, ctx, names).u;
    const r = maxScore > 0 ? Math.max(0, item.score) / maxScore : 1;
    const gamma = r * w[source] * Math.max(0, 1 - alpha * u);
    let list = bySource.get(source);
    if (!list) bySource.set(source, (list = []));
    list.push({ item, source, u, gamma });
  }
  const order = (a: RankedEvidence, b: RankedEvidence) => b.gamma - a.gamma || cmp(a.item.uri, b.item.uri) || a.item.range.start.line - b.item.range.start.line;
  const merged: RankedEvidence[] = [];
  for (const s of ['api', 'repository', 'similar'] as EvidenceSource[]) {
    const list = (bySource.get(s) ?? []).sort(order);
    merged.push(...list.slice(0, Math.max(list.length ? 1 : 0, Math.ceil(keep * list.length - 1e-9))));
  }
  merged.sort(order);
  const out: RankedEvidence[] = [];
  for (const r of merged) if (!out.some((o) => duplicates(o.item, r.item))) out.push(r);
  const ranked = options.k !== undefined ? out.slice(0, options.k) : out;
  return { items: ranked.map((r) => r.item), ranked, trace: uncertaintyTrace(items, ctx) };
}

function duplicates(a: ContextItem, b: ContextItem): boolean {
  if (a.symbol && a.symbol === b.symbol) return true;
  return a.uri === b.uri && a.range.start.line <= b.range.end.line && b.range.start.line <= a.range.end.line;
}

export interface Removal { item: ContextItem; reason: 'target itself' | 'redundant overload' | 'incompatible with target' }

/**
 * Target-aware API refinement (OpenCoder): among API-knowledge items, drop the target's own
 * declaration, redundant overloads (same type and name: keep those in the surface, else the best
 * scored one) and callables incompatible with the target's types. Other items pass through.
 */
export function refineApis(items: ContextItem[], ctx: UncertaintyContext): { items: ContextItem[]; removed: Removal[] } {
  const names = targetTypeNames(ctx);
  const targetId = ctx.target?.ref.sym.id;
  const surfaceIds = new Set(ctx.surface.map((e) => e.symbol));
  const removed: Removal[] = [];
  const isApi = (it: ContextItem) => sourceClassOf(it, ctx.index) === 'api';
  // Best item per overload group (owner#name).
  const groupBest = new Map<string, ContextItem>();
  const groupHasSurface = new Set<string>();
  for (const it of items) {
    if (!isApi(it) || !it.symbol) continue;
    const g = it.symbol.replace(/\(.*$/, '');
    if (surfaceIds.has(it.symbol)) groupHasSurface.add(g);
    const best = groupBest.get(g);
    if (!best || it.score > best.score || (it.score === best.score && it.symbol < best.symbol!)) groupBest.set(g, it);
  }
  const kept: ContextItem[] = [];
  for (const it of items) {
    if (!isApi(it)) { kept.push(it); continue; }
    if (targetId && it.symbol === targetId) { removed.push({ item: it, reason: 'target itself' }); continue; }
    if (it.symbol) {
      const g = it.symbol.replace(/\(.*$/, '');
      const redundant = groupHasSurface.has(g) ? !surfaceIds.has(it.symbol) : groupBest.get(g) !== it;
      if (redundant) { removed.push({ item: it, reason: 'redundant overload' }); continue; }
      if (!compatibleWithTarget(it.symbol, ctx, names)) { removed.push({ item: it, reason: 'incompatible with target' }); continue; }
    }
    kept.push(it);
  }
  return { items: kept, removed };
}

/** The API set an item list presents: symbols of its API-knowledge items, sorted, unique. */
export function apiIdsOf(items: ContextItem[], index?: WorkspaceIndex): string[] {
  return [...new Set(items.filter((i) => i.symbol && sourceClassOf(i, index) === 'api').map((i) => i.symbol!))].sort();
}

export interface SetMetrics { precision: number; recall: number; f1: number; exact: boolean; predicted: number; gold: number }

/**
 * API-set precision/recall/F1 and exact match (OpenCoder RQ4) of predicted ids against gold ids.
 * Conventions: an empty prediction has precision 1 (it claims nothing wrong); an empty gold set has
 * recall 1; F1 is 0 when both are 0.
 */
export function apiSetMetrics(predicted: Iterable<string>, gold: Iterable<string>): SetMetrics {
  const p = new Set(predicted);
  const g = new Set(gold);
  let tp = 0;
  for (const x of p) if (g.has(x)) tp++;
  const precision = p.size ? tp / p.size : 1;
  const recall = g.size ? tp / g.size : 1;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, exact: tp === p.size && tp === g.size, predicted: p.size, gold: g.size };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
