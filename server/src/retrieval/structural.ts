// The `structural` reference mode: what a plain reader of the syntax tree would show, with no
// ranking, no recall sources and no gate, so that the pipeline's machinery has a floor to beat.
// After the cursor's own member: the enclosing type's members, then the types the code around the
// cursor names structurally, each with its members: supertypes of the enclosing type, types in the
// member's signature and Javadoc links, the enclosing type's field types, and the types used by
// like-named sibling methods (same first word of the name: `parseTag` for `parseAttribute`).
// Every declaration is shown by its signature alone. Items are scored by that order, so the hard
// cap drops the last-named types first.

import type { SymbolRef } from '../index/workspaceIndex';
import { isTypeKind } from '../java/symbols';
import { splitIdentifier } from '../text/identifiers';
import type { PipelineRequest } from './request';
import type { Query } from './query';
import { membersOf, ownerType, resolveTypeName, typeNames } from './symbols';
import { groupOf } from './items';
import type { NeedleItem } from './types';

/** Edge kinds through which a sibling method "uses" a type: the owner of what it calls, creates or reads. */
const USE_EDGES = new Set(['call', 'new', 'ctorCall', 'field', 'type', 'methodRef']);

/**
 * Structurally related file-level type groups, in the order they are shown (the enclosing type
 * first). `likeNamed`: likeNamedUses(req, q), when the caller has it already.
 */
export function structuralTypes(req: PipelineRequest, q: Query, likeNamed?: readonly string[]): SymbolRef[] {
  const own = q.type;
  if (!own) return [];
  const out: SymbolRef[] = [];
  const seen = new Set<string>();
  const add = (r: SymbolRef | undefined) => {
    if (!r) return;
    const t = ownerType(r);
    if (!t || seen.has(t.sym.id)) return;
    seen.add(t.sym.id);
    out.push(t);
  };
  const byName = (name: string) => resolveTypeName(req.index, own, name);
  add(own);
  for (const s of [own.sym.superclass, ...(own.sym.interfaces ?? [])]) for (const n of typeNames(s)) add(byName(n));
  for (const n of q.signatureTypes) add(byName(n));
  for (const link of q.javadocRefs) if (link.type) add(byName(link.type));
  const members = membersOf(own);
  for (const f of members) if (f.sym.kind === 'field') for (const n of typeNames(f.sym.type)) add(byName(n));
  for (const id of likeNamed ?? likeNamedUses(req, q, members)) add(req.index.symbol(id));
  return out;
}

/**
 * What the cursor's like-named sibling methods use (same first word of the name, same kind): the
 * targets of their call, creation, field and type edges, in edge order, repeats kept.
 */
export function likeNamedUses(req: PipelineRequest, q: Query, members = q.type ? membersOf(q.type) : []): string[] {
  const m = q.member?.sym;
  const word = m && (m.kind === 'method' || m.kind === 'constructor') ? splitIdentifier(m.name)[0] : undefined;
  if (!word) return [];
  const out: string[] = [];
  for (const s of members) {
    if (s.sym.id === m!.id || s.sym.kind !== m!.kind || splitIdentifier(s.sym.name)[0] !== word) continue;
    for (const e of req.index.edgesFrom(s.sym.id)) if (USE_EDGES.has(e.kind)) out.push(e.to);
  }
  return out;
}

/**
 * The structural reference's items after the cursor's own (`enclosing`): one item per related
 * type with every direct member's signature. `render` is the pipeline's declaration renderer
 * (itemsForSymbols), so this mode and the others show declarations identically.
 */
export function structuralItems(
  req: PipelineRequest, q: Query, enclosing: NeedleItem | undefined,
  render: (ids: string[]) => NeedleItem[],
): NeedleItem[] {
  const skip = new Set(q.member ? [q.member.sym.id] : []);
  // Related types of one file (a nested type and its top-level type) share one item, as elsewhere.
  const idsByGroup = new Map<string, string[]>();
  for (const t of structuralTypes(req, q)) {
    const ids = idsByGroup.get(groupOf(t)) ?? [];
    ids.push(t.sym.id, ...membersOf(t).filter((r) => !skip.has(r.sym.id) && !isTypeKind(r.sym.kind)).map((r) => r.sym.id));
    idsByGroup.set(groupOf(t), ids);
  }
  const out: NeedleItem[] = enclosing ? [enclosing] : [];
  [...idsByGroup].forEach(([group, ids], rank) => {
    for (const it of render(ids)) if (it.symbol === group) out.push({ ...it, sources: ['graph'], score: idsByGroup.size - rank });
  });
  return out;
}
