// Shape changes re-resolve only the files whose result they can change (workspaceIndex.ts: member
// names looked up), and the index still equals a fresh build. Each case edits one type in a way that
// changes how another file resolves through one Java rule: overloads, inheritance, field and member
// type lookup, static imports, chained calls, constructors, and another file's imports.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashText } from '../../server/src/index/files';
import { factsOfText, refsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';

type Files = Record<string, string>;

async function build(files: Map<string, string>, releaseRefs: boolean): Promise<WorkspaceIndex> {
  const index = new WorkspaceIndex();
  index.releaseRefs = releaseRefs;
  index.refsLoader = (path, hash) => refsOfText(files.get(path), hash);
  for (const [p, t] of [...files].sort()) index.put(p, '/ws', hashText(t), await factsOfText(t));
  index.resolveAll();
  return index;
}

/** Applies one edit incrementally; checks it equals a fresh build and that `user`'s resolution changed. Returns the files re-resolved. */
async function edit(initial: Files, path: string, text: string, user?: string): Promise<number> {
  const files = new Map(Object.entries(initial));
  const index = await build(files, true);
  const before = user && index.canonical().split('\n').filter((l) => l.includes(`${user}#`) || l.startsWith(`F ${user}`)).join('\n');
  files.set(path, text);
  const reresolved = index.update(path, '/ws', hashText(text), await factsOfText(text));
  const fresh = (await build(files, false)).canonical();
  assert.equal(index.canonical(), fresh);
  if (user) {
    const after = fresh.split('\n').filter((l) => l.includes(`${user}#`) || l.startsWith(`F ${user}`)).join('\n');
    assert.notEqual(after, before, 'the edit should change how the other file resolves (else the case tests nothing)');
  }
  return reresolved;
}

const A = '/ws/p/A.java';
const F = '/ws/p/F.java';

test('an added overload re-resolves the callers of that name', async () => {
  const files = {
    [A]: 'package p;\npublic class A { public void foo(Object o) {} }\n',
    [F]: 'package p;\npublic class F { void m(A a) { a.foo("x"); } }\n',
  };
  await edit(files, A, 'package p;\npublic class A { public void foo(Object o) {} public void foo(String s) {} }\n', 'p.F');
});

test('a method added to a supertype reaches calls through a subclass', async () => {
  const files = {
    [A]: 'package p;\npublic class A {}\n',
    '/ws/p/B.java': 'package p;\npublic class B extends A {}\n',
    [F]: 'package p;\npublic class F { void m(B b) { b.foo(); } }\n',
  };
  await edit(files, A, 'package p;\npublic class A { public void foo() {} }\n', 'p.F');
});

test('a field added to a supertype shadows the same bare name', async () => {
  const files = {
    '/ws/p/Base.java': 'package p;\npublic class Base { public int count; }\n',
    [A]: 'package p;\npublic class A extends Base {}\n',
    [F]: 'package p;\npublic class F extends A { void m() { count++; } }\n',
  };
  await edit(files, A, 'package p;\npublic class A extends Base { public int count; }\n', 'p.F');
});

test('a member type added to a supertype shadows a top-level type of that name', async () => {
  const files = {
    [A]: 'package p;\npublic class A {}\n',
    '/ws/p/Bar.java': 'package p;\npublic class Bar {}\n',
    [F]: 'package p;\npublic class F extends A { Bar bar; }\n',
  };
  await edit(files, A, 'package p;\npublic class A { public static class Bar {} }\n', 'p.F');
});

test('an overload added to a statically imported method', async () => {
  const files = {
    '/ws/q/U.java': 'package q;\npublic class U { public static int max(Object a) { return 0; } }\n',
    [F]: 'package p;\nimport static q.U.max;\npublic class F { void m() { max(1); } }\n',
  };
  await edit(files, '/ws/q/U.java', 'package q;\npublic class U { public static int max(Object a) { return 0; } public static int max(int a) { return a; } }\n', 'p.F');
});

test('a changed return type reaches the calls chained after it', async () => {
  const files = {
    [A]: 'package p;\npublic class A { public B foo() { return null; } }\n',
    '/ws/p/B.java': 'package p;\npublic class B { public void bar() {} }\n',
    '/ws/p/C.java': 'package p;\npublic class C { public void bar() {} }\n',
    [F]: 'package p;\npublic class F { void m(A a) { a.foo().bar(); } }\n',
  };
  await edit(files, A, 'package p;\npublic class A { public C foo() { return null; } }\n', 'p.F');
});

test('an added constructor re-resolves instance creations', async () => {
  const files = {
    [A]: 'package p;\npublic class A { public A(Object o) {} }\n',
    [F]: 'package p;\npublic class F { Object m() { return new A(1); } }\n',
  };
  await edit(files, A, 'package p;\npublic class A { public A(Object o) {} public A(int i) {} }\n', 'p.F');
});

test("a changed import changes what another file's member signatures mean", async () => {
  const files = {
    [A]: 'package p;\nimport q.Bar;\npublic class A { public Bar foo() { return null; } }\n',
    '/ws/p/Bar.java': 'package p;\npublic class Bar { public void baz() {} }\n',
    '/ws/q/Bar.java': 'package q;\npublic class Bar { public void baz() {} }\n',
    [F]: 'package p;\npublic class F { void m(A a) { a.foo().baz(); } }\n',
  };
  await edit(files, A, 'package p;\npublic class A { public Bar foo() { return null; } }\n', 'p.F');
});

test('a member no other file looks up re-resolves only its own file', async () => {
  const files = {
    [A]: 'package p;\npublic class A { public void foo() {} }\n',
    [F]: 'package p;\npublic class F { void m(A a) { a.foo(); } }\n',
    '/ws/p/G.java': 'package p;\npublic class G extends A { void m() { foo(); } }\n',
  };
  const reresolved = await edit(files, A, 'package p;\npublic class A { public void foo() {} public void unusedElsewhere() {} }\n');
  assert.equal(reresolved, 1);
  // A changed supertype list is a header change: every file that consulted A resolves again.
  assert.equal(await edit(files, A, 'package p;\npublic class A implements Runnable { public void foo() {} public void run() {} }\n'), 3);
});

test("a local class changes what a name in another file's member signatures means", async () => {
  const files = {
    [A]: 'package p;\npublic class A { public Bar foo() { return null; } }\n',
    '/ws/p/Bar.java': 'package p;\npublic class Bar { public void baz() {} }\n',
    [F]: 'package p;\npublic class F { void m(A a) { a.foo().baz(); } }\n',
  };
  await edit(files, A, 'package p;\npublic class A { public Bar foo() { return null; } void m() { class Bar { void baz() {} } } }\n', 'p.F');
});
