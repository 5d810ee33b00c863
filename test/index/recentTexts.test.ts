import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecentTexts } from '../../server/src/index/files';
import { tempDir } from '../helpers/tempDir';

test('RecentTexts: an unchanged file (same size and mtime) is served from memory; a changed or vanished one is read again', (t) => {
  const dir = tempDir('needle-recent-');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'A.java');
  writeFileSync(file, 'class A {}\n');
  const old = new Date(Date.now() - 60_000);
  utimesSync(file, old, old);
  const texts = new RecentTexts(1000);
  assert.equal(texts.read(file), 'class A {}\n');
  // Same size and mtime: the stamp says unchanged, so the remembered text is what is served.
  writeFileSync(file, 'class B {}\n');
  utimesSync(file, old, old);
  assert.equal(texts.read(file), 'class A {}\n');
  // A different size: read again.
  writeFileSync(file, 'class B { }\n');
  utimesSync(file, old, old);
  assert.equal(texts.read(file), 'class B { }\n');
  rmSync(file);
  assert.equal(texts.read(file), undefined);
});

test('RecentTexts: a text longer than the bound is read but not kept', (t) => {
  const dir = tempDir('needle-recent-');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'Big.java');
  const text = `class Big { ${'int x; '.repeat(20)}}\n`;
  writeFileSync(file, text);
  const old = new Date(Date.now() - 60_000);
  utimesSync(file, old, old);
  const texts = new RecentTexts(text.length - 1);
  assert.equal(texts.read(file), text);
  writeFileSync(file, text.replace('Big', 'Bag'));
  utimesSync(file, old, old);
  assert.equal(texts.read(file), text.replace('Big', 'Bag'), 'not remembered, so read again');
});

test('RecentTexts.held: the remembered text while the stamp is unchanged, never a read', (t) => {
  const dir = tempDir('needle-recent-');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'A.java');
  writeFileSync(file, 'class A {}\n');
  const old = new Date(Date.now() - 60_000);
  utimesSync(file, old, old);
  const texts = new RecentTexts(1000);
  assert.equal(texts.held(file), undefined, 'nothing read yet: held reads nothing');
  texts.read(file);
  assert.equal(texts.held(file), 'class A {}\n');
  writeFileSync(file, 'class A { }\n');
  utimesSync(file, old, old);
  assert.equal(texts.held(file), undefined, 'another size: not the text held');
  rmSync(file);
  assert.equal(texts.held(file), undefined, 'gone');
});
