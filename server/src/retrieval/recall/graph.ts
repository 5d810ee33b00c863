// Stage 2c (The Needle and the Noise §4 (2), CoRet): one hop over the structural graph from every symbol already
// named — the body's resolved references, names resolved from the task text and the Javadoc —
// plus the signature's internal types and their members, the owner type's members (same-class
// helpers, weighted by how much the rest of the file uses them), overloads and what they use.

import type { PipelineRequest } from '../request';
import type { Query } from '../query';
import type { IndexedFile, SymbolRef } from '../../index/workspaceIndex';
import { addCandidate, type Candidate, type Evidence } from '../types';
import { declarationsByName, membersOf, ownerType, perIndexVersionIncremental, resolveTypeName, typeNames } from '../symbols';
import type { WorkspaceIndex } from '../../index/workspaceIndex';
import { isTypeKind } from '../../java/symbols';

/** Weights per relation (tuned on the shape of the benchmark: members of signature types and same-class helpers dominate). */
export const GRAPH_WEIGHTS = {
  bodyRef: 2.5,          // resolved reference in the cursor's member
  secondHop: 0.25,       // what a body reference itself uses
  javadocLink: 2.0,      // {@link #foo} in the target's Javadoc
  queryName: 1.5,        // a declaration named in the task text
  signatureType: 1.0,    // an internal parameter/return/thrown type
  signatureMember: 0.35, // a member of such a type
  sameClass: 0.35,       // a member of the owner type
  field: 0.25,           // extra for fields of the owner type
  overload: 2.5,         // same name in the owner type
  overloadUses: 1.0,     // referenced by an overload
  popularity: 0.35,      // × log2(1 + distinct members of the file referencing it)
  superMember: 0.2,      // member of an internal supertype
  caller: 0.15,          // edgesTo: a caller of the target
  outerClass: 0.8,       // × sameClass per level for members of enclosing (outer) types
  nestedMember: 0.5,     // × signatureMember for members of a signature type's nested types
  superOfSignature: 0.7, // × signatureMember for members of a signature type's supertypes
  fieldTypeMember: 0.6,  // × signatureMember for members of the owner's field types
  globalPopular: 0.1,   // × log2(referencing files) for the workspace's most used declarations
  usedOnce: 0.6,         // × popularity for a declaration of another file the file's other members use (one of them is enough)
} as const;

/** A name declared more often than this is too ambiguous to recall by name alone. */
export const AMBIGUOUS_NAME = 3;
/** How many of the workspace's most used declarations join as a weak prior. */
export const GLOBAL_POPULAR = 25;

const MAX_TYPE_MEMBERS = 400;
const FOLLOW_KINDS = new Set(['call', 'new', 'field', 'type', 'ctorCall', 'methodRef']);

export function graphRecall(req: PipelineRequest, q: Query, folders?: string[]): Map<string, Candidate> {
  /** Name-based lookups (not resolved edges) stay inside the prefiltered folders. */
  const inFolders = (id: string) => {
    if (!folders) return true;
    const r = req.index.symbol(id);
    return !!r && folders.some((f) => r.file.path.startsWith(f));
  };
  const out = new Map<string, Candidate>();
  const idx = req.index;
  const target = q.member ?? q.type;
  if (!target) return out;
  const selfId = target.sym.id;
  const add = (id: string, w: number, evidence: Evidence, why: string, membership = false) => { if (id !== selfId) addCandidate(out, id, w, 'graph', why, membership, evidence); };

  // Body references and one hop beyond.
  const seeds: string[] = [];
  for (const e of idx.edgesWithin(selfId)) {
    if (!FOLLOW_KINDS.has(e.kind)) continue;
    add(e.to, GRAPH_WEIGHTS.bodyRef, 'bodyRef', 'referenced in body');
    if (!seeds.includes(e.to)) seeds.push(e.to);
  }
  for (const s of seeds) for (const e of idx.edgesFrom(s)) if (FOLLOW_KINDS.has(e.kind) && e.kind !== 'type') add(e.to, GRAPH_WEIGHTS.secondHop, 'secondHop', 'used by a body reference');
  for (const e of idx.edgesTo(selfId).slice(0, 20)) if (e.from !== selfId && !e.from.includes('#<file>')) add(e.from, GRAPH_WEIGHTS.caller, 'caller', 'caller');

  // The owner type: same-class members, overloads and what overloads use, file-level popularity.
  const owner = q.type ?? ownerType(target);
  const popularity = filePopularity(req, target.file.path);
  if (owner) {
    const members = membersOf(owner);
    for (const m of members) {
      if (m.sym.id === selfId) continue;
      add(m.sym.id, GRAPH_WEIGHTS.sameClass + (m.sym.kind === 'field' || m.sym.kind === 'enumConstant' ? GRAPH_WEIGHTS.field : 0), 'sameClass', 'same-class member', true);
      if (m.sym.name === target.sym.name && target.sym.kind !== 'field') {
        add(m.sym.id, GRAPH_WEIGHTS.overload, 'overload', 'overload');
        for (const e of idx.edgesFrom(m.sym.id)) if (FOLLOW_KINDS.has(e.kind)) add(e.to, GRAPH_WEIGHTS.overloadUses, 'overloadUses', 'used by an overload');
      }
    }
    // Supertypes' members (one level).
    for (const sup of [owner.sym.superclass, ...(owner.sym.interfaces ?? [])]) {
      const t = sup ? resolveTypeName(idx, owner, sup.replace(/<.*$/, '')) : undefined;
      if (t) {
        add(t.sym.id, GRAPH_WEIGHTS.signatureType * 0.5, 'supertype', 'supertype');
        for (const m of membersOf(t).slice(0, MAX_TYPE_MEMBERS)) add(m.sym.id, GRAPH_WEIGHTS.superMember, 'superMember', 'inherited member', true);
      }
    }
  }
  for (const [id, n] of popularity) {
    if (out.has(id) || isSameFileMember(idx, id, target)) add(id, GRAPH_WEIGHTS.popularity * Math.log2(1 + n), 'popularity', 'used across the file');
    else add(id, GRAPH_WEIGHTS.popularity * GRAPH_WEIGHTS.usedOnce * Math.log2(1 + n), 'popularity', 'used across the file');
  }

  // Enclosing (outer) types: their members are in scope too (enum constant bodies, inner classes).
  let outer = owner && owner.sym.parent >= 0 ? ownerType({ file: owner.file, index: owner.sym.parent, sym: owner.file.facts.symbols[owner.sym.parent] }) : undefined;
  let factor = GRAPH_WEIGHTS.outerClass;
  while (outer) {
    add(outer.sym.id, GRAPH_WEIGHTS.signatureType * factor, 'outerType', 'outer type');
    for (const m of membersOf(outer).slice(0, MAX_TYPE_MEMBERS)) {
      if (isTypeKind(m.sym.kind)) continue;
      add(m.sym.id, (GRAPH_WEIGHTS.sameClass + (m.sym.kind === 'field' || m.sym.kind === 'enumConstant' ? GRAPH_WEIGHTS.field : 0)) * factor, 'outerMember', 'outer-class member', true);
    }
    factor *= GRAPH_WEIGHTS.outerClass;
    outer = outer.sym.parent >= 0 ? ownerType({ file: outer.file, index: outer.sym.parent, sym: outer.file.facts.symbols[outer.sym.parent] }) : undefined;
  }

  // Signature types, their supertypes and nested types, and their members.
  const typeMembers = (t: SymbolRef, w: number, evidence: Evidence, why: string) => {
    for (const m of membersOf(t).slice(0, MAX_TYPE_MEMBERS)) add(m.sym.id, isTypeKind(m.sym.kind) ? w * 0.8 : w, evidence, why, true);
  };
  for (const name of q.signatureTypes) {
    const t = resolveTypeName(idx, target, name);
    if (!t || !isTypeKind(t.sym.kind)) continue;
    add(t.sym.id, GRAPH_WEIGHTS.signatureType, 'signatureType', `signature type ${name}`);
    if (owner && t.sym.id === owner.sym.id) continue;
    typeMembers(t, GRAPH_WEIGHTS.signatureMember, 'signatureMember', `member of ${name}`);
    for (const sup of [t.sym.superclass, ...(t.sym.interfaces ?? [])]) {
      const st = sup ? resolveTypeName(idx, t, sup.replace(/<.*$/, '')) : undefined;
      if (st && st.sym.id !== t.sym.id) typeMembers(st, GRAPH_WEIGHTS.signatureMember * GRAPH_WEIGHTS.superOfSignature, 'signatureMember', `inherited by ${name}`);
    }
    for (const nested of membersOf(t)) if (isTypeKind(nested.sym.kind)) typeMembers(nested, GRAPH_WEIGHTS.signatureMember * GRAPH_WEIGHTS.nestedMember, 'signatureMember', `member of ${name}.${nested.sym.name}`);
  }
  // Types of the owner's fields (the state a method works on).
  if (owner) {
    for (const f of membersOf(owner)) {
      if (f.sym.kind !== 'field') continue;
      for (const name of typeNames(f.sym.type)) {
        const t = resolveTypeName(idx, owner, name);
        if (t && isTypeKind(t.sym.kind) && t.sym.id !== owner.sym.id) typeMembers(t, GRAPH_WEIGHTS.signatureMember * GRAPH_WEIGHTS.fieldTypeMember, 'fieldTypeMember', `member of field type ${name}`);
      }
    }
  }
  for (const [id, files] of globalPopular(idx)) if (inFolders(id)) add(id, GRAPH_WEIGHTS.globalPopular * Math.log2(files), 'globalPopular', 'used across the workspace');

  // Names from the Javadoc and the task text.
  const byName = declarationsByName(idx);
  const ownerPrefix = owner ? owner.sym.id + '#' : '\0';
  // {@link Type#member}: resolved against the internal Type only (a link into the JDK names nothing here).
  for (const r of q.javadocRefs) {
    const t = r.type ? resolveTypeName(idx, target, r.type) : owner;
    if (!t || !isTypeKind(t.sym.kind)) continue;
    if (!r.member) { add(t.sym.id, GRAPH_WEIGHTS.javadocLink, 'javadocLink', `linked in Javadoc: ${r.type}`); continue; }
    const ms = membersOf(t).filter((m) => m.sym.name === r.member);
    for (const m of ms) add(m.sym.id, GRAPH_WEIGHTS.javadocLink, 'javadocLink', `linked in Javadoc: ${r.type ?? ''}#${r.member}`);
    if (ms.length && r.type) add(t.sym.id, GRAPH_WEIGHTS.javadocLink * 0.5, 'javadocLink', `linked in Javadoc: ${r.type}`);
  }
  // Other names the Javadoc mentions ({@code foo}, camelCase words): only unambiguous or owner-local ones.
  const linked = new Set(q.javadocRefs.flatMap((r) => [r.type, r.member]));
  for (const name of q.javadocNames) {
    if (linked.has(name)) continue;
    const ids = (byName.get(name) ?? []).filter(inFolders);
    const local = ids.filter((id) => id.startsWith(ownerPrefix));
    const chosen = local.length ? local : ids.length <= AMBIGUOUS_NAME ? ids : [];
    for (const id of chosen.slice(0, 6)) add(id, GRAPH_WEIGHTS.javadocLink * 0.75, 'javadocName', `named in Javadoc: ${name}`);
  }
  for (const name of [...q.queryIdentifiers, ...q.errors, ...q.tests.flatMap((t) => [t.type, t.method ?? ''])]) {
    const qids = (byName.get(name) ?? []).filter(inFolders);
    for (const id of qids.slice(0, 6)) add(id, GRAPH_WEIGHTS.queryName / Math.sqrt(qids.length), 'queryName', `named in task: ${name}`);
  }
  return out;
}

function isSameFileMember(idx: PipelineRequest['index'], id: string, target: SymbolRef): boolean {
  const r = idx.symbol(id);
  return !!r && r.file.path === target.file.path;
}

/** Declaration id -> number of distinct members of the file referencing it (a file's vocabulary). */
export function filePopularity(req: PipelineRequest, path: string): Map<string, number> {
  const f = req.index.file(path);
  const from = new Map<string, Set<string>>();
  for (const e of f?.resolution?.edges ?? []) {
    if (!FOLLOW_KINDS.has(e.kind)) continue;
    let s = from.get(e.to);
    if (!s) from.set(e.to, (s = new Set()));
    s.add(e.from);
  }
  const out = new Map<string, number>();
  for (const id of [...from.keys()].sort()) out.set(id, from.get(id)!.size);
  return out;
}

/**
 * The GLOBAL_POPULAR declarations referenced (called or read) from the most files, at least 3
 * (utility helpers), by file count then id. Kept file by file: a file's share is its resolution
 * (the index's own object, so nothing is held twice), whose distinct referenced declarations are
 * counted when it comes and uncounted when it goes, so an edit moves only its own counts.
 */
const popularTable = perIndexVersionIncremental({
  source: (f) => f.resolution,
  part: (f) => f.resolution,
  create: () => ({ files: new Map<string, number>(), top: [] as [string, number][] }),
  apply: (t, changes) => {
    for (const { before, after } of changes) {
      for (const id of referenced(before)) {
        const n = t.files.get(id)! - 1;
        if (n) t.files.set(id, n); else t.files.delete(id);
      }
      for (const id of referenced(after)) t.files.set(id, (t.files.get(id) ?? 0) + 1);
    }
  },
  finish: (t) => {
    const top: [string, number][] = [];
    const ahead = (a: [string, number], b: [string, number]) => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
    for (const e of t.files) {
      if (e[1] < 3 || (top.length === GLOBAL_POPULAR && !ahead(e, top[GLOBAL_POPULAR - 1]))) continue;
      let at = top.length;
      while (at > 0 && ahead(e, top[at - 1])) at--;
      top.splice(at, 0, e);
      if (top.length > GLOBAL_POPULAR) top.pop();
    }
    t.top = top;
  },
});

/** The declarations a file's resolution calls or reads, each once. */
function referenced(r: IndexedFile['resolution']): Set<string> {
  const out = new Set<string>();
  for (const e of r?.edges ?? []) if (e.kind === 'call' || e.kind === 'field') out.add(e.to);
  return out;
}

export function globalPopular(idx: WorkspaceIndex): [string, number][] {
  return popularTable(idx).top;
}
