// Structural coverage (RCL §4): the weighted share of the dependency surface D̂(q) whose
// declaration is present in the retrieved items. Weights are probabilities of being needed, so the
// share is the estimated share of needed symbols present, reported as it is. A declaration counts as present when an item of
// the declaring file spans the symbol's name line (its signature line) and its text contains the
// name, or when the item says it shows exactly that symbol. A body may be elided; the signature
// is what a model needs to call the symbol correctly.

import type { ContextItem, SurfaceEntry } from '../../../shared/protocol';
import type { NeedleItem } from '../retrieval/types';
import { declaredName, shortName } from './surface';
import { isTypeKind } from '../java/symbols';
import { identifierAt } from '../text/identifiers';
import { BoundedMemo } from '../text/boundedMemo';

/**
 * declaredName of a symbol id, remembered: every coverage check of every follow-up round asks it
 * again for the same surface entries and weighed candidates (a split and a regex each time).
 */
const declaredNames = new BoundedMemo<string, string>(50_000);
const nameOf = (id: string): string => declaredNames.get(id, declaredName);

/** Whether one item shows the declaration of one surface entry (`name`: its declaredName, when the caller has it). */
export function itemCovers(item: ContextItem, entry: SurfaceEntry, name?: string): boolean {
  if (item.symbol !== undefined && item.symbol === entry.symbol) return true;
  if (entry.uri === undefined || entry.line === undefined || item.uri !== entry.uri) return false;
  if (entry.line < item.range.start.line || entry.line > item.range.end.line) return false;
  return containsWord(item.text, name ?? nameOf(entry.symbol));
}

/**
 * The items of one context, looked up by the symbol they show and by file, so that "does any
 * item show this entry" reads only the items of the entry's file: the same answer as asking
 * `itemCovers` of every item, at a cost that no longer grows with surface × items.
 */
export class ShownItems {
  private readonly symbols = new Set<string>();
  private readonly byUri = new Map<string, ContextItem[]>();

  constructor(readonly items: readonly ContextItem[]) {
    for (const it of items) {
      if (it.symbol !== undefined) this.symbols.add(it.symbol);
      const same = this.byUri.get(it.uri);
      if (same) same.push(it); else this.byUri.set(it.uri, [it]);
    }
  }

  /** Whether some item shows the entry's declaration (itemCovers of any item). */
  covers(entry: Pick<SurfaceEntry, 'symbol' | 'uri' | 'line'>, name?: string): boolean {
    if (this.symbols.has(entry.symbol)) return true;
    if (entry.uri === undefined || entry.line === undefined) return false;
    const line = entry.line;
    for (const it of this.byUri.get(entry.uri) ?? []) {
      if (line < it.range.start.line || line > it.range.end.line) continue;
      if (containsWord(it.text, name ??= nameOf(entry.symbol))) return true;
    }
    return false;
  }
}

function containsWord(text: string, word: string): boolean {
  return identifierAt(text, word) >= 0;
}

/**
 * What the evidence modules (bodyNeeds.ts, writtenHalf.ts) ask of types: the workspace types the
 * surface holds, by simple name (the first of a name, in surface order), and the types of which an
 * item shows some member. Built once per marking, not once per module.
 */
export interface ShownTypes {
  byName: ReadonlyMap<string, string>;
  withShownMember: ReadonlySet<string>;
}

/** The workspace types of a surface by simple name (request-invariant: covering marks entries, it does not change them). */
export function workspaceTypesByName(surface: readonly SurfaceEntry[]): Map<string, string> {
  const types = new Map<string, string>();
  for (const e of surface) {
    if (!e.internal || !isTypeKind(e.kind)) continue;
    const name = shortName(e.symbol);
    if (!types.has(name)) types.set(name, e.symbol);
  }
  return types;
}

/** The symbols the items show (each item's `symbols`, or its one `symbol`). */
export function shownSymbolsOf(items: readonly NeedleItem[]): Set<string> {
  const out = new Set<string>();
  for (const it of items) for (const id of it.symbols ?? (it.symbol ? [it.symbol] : [])) out.add(id);
  return out;
}

/** The types owning some of these members (types themselves have no owner here): of the symbols shown, the types with a shown member. */
export function ownersOf(ids: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const id of ids) { const o = ownerTypeOf(id); if (o) out.add(o); }
  return out;
}

export function shownTypesOf(surface: readonly SurfaceEntry[], items: readonly NeedleItem[]): ShownTypes {
  return { byName: workspaceTypesByName(surface), withShownMember: ownersOf(shownSymbolsOf(items)) };
}

/**
 * A type's members the surface needs for certain or at least this likely: a type entry counts as
 * covered only when its header and these members are shown (a bare `public class X {` tells a
 * model nothing about what it will call on X).
 */
export const TYPE_MEMBER_NEED_P = 0.5;

/** The type id of a member id (`p.A#foo()` -> `p.A`); undefined for a type. */
export function ownerTypeOf(symbol: string): string | undefined {
  const i = symbol.indexOf('#');
  return i < 0 ? undefined : symbol.slice(0, i);
}

/**
 * The surface with `covered` set against the items (new objects; the input is not changed). A
 * member is covered by its declaration's line in an item of its file (its type's group); a type by
 * its header plus every member of it the surface needs (written, or p ≥ TYPE_MEMBER_NEED_P).
 */
export function markCovered(surface: SurfaceEntry[], items: ContextItem[]): SurfaceEntry[] {
  const shown = new ShownItems(items);
  const marked = surface.map((e) => ({ ...e, covered: shown.covers(e) }));
  const missingMember = new Set<string>();
  for (const e of marked) {
    const owner = ownerTypeOf(e.symbol);
    if (owner && !e.covered && (e.written || e.weight >= TYPE_MEMBER_NEED_P)) missingMember.add(owner);
  }
  for (const e of marked) if (e.covered && ownerTypeOf(e.symbol) === undefined && missingMember.has(e.symbol)) e.covered = false;
  return marked;
}

/**
 * Weighted coverage in [0,1]: Σ weight of covered entries / Σ weight. An empty surface (nothing
 * estimated to be needed) is fully covered. Entries with non-positive weight are ignored.
 */
export function coverageOf(surface: SurfaceEntry[], items: ContextItem[]): number {
  return markedCoverage(markCovered(surface, items));
}

/** Coverage of an already marked surface. */
export function markedCoverage(surface: SurfaceEntry[]): number {
  let total = 0;
  let hit = 0;
  for (const e of surface) {
    if (!(e.weight > 0) || !Number.isFinite(e.weight)) continue;
    total += e.weight;
    if (e.covered) hit += e.weight;
  }
  return total === 0 ? 1 : hit / total;
}
