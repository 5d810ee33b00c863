// Exploration only (not committed): member-model rows with candidate facts for new-feature screening.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSettings, retrieveAt } from '../server/src/service';
import type { MemberRow } from '../server/src/retrieval/memberModel';
import type { SymbolRef, WorkspaceIndex } from '../server/src/index/workspaceIndex';
import { isTypeKind } from '../server/src/java/symbols';
import { membersOf, ownerType, resolveTypeName, typeNames } from '../server/src/retrieval/symbols';
import { arg, args } from './cli';
import { DEVELOPMENT_CORPORA, INJECTED_CORPORA } from './corpora/list.mjs';
import { forEachValidationTask, goldRef } from './retrieval/validationTasks';

const PRIM = new Set(['void', 'boolean', 'int', 'long', 'short', 'byte', 'char', 'float', 'double', 'String', 'Object']);
const refTypes = (t: string | undefined) => typeNames(t).filter((n) => !PRIM.has(n) && /^[A-Z]/.test(n));
const USE = new Set(['call', 'new', 'ctorCall', 'field', 'type', 'methodRef']);

(async () => {
  const test = Number(arg('--tasks') ?? 40), validation = Number(arg('--validation') ?? 40);
  const names = args('--corpus').length ? args('--corpus') : [...DEVELOPMENT_CORPORA, ...INJECTED_CORPORA];
  const out: unknown[] = [];
  for (const name of names) {
    await forEachValidationTask(process.cwd(), name, { test, validation }, async ({ task, src, indexer, uri }) => {
      let rows: MemberRow[] = [];
      const settings = { ...defaultSettings(), observeMembers: (r: MemberRow[]) => { rows = r; } };
      await retrieveAt(indexer, { textDocument: { uri }, position: task.cursor, budgetTokens: 4000, mode: 'rcl' }, settings);
      const index: WorkspaceIndex = indexer.index;
      const m = index.enclosingSymbol(join(src, task.file), task.cursor.line, task.cursor.character);
      if (!m) return;
      const gold = new Set(task.gold.map((g) => goldRef(index, src, g)?.sym.id));
      const owner = ownerType(m);
      const ret = refTypes(m.sym.returnType);
      const retAny = typeNames(m.sym.returnType).filter((n) => n !== 'void');
      const params = new Set((m.sym.params ?? []).flatMap((p) => refTypes(p.type)));
      // supertypes (transitive) of the owner
      const supers = new Set<string>();
      const queue = owner ? [owner] : [];
      while (queue.length) {
        const t = queue.pop()!;
        for (const e of index.edgesFrom(t.sym.id)) if ((e.kind === 'extends' || e.kind === 'implements') && !supers.has(e.to)) { supers.add(e.to); const r = index.symbol(e.to); if (r) queue.push(r); }
      }
      // cousins: same-name methods in other subtypes of the owner's supertypes
      const cousinUse = new Set<string>();
      const superOf = owner ? index.edgesFrom(owner.sym.id).filter((e) => e.kind === 'extends' || e.kind === 'implements').map((e) => e.to) : [];
      for (const s of superOf) for (const e of index.edgesTo(s)) {
        if (e.kind !== 'extends' && e.kind !== 'implements') continue;
        const sub = index.symbol(e.from);
        if (!sub || sub.sym.id === owner?.sym.id) continue;
        for (const c of membersOf(sub)) if (c.sym.name === m.sym.name && c.sym.kind === m.sym.kind) for (const u of index.edgesFrom(c.sym.id)) if (USE.has(u.kind)) cousinUse.add(u.to);
      }
      // callers' uses
      const callerUse = new Map<string, number>();
      for (const e of index.edgesTo(m.sym.id)) for (const u of new Set(index.edgesFrom(e.from).filter((x) => USE.has(x.kind)).map((x) => x.to))) callerUse.set(u, (callerUse.get(u) ?? 0) + 1);
      // methods of the owner that no one calls (private or not) -- unused own
      for (const r of rows) {
        const c = index.symbol(r.id);
        if (!c) continue;
        const cs = c.sym;
        const cOwner = ownerType(c);
        const cRet = refTypes(cs.returnType ?? cs.type);
        const cRetAny = typeNames(cs.returnType ?? cs.type).filter((n) => n !== 'void');
        const cParams = (cs.params ?? []).flatMap((p) => refTypes(p.type));
        const callers = index.edgesTo(cs.id).filter((e) => USE.has(e.kind)).length;
        out.push({
          corpus: name, task: task.id, id: r.id, y: gold.has(r.id) ? 1 : 0, x: r.x, p: r.p, shown: r.shown,
          f: {
            retSame: ret.length && cRet.some((n) => ret.includes(n)) ? 1 : 0,
            retSameAny: retAny.length && cRetAny.length && cRetAny[cRetAny.length - 1] === retAny[retAny.length - 1] ? 1 : 0,
            ctorOfRet: cs.kind === 'constructor' && cOwner && ret.includes(cOwner.sym.name) ? 1 : 0,
            takesParamType: cParams.some((n) => params.has(n)) ? 1 : 0,
            retIsParamType: cRet.some((n) => params.has(n)) ? 1 : 0,
            ownerIsRet: cOwner && ret.includes(cOwner.sym.name) ? 1 : 0,
            inherited: cOwner && supers.has(cOwner.sym.id) ? 1 : 0,
            cousinUse: cousinUse.has(cs.id) ? 1 : 0,
            callerUse: Math.log1p(callerUse.get(cs.id) ?? 0),
            logCallers: Math.log1p(callers),
            noCallers: callers === 0 && !isTypeKind(cs.kind) ? 1 : 0,
            ownNoCallers: callers === 0 && cOwner?.sym.id === owner?.sym.id && !isTypeKind(cs.kind) ? 1 : 0,
            abstractOrIface: cs.modifiers.includes('abstract') ? 1 : 0,
            isPrivate: cs.modifiers.includes('private') ? 1 : 0,
            isGetter: /^(get|is|has)[A-Z]/.test(cs.name) && !(cs.params?.length) ? 1 : 0,
            isSetter: /^set[A-Z]/.test(cs.name) ? 1 : 0,
            deprecated: cs.annotations.includes('Deprecated') ? 1 : 0,
            overrides: cs.annotations.includes('Override') ? 1 : 0,
          },
        });
      }
    });
    console.error(name, out.length);
  }
  writeFileSync(arg('--out') ?? '/tmp/s19/x/rows.json', JSON.stringify(out));
  process.exit(0);
})();
