// The names, types and usage tables (retrieval/symbols.ts) are kept compactly and in step with
// edits: per name its ids with their files in parallel arrays, per target its users as one
// sorted array with repeats counted apart. After random edits, deletes, new files and copies of
// a class in a second folder (one declaration id in two files), each must answer exactly what
// its definition, computed here straight from the index's files, says; and so must the index's
// callers map (edgesTo).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { factsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { declarationsByName, typesBySimpleName, usageCounts, usersOf } from '../../server/src/retrieval/symbols';
import { isTypeKind } from '../../server/src/java/symbols';
import { mulberry32 as rng } from '../../scripts/lib/prng.mjs';

// Enough classes that a step's few changes are under the share past which a table is rebuilt.
const NAMES = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Eta', 'Theta', 'Iota', 'Kappa', 'Lambda', 'Sigma', 'Tau', 'Omega'];
const METHODS = ['run', 'load'];

function randomClass(r: () => number, name: string): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const methods = Array.from({ length: 1 + Math.floor(r() * 3) }, () => {
    const other = pick(NAMES);
    return `  public void ${pick(METHODS)}() { new ${other}().${pick(METHODS)}(); ${pick(METHODS)}(); }`;
  });
  const nested = r() < 0.3 ? `  static class ${pick(NAMES)}Part { int ${pick(METHODS)}; }\n` : '';
  return `package p;\npublic class ${name} {\n  int count;\n${nested}${methods.join('\n')}\n}\n`;
}

/** The tables by their definitions: unique ids per name in path then source order (types: sorted); distinct users per target. */
function definitions(index: WorkspaceIndex) {
  const files = index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1));
  const names = (keep: (kind: string) => boolean) => {
    const out = new Map<string, Set<string>>();
    for (const f of files) for (const s of f.facts.symbols) {
      if (s.local || s.anonymous || !keep(s.kind)) continue;
      if (!out.has(s.name)) out.set(s.name, new Set());
      out.get(s.name)!.add(s.id);
    }
    return out;
  };
  const users = new Map<string, Set<string>>();
  for (const f of files) for (const e of f.resolution?.edges ?? []) {
    if (e.kind === 'imports' || e.kind === 'extends' || e.kind === 'implements') continue;
    if (!users.has(e.to)) users.set(e.to, new Set());
    users.get(e.to)!.add(e.from);
  }
  return {
    decl: [...names(() => true)].map(([k, v]) => [k, [...v]]),
    type: [...names(isTypeKind)].map(([k, v]) => [k, [...v].sort()]),
    uses: [...users].map(([k, v]) => [k, v.size]),
    users: [...users].map(([k, v]): [string, string[]] => [k, [...v].sort()]),
  };
}

const sorted = (m: Iterable<[string, unknown]>): [string, unknown][] => [...m].map(([k, v]): [string, unknown] => [k, v]).sort((a, b) => (a[0] < b[0] ? -1 : 1));

test('names, types and usage tables after random edits (one id in two folders too) equal their definitions', async () => {
  const r = rng(1616);
  const index = new WorkspaceIndex();
  const pathOf = (root: string, name: string) => `${root}/p/${name}.java`;
  const put = async (path: string, root: string, text: string) => index.update(path, root, text, await factsOfText(text));
  for (const name of NAMES) await put(pathOf('/a', name), '/a', randomClass(r, name));
  index.resolveAll();
  let duplicated = 0, checked = 0;
  for (let step = 0; step < 60; step++) {
    for (let k = 1 + Math.floor(r() * 2); k > 0; k--) {
      const root = r() < 0.4 ? '/b' : '/a', name = NAMES[Math.floor(r() * NAMES.length)], path = pathOf(root, name);
      if (r() < 0.2 && index.file(path)) index.remove(path);
      else await put(path, root, randomClass(r, name));
    }
    if (NAMES.some((n) => index.file(pathOf('/a', n)) && index.file(pathOf('/b', n)))) duplicated++;
    // Ask at some versions only: a table then takes several versions' changes at once.
    if (r() < 0.3) continue;
    const want = definitions(index);
    assert.deepEqual(sorted(declarationsByName(index)), sorted(want.decl as [string, unknown][]), `step ${step}: declarations by name`);
    assert.deepEqual(sorted(typesBySimpleName(index)), sorted(want.type as [string, unknown][]), `step ${step}: types by simple name`);
    assert.deepEqual(sorted(usageCounts(index)), sorted(want.uses as [string, unknown][]), `step ${step}: usage counts`);
    for (const [to, users] of want.users) assert.deepEqual(usersOf(index, to), users, `step ${step}: users of ${to}`);
    // The callers map (kept in step since the first check; one file held as its path, more as a Set).
    const files = index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const [to] of want.uses) {
      const edges = files.flatMap((f) => (f.resolution?.edges.toArray() ?? []).filter((e) => e.to === to).map((e) => ({ ...e, path: f.path })));
      assert.deepEqual(index.edgesTo(to as string), edges, `step ${step}: edges into ${to}`);
    }
    checked++;
  }
  assert.ok(duplicated >= 10 && checked >= 10, `the sequence had one class in both folders at ${duplicated} steps and was checked at ${checked}`);
  assert.ok([...usageCounts(index).values()].some((n) => n > 1), 'some target has several users');
  // The same files indexed afresh: a first build of the tables with ids declared in both folders.
  const fresh = new WorkspaceIndex();
  for (const f of index.allFiles()) fresh.put(f.path, f.root, f.hash, f.facts);
  fresh.resolveAll();
  assert.ok(fresh.allFiles().some((f) => f.facts.symbols.some((s) => fresh.declaredInSeveralFiles(s.id))), 'ids declared in two folders');
  const want = definitions(fresh);
  assert.deepEqual(sorted(usageCounts(fresh)), sorted(want.uses as [string, unknown][]), 'first build: usage counts');
  assert.ok(want.users.some(([, users]) => users.length > 1));
  for (const [to, users] of want.users) assert.deepEqual(usersOf(fresh, to), users, `first build: users of ${to}`);
});

test('every resolved use comes from a declaration of its own file (what the usage table counts repeats by)', async () => {
  // The usage table (retrieval/symbols.ts) counts a pair twice only where a user id is declared in
  // several files; that holds because a reference's user is a declaration of the file it is in.
  const { Indexer } = await import('../../server/src/index/indexer');
  const { ACME } = await import('../robustness/lib');
  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(ACME());
  let uses = 0;
  for (const f of ix.index.allFiles()) {
    const declared = new Set(f.facts.symbols.map((s) => s.id));
    for (const e of f.resolution?.edges ?? []) {
      if (e.kind === 'imports' || e.kind === 'extends' || e.kind === 'implements') continue;
      uses++;
      assert.ok(declared.has(e.from), `${f.path}: ${e.kind} from ${e.from} to ${e.to}`);
    }
  }
  assert.ok(uses > 500, `${uses} uses checked`);
});
