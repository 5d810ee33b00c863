// Stage 3 (The Needle and the Noise §4 (3), GrepRAG): structure-aware dedup/merge. Candidates from every source are
// collapsed by structural identity (symbol id); regions merge along the containment hierarchy:
// anything inside the cursor's own member is already shown by the enclosing item, a local or
// anonymous class folds into its enclosing member, and members are grouped under their type.

import type { WorkspaceIndex, SymbolRef } from '../index/workspaceIndex';
import { isTypeKind } from '../java/symbols';
import type { Query } from './query';
import { byScore, type Candidate } from './types';
import { groupOf } from './items';

export interface Merged extends Candidate {
  ref: SymbolRef;
  /** The file-level type whose item shows this candidate (see items.groupOf). */
  group: string;
}

export function mergeCandidates(index: WorkspaceIndex, q: Query, sources: Map<string, Candidate>[]): Merged[] {
  const byId = new Map<string, Merged>();
  const self = q.member ?? q.type;
  for (const src of sources) {
    for (const c of [...src.values()].sort(byScore)) {
      let ref = index.symbol(c.id);
      if (!ref) continue;
      // Containment: anything inside a local or anonymous class folds into the member that holds that class.
      for (let a = ref.sym.parent, inner: number | undefined; ; a = ref.file.facts.symbols[a].parent) {
        if (a < 0) { if (inner !== undefined) ref = { file: ref.file, index: inner, sym: ref.file.facts.symbols[inner] }; break; }
        const s = ref.file.facts.symbols[a];
        if ((s.local || s.anonymous) && s.parent >= 0) inner = s.parent;
      }
      while ((ref.sym.local || ref.sym.anonymous) && ref.sym.parent >= 0) ref = { file: ref.file, index: ref.sym.parent, sym: ref.file.facts.symbols[ref.sym.parent] };
      while (ref.sym.parent >= 0 && !isTypeKind(ref.sym.kind) && !isTypeKind(ref.file.facts.symbols[ref.sym.parent].kind)) {
        ref = { file: ref.file, index: ref.sym.parent, sym: ref.file.facts.symbols[ref.sym.parent] };
      }
      if (self && q.member && ref.file.path === self.file.path && inside(ref.sym.span, q.member.sym.span)) continue;
      // A private member of another file cannot be used from the cursor: noise unless the body names it.
      if (self && ref.sym.modifiers.includes('private') && ref.file.path !== self.file.path && !c.reasons.includes('referenced in body')) continue;
      // Likewise a package-private declaration (or one inside a package-private type) of another package.
      if (self && ref.file.facts.package !== self.file.facts.package && packagePrivate(ref) && !c.reasons.includes('referenced in body')) continue;
      const id = ref.sym.id;
      let m = byId.get(id);
      if (!m) {
        const group = groupOf(ref);
        byId.set(id, (m = { id, score: 0, sources: [], reasons: [], ref, group }));
      }
      m.score += c.score;
      if (c.membership) m.membership = (m.membership ?? 0) + c.membership;
      for (const [k, v] of Object.entries(c.routes ?? {}) as [keyof NonNullable<Merged['routes']>, number][]) (m.routes ??= {})[k] = (m.routes[k] ?? 0) + v;
      for (const [k, v] of Object.entries(c.evidence ?? {}) as [keyof NonNullable<Merged['evidence']>, number][]) (m.evidence ??= {})[k] = (m.evidence[k] ?? 0) + v;
      for (const s of c.sources) if (!m.sources.includes(s)) m.sources.push(s);
      for (const r of c.reasons) if (!m.reasons.includes(r) && m.reasons.length < 6) m.reasons.push(r);
    }
  }
  return [...byId.values()].sort(byScore);
}

/**
 * Whether `ref`, or a type it is nested in, is package-private: declared with no access modifier
 * where that means package access (not as a member of an interface or annotation, whose members
 * are public, nor as an enum constant). From another package it cannot be named.
 */
export function packagePrivate(ref: SymbolRef): boolean {
  const symbols = ref.file.facts.symbols;
  for (let i = ref.index; i >= 0; i = symbols[i].parent) {
    const s = symbols[i];
    const parent = s.parent >= 0 ? symbols[s.parent] : undefined;
    if (s.kind === 'enumConstant' || parent?.kind === 'interface' || parent?.kind === 'annotation') continue;
    if (!s.modifiers.some((m) => m === 'public' || m === 'protected' || m === 'private')) return true;
  }
  return false;
}

function inside(a: { sl: number; sc: number; el: number; ec: number }, b: { sl: number; sc: number; el: number; ec: number }): boolean {
  const after = a.sl > b.sl || (a.sl === b.sl && a.sc >= b.sc);
  const before = a.el < b.el || (a.el === b.el && a.ec <= b.ec);
  return after && before;
}
