// Where the gold the final context lacks was lost: rcl at budget 4,000 (follow-up rounds as served)
// on VALIDATION tasks (new bodies), each gold symbol of each task classified as
//   shown          in the final context;
//   cap            packing chose it, the hard cap or the gate's re-cap dropped it;
//   packing        weighed, p × value paid for its own lines, yet not shown (budget, MAX_ENTRIES, a header it could not pay);
//   low p          weighed, p × value below its own lines;
//   unweighed      a merged candidate ranked below MAX_WEIGHED;
//   never          no recall source found it, with the first structural relation to the cursor's
//                  method that holds it (RELATIONS, in order).
// Beside the table: for the never-candidates, how many each relation holds (a gold symbol can be
// in several), and each relation's mean size per task and the share of all gold it holds, so a
// recall source built on a relation can be judged by what it would add besides the gold.
// Diagnostic for recall upstream of packing (issue 14). The last two relations are candidate routes
// to same-package types, which no import names (samePackageRoutes), measured before one is built.
//
//   node dist/bench/recall-misses.bench.js [--tasks 40] [--validation 12] [--corpus NAME]... [--list] [--imports masked|kept]
//
// --imports masked|kept: masked (default) blanks the imports only the hidden code used, as an editor
// would not have them yet (bench/retrieval/tasks.ts ImportProtocol); kept is the old protocol, for comparison.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultSettings, retrieveAt } from '../server/src/service';
import { MAX_WEIGHED } from '../server/src/retrieval/pipeline';
import { PACKINGS } from '../server/src/retrieval/fitted';
import { MEMBER_COLUMNS, type MemberRow } from '../server/src/retrieval/memberModel';
import type { RankedRow } from '../server/src/retrieval/request';
import type { SymbolRef, WorkspaceIndex } from '../server/src/index/workspaceIndex';
import { isTypeKind } from '../server/src/java/symbols';
import { membersOf, ownerType, resolveTypeName, typeNames } from '../server/src/retrieval/symbols';
import { arg, args, importProtocolArg } from './cli';
import { identifiersIn, splitIdentifier } from '../server/src/text/identifiers';
import { STOP } from '../server/src/retrieval/query';
import { DEVELOPMENT_CORPORA, INJECTED_CORPORA } from './corpora/list.mjs';
import { itemHolds, median, relPathOfUri } from './retrieval/score';
import { testSplitOverlap, type GoldSymbol } from './retrieval/tasks';
import { forEachValidationTask, goldRef } from './retrieval/validationTasks';

const ROOT = process.cwd();

/** Structural relations of a declaration to the cursor's method, in the order a miss is classed by. */
const RELATIONS = [
  'unused-own-member', 'own-type-member', 'inherited-member', 'inherited-deep', 'signature-type-member', 'field-type-member', 'used-in-file',
  'like-named-use', 'like-named-type-member', 'cousin-use', 'caller-use', 'file-type-member', 'imported-type-member',
  'same-package-type-member', 'candidate-type-member', 'used-once-in-file', 'unused-import-type-member',
  // Candidate routes to same-package types (they need no import, so no import points at them):
  'same-package-named-type-member', 'same-package-co-used-type-member',
] as const;
type Relation = (typeof RELATIONS)[number];
const OUTCOMES = ['shown', 'cap', 'packing', 'low p', 'unweighed', 'never'] as const;
type Outcome = (typeof OUTCOMES)[number];

const USE = new Set(['call', 'new', 'ctorCall', 'field', 'type', 'methodRef']);
const TOKENS = MEMBER_COLUMNS.indexOf('log tokens');

/** A type and its direct members' ids. */
function withMembers(t: SymbolRef, into: Set<string>): void {
  into.add(t.sym.id);
  for (const m of membersOf(t)) into.add(m.sym.id);
}

/** Supertypes of `t` by level (1 = direct), internal ones only. */
function supertypeLevels(index: WorkspaceIndex, t: SymbolRef): Map<string, number> {
  const level = new Map<string, number>();
  const queue: [string, number][] = [[t.sym.id, 0]];
  while (queue.length) {
    const [id, l] = queue.shift()!;
    for (const e of index.edgesFrom(id)) if ((e.kind === 'extends' || e.kind === 'implements') && !level.has(e.to) && e.to !== t.sym.id) { level.set(e.to, l + 1); queue.push([e.to, l + 1]); }
  }
  return level;
}

/** Every relation's id set for one cursor method. */
function relationSets(index: WorkspaceIndex, m: SymbolRef, candidates: Set<string>): Map<Relation, Set<string>> {
  const sets = new Map<Relation, Set<string>>(RELATIONS.map((r) => [r, new Set<string>()]));
  const put = (r: Relation) => sets.get(r)!;
  const sym = (id: string) => index.symbol(id);
  const owner = ownerType(m)!;
  const facts = m.file.facts;
  for (let i = m.sym.parent; i >= 0; i = facts.symbols[i].parent) if (isTypeKind(facts.symbols[i].kind)) withMembers({ file: m.file, index: i, sym: facts.symbols[i] }, put('own-type-member'));
  const levels = supertypeLevels(index, owner);
  for (const [id, l] of levels) { const t = sym(id); if (t) withMembers(t, put(l === 1 ? 'inherited-member' : 'inherited-deep')); }
  const typeOf = (from: SymbolRef, text: string | undefined) => typeNames(text).map((n) => resolveTypeName(index, from, n)).filter((t): t is SymbolRef => !!t && isTypeKind(t.sym.kind));
  for (const t of [...(m.sym.params ?? []).flatMap((p) => typeOf(m, p.type)), ...typeOf(m, m.sym.returnType)]) {
    withMembers(t, put('signature-type-member'));
    for (const id of supertypeLevels(index, t).keys()) { const s = sym(id); if (s) withMembers(s, put('signature-type-member')); }
  }
  for (const f of membersOf(owner)) if (f.sym.kind === 'field') for (const t of typeOf(owner, f.sym.type)) withMembers(t, put('field-type-member'));
  const fileUses = new Set<string>();
  const usersInFile = new Map<string, Set<string>>();
  for (const e of m.file.resolution?.edges ?? []) if (USE.has(e.kind) && e.from !== m.sym.id) {
    put('used-in-file').add(e.to); fileUses.add(e.to);
    const u = usersInFile.get(e.to) ?? new Set<string>();
    u.add(e.from); usersInFile.set(e.to, u);
  }
  for (const [id, u] of usersInFile) if (u.size === 1) put('used-once-in-file').add(id);
  // Members of the cursor's types that nothing outside the masked method uses (their one user may have been it).
  for (const id of put('own-type-member')) {
    const r = sym(id);
    if (!r || isTypeKind(r.sym.kind) || r.sym.id === m.sym.id) continue;
    if (!index.edgesTo(id).some((e) => e.from !== m.sym.id && e.kind !== 'extends' && e.kind !== 'implements')) put('unused-own-member').add(id);
  }
  const word = m.sym.name.match(/^[a-z]+|^[A-Z][a-z]*/)?.[0];
  for (const s of membersOf(owner)) {
    if (s.sym.id === m.sym.id || s.sym.kind !== m.sym.kind || !word || s.sym.name.match(/^[a-z]+|^[A-Z][a-z]*/)?.[0] !== word) continue;
    for (const e of index.edgesFrom(s.sym.id)) if (USE.has(e.kind)) {
      put('like-named-use').add(e.to);
      const r = sym(e.to);
      const t = r && ownerType(r);
      if (t) withMembers(t, put('like-named-type-member'));
    }
  }
  // The same-named method elsewhere in the hierarchy: supertypes, and subtypes of the owner and of its supertypes.
  const hierarchy = new Set<string>([...levels.keys()]);
  for (const id of [owner.sym.id, ...levels.keys()]) for (const e of index.edgesTo(id)) if (e.kind === 'extends' || e.kind === 'implements') { const t = sym(e.from); if (t) hierarchy.add(t.sym.id); }
  hierarchy.delete(owner.sym.id);
  for (const id of hierarchy) {
    const t = sym(id);
    if (!t) continue;
    for (const c of membersOf(t)) if (c.sym.name === m.sym.name && c.sym.kind === m.sym.kind) for (const e of index.edgesFrom(c.sym.id)) if (USE.has(e.kind)) put('cousin-use').add(e.to);
  }
  for (const e of index.edgesTo(m.sym.id)) for (const u of index.edgesFrom(e.from)) if (USE.has(u.kind)) put('caller-use').add(u.to);
  for (const id of fileUses) { const r = sym(id); const t = r && ownerType(r); if (t) withMembers(t, put('file-type-member')); }
  for (const imp of facts.imports) {
    if (imp.wildcard) continue;
    const name = imp.static ? imp.name.slice(0, imp.name.lastIndexOf('.')) : imp.name;
    const t = resolveTypeName(index, m, name.slice(name.lastIndexOf('.') + 1));
    if (!t || !isTypeKind(t.sym.kind)) continue;
    withMembers(t, put('imported-type-member'));
    // An import the rest of the file does not use: the masked body may have been its user.
    const inType = (id: string) => { const r = sym(id); return !!r && r.file.path === t.file.path && (r.sym.id === t.sym.id || ownerType(r)?.sym.id === t.sym.id); };
    if (![...fileUses].some(inType)) withMembers(t, put('unused-import-type-member'));
  }
  const dir = m.file.path.slice(0, m.file.path.lastIndexOf('/'));
  for (const f of index.allFiles()) {
    if (f.path.slice(0, f.path.lastIndexOf('/')) !== dir) continue;
    f.facts.symbols.forEach((s, i) => { if (s.parent < 0 && isTypeKind(s.kind)) withMembers({ file: f, index: i, sym: s }, put('same-package-type-member')); });
  }
  samePackageRoutes(index, m, owner, dir, put('same-package-named-type-member'), put('same-package-co-used-type-member'));
  for (const id of candidates) { const r = sym(id); if (r && isTypeKind(r.sym.kind)) withMembers(r, put('candidate-type-member')); }
  return sets;
}

/**
 * Two candidate routes to same-package types, measured here before any is built: a top-level type
 * of the package whose name shares a word with the method's intent (its name, parameter names and
 * Javadoc words); and one that at least CO_USE_FILES other files of the package use beside the
 * cursor's own type (what code working with this type also works with).
 */
const CO_USE_FILES = 2;
function samePackageRoutes(index: WorkspaceIndex, m: SymbolRef, owner: SymbolRef, dir: string, named: Set<string>, coUsed: Set<string>): void {
  const intent = new Set([m.sym.name, ...(m.sym.params ?? []).map((p) => p.name ?? ''), ...identifiersIn(m.sym.javadoc ?? '')]
    .flatMap((x) => splitIdentifier(x)).filter((w) => w.length > 2 && !STOP.has(w)));
  const types: SymbolRef[] = [];
  for (const f of index.allFiles()) {
    if (f.path === m.file.path || f.path.slice(0, f.path.lastIndexOf('/')) !== dir) continue;
    f.facts.symbols.forEach((s, i) => { if (s.parent < 0 && isTypeKind(s.kind)) types.push({ file: f, index: i, sym: s }); });
  }
  for (const t of types) if (splitIdentifier(t.sym.name).some((w) => intent.has(w))) withMembers(t, named);
  const typeOfId = new Map<string, string>();
  for (const t of types) { typeOfId.set(t.sym.id, t.sym.id); for (const x of membersOf(t)) typeOfId.set(x.sym.id, t.sym.id); }
  const ownerIds = new Set([owner.sym.id, ...membersOf(owner).map((x) => x.sym.id)]);
  const files = new Map<string, number>();
  for (const f of new Set(types.map((t) => t.file))) {
    const edges = f.resolution?.edges.toArray() ?? [];
    if (!edges.some((e) => USE.has(e.kind) && ownerIds.has(e.to))) continue;
    const used = new Set(edges.filter((e) => USE.has(e.kind)).map((e) => typeOfId.get(e.to)).filter((t): t is string => !!t && index.symbol(t)?.file.path !== f.path));
    for (const t of used) files.set(t, (files.get(t) ?? 0) + 1);
  }
  for (const [id, n] of files) { const t = index.symbol(id); if (t && n >= CO_USE_FILES) withMembers(t, coUsed); }
}

interface Miss { corpus: string; task: string; gold: string; outcome: Outcome; relation?: Relation | 'none'; relations: Relation[]; rank?: number; p?: number }

(async () => {
  const test = Number(arg('--tasks') ?? 40);
  const validation = Number(arg('--validation') ?? 12);
  const overlap = testSplitOverlap({ test, validation });
  if (overlap) console.error(overlap);
  const names = args('--corpus').length ? args('--corpus') : [...DEVELOPMENT_CORPORA, ...INJECTED_CORPORA];
  const list = process.argv.includes('--list');
  const records: Miss[] = [];
  /** Per corpus and relation: summed size over tasks, gold held, tasks. */
  const sizes = new Map<string, Map<Relation, { size: number; gold: number }>>();
  const taskCount = new Map<string, number>();
  /** Per corpus: the final context's tokens, one per task. */
  const contextTokens = new Map<string, number[]>();
  for (const name of names) {
    await forEachValidationTask(ROOT, name, { test, validation, imports: importProtocolArg() }, async ({ task, src, indexer, uri }) => {
      let ranked: RankedRow[] = [];
      let weighed: MemberRow[] = [];
      const settings = { ...defaultSettings(), observeRanked: (r: RankedRow[]) => { ranked = r; }, observeMembers: (r: MemberRow[]) => { weighed = r; } };
      const res = await retrieveAt(indexer, { textDocument: { uri }, position: task.cursor, budgetTokens: 4000, mode: 'rcl' }, settings);
      const m = indexer.index.enclosingSymbol(join(src, task.file), task.cursor.line, task.cursor.character);
      if (!m) return;
      taskCount.set(name, (taskCount.get(name) ?? 0) + 1);
      contextTokens.set(name, [...(contextTokens.get(name) ?? []), res.tokens]);
      const rels = res.items.map((it) => relPathOfUri(it.uri, src));
      const at = (rows: { path: string; startLine: number; nameLine: number }[], g: GoldSymbol) => rows.findIndex((r) => relPathOfUri(pathToFileURL(r.path).href, src) === g.file && r.startLine <= g.maskedLine && g.maskedLine <= r.nameLine);
      const sets = relationSets(indexer.index, m, new Set(ranked.map((r) => r.id)));
      const perRel = sizes.get(name) ?? new Map(RELATIONS.map((r) => [r, { size: 0, gold: 0 }]));
      sizes.set(name, perRel);
      for (const r of RELATIONS) perRel.get(r)!.size += sets.get(r)!.size;
      for (const g of task.gold) {
        const ref = goldRef(indexer.index, src, g);
        const relations = ref ? RELATIONS.filter((r) => sets.get(r)!.has(ref.sym.id)) : [];
        for (const r of relations) perRel.get(r)!.gold++;
        const rec: Miss = { corpus: name, task: task.id, gold: `${g.kind} ${g.qualified}`, outcome: 'never', relations };
        const rank = at(ranked, g);
        const w = at(weighed, g);
        if (res.items.some((it, i) => itemHolds(it, rels[i], g))) rec.outcome = 'shown';
        else if (rank < 0) { rec.outcome = 'never'; rec.relation = relations[0] ?? 'none'; }
        else if (w < 0) { rec.outcome = rank >= MAX_WEIGHED ? 'unweighed' : 'low p'; rec.rank = rank; }
        else {
          const row = weighed[w];
          rec.rank = rank; rec.p = row.p;
          rec.outcome = row.shown ? 'cap' : row.p * PACKINGS['new-body'].value > Math.expm1(row.x[TOKENS]) ? 'packing' : 'low p';
        }
        records.push(rec);
      }
    });
  }
  const corpora = [...new Set(records.map((r) => r.corpus))];
  const pct = (n: number, d: number) => (d ? ((100 * n) / d).toFixed(1) : '-').padStart(6);
  console.log(`\nGold symbols of validation tasks by where they were lost (rcl, budget 4,000, value ${PACKINGS['new-body'].value}); % of each corpus's gold`);
  console.log(`${'corpus'.padEnd(24)} tasks   gold ${OUTCOMES.map((o) => o.padStart(10)).join('')}  median tokens`);
  for (const c of [...corpora, 'pooled']) {
    const rs = records.filter((r) => c === 'pooled' || r.corpus === c);
    const tasks = c === 'pooled' ? [...taskCount.values()].reduce((a, b) => a + b, 0) : taskCount.get(c)!;
    const tokens = c === 'pooled' ? [...contextTokens.values()].flat() : contextTokens.get(c)!;
    console.log(`${c.padEnd(24)} ${String(tasks).padStart(5)} ${String(rs.length).padStart(6)} ${OUTCOMES.map((o) => pct(rs.filter((r) => r.outcome === o).length, rs.length).padStart(10)).join('')}  ${String(median(tokens)).padStart(13)}`);
  }
  console.log(`\nNever a candidate, by the first relation that holds it (RELATIONS order); % of each corpus's gold`);
  console.log(`${'relation'.padEnd(26)}${corpora.map((c) => c.slice(0, 14).padStart(15)).join('')}         pooled`);
  for (const r of [...RELATIONS, 'none' as const]) {
    console.log(`${r.padEnd(26)}${[...corpora, 'pooled'].map((c) => { const rs = records.filter((x) => c === 'pooled' || x.corpus === c); return pct(rs.filter((x) => x.outcome === 'never' && x.relation === r).length, rs.length).padStart(15); }).join('')}`);
  }
  console.log(`\nEach relation: never-candidates it holds (% of gold) · all gold it holds (% of gold) · its mean size per task`);
  for (const r of RELATIONS) {
    const cells = [...corpora, 'pooled'].map((c) => {
      const rs = records.filter((x) => c === 'pooled' || x.corpus === c);
      const s = c === 'pooled' ? [...sizes.values()].reduce((a, m) => a + m.get(r)!.size, 0) : sizes.get(c)!.get(r)!.size;
      const tasks = c === 'pooled' ? [...taskCount.values()].reduce((a, b) => a + b, 0) : taskCount.get(c)!;
      return `${pct(rs.filter((x) => x.outcome === 'never' && x.relations.includes(r)).length, rs.length)}${pct(rs.filter((x) => x.relations.includes(r)).length, rs.length)}${String(Math.round(s / tasks)).padStart(6)}`;
    });
    console.log(`${r.padEnd(26)}${cells.join('  |')}`);
  }
  if (list) for (const x of records.filter((x) => x.outcome !== 'shown')) console.log(`${x.corpus}\t${x.task}\t${x.gold}\t${x.outcome}${x.relation ? ' ' + x.relation : ''}${x.rank !== undefined ? ` rank ${x.rank + 1}` : ''}${x.p !== undefined ? ` p ${x.p.toFixed(3)}` : ''}\t${x.relations.join(',')}`);
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
