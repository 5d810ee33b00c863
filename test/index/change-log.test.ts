// The index's change log (workspaceIndex.ts changedSince): the tables kept in step with the index
// read only the files it names, so it must name every file whose facts or resolution changed, the
// consulters an edit re-resolves included, and say when it no longer reaches back far enough.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashText } from '../../server/src/index/files';
import { factsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { declarationsByName, usageCounts } from '../../server/src/retrieval/symbols';

const ROOT = '/ws';
const path = (n: string) => `${ROOT}/p/${n}.java`;

async function put(index: WorkspaceIndex, texts: Map<string, string>, name: string, text: string, update = true): Promise<void> {
  texts.set(path(name), text);
  const facts = await factsOfText(text);
  if (update) index.update(path(name), ROOT, hashText(text), facts);
  else index.put(path(name), ROOT, hashText(text), facts);
}

async function fresh(texts: Map<string, string>): Promise<WorkspaceIndex> {
  const index = new WorkspaceIndex();
  for (const [p, t] of [...texts].sort()) index.put(p, ROOT, hashText(t), await factsOfText(t));
  index.resolveAll();
  return index;
}

/** A table's contents as plain data, to compare an updated index's with a fresh one's. */
const tables = (index: WorkspaceIndex) => ({
  names: [...declarationsByName(index)].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  usage: [...usageCounts(index)].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
});

test('change log: names the edited file, the consulters it re-resolved and removed files, sorted, and nothing else', async () => {
  const texts = new Map<string, string>();
  const index = new WorkspaceIndex();
  await put(index, texts, 'Base', 'package p;\npublic class Base {\n  public int size() { return 0; }\n}\n', false);
  await put(index, texts, 'User', 'package p;\npublic class User {\n  int f(Base b) { return b.size(); }\n}\n', false);
  await put(index, texts, 'Other', 'package p;\npublic class Other {\n  int g() { return 1; }\n}\n', false);
  index.resolveAll();
  const start = index.changeSeq;
  assert.deepEqual(index.changedSince(start), [], 'nothing changed yet');
  // A member added to Base changes what User looks up (size): both, not Other.
  await put(index, texts, 'Base', 'package p;\npublic class Base {\n  public int size() { return 0; }\n  public int size(int x) { return x; }\n}\n');
  assert.deepEqual(index.changedSince(start), [path('Base'), path('User')]);
  const afterEdit = index.changeSeq;
  index.remove(path('Other'));
  assert.deepEqual(index.changedSince(afterEdit), [path('Other')]);
  assert.deepEqual(index.changedSince(start), [path('Base'), path('Other'), path('User')]);
  assert.equal(index.changedSince(index.changeSeq + 1), undefined, 'a sequence number from the future');
});

test('change log: a table that lags beyond the log compares every file, and both ways equal a fresh build', async () => {
  const texts = new Map<string, string>();
  const index = new WorkspaceIndex();
  for (let i = 0; i < 6; i++) await put(index, texts, `C${i}`, `package p;\npublic class C${i} {\n  int m${i}() { return C${(i + 1) % 6}.k(); }\n  static int k() { return ${i}; }\n}\n`, false);
  index.resolveAll();
  const first = tables(index);
  assert.ok(first.usage.length > 0, 'the workspace uses something');
  // A few edits: the tables follow the log.
  await put(index, texts, 'C2', 'package p;\npublic class C2 {\n  int renamed() { return C3.k(); }\n  static int k() { return 2; }\n}\n');
  await put(index, texts, 'C7', 'package p;\npublic class C7 {\n  int m7() { return C2.k() + C0.k(); }\n}\n');
  const seq = index.changeSeq;
  assert.deepEqual(tables(index), tables(await fresh(texts)), 'after edits read from the log');
  // Many more edits than the log keeps: the next read compares every file.
  for (let i = 0; i < 2500; i++) await put(index, texts, 'C5', `package p;\npublic class C5 {\n  int m5() { return C0.k(); }\n  static int k() { return ${i}; }\n}\n`);
  assert.equal(index.changedSince(seq), undefined, 'the log no longer reaches back');
  index.remove(path('C4'));
  texts.delete(path('C4'));
  assert.deepEqual(tables(index), tables(await fresh(texts)), 'after a lag beyond the log');
});
