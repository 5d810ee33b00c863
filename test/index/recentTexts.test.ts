import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecentTexts } from '../../server/src/index/files';
import { tempDir } from '../helpers/tempDir';

/** One mtime for every write, a minute back: old enough for a stamp to be trusted, and the same each time. */
const OLD = new Date(Date.now() - 60_000);

/** Writes `text` to `name` in `dir` with the mtime OLD; returns the file's path. */
function writeOld(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  utimesSync(file, OLD, OLD);
  return file;
}

test('RecentTexts: an unchanged file (same size and mtime) is served from memory; a changed or vanished one is read again', () => {
  const dir = tempDir('needle-recent-');
  const file = writeOld(dir, 'A.java', 'class A {}\n');
  const texts = new RecentTexts(1000);
  assert.equal(texts.read(file), 'class A {}\n');
  // Same size and mtime: the stamp says unchanged, so the remembered text is what is served.
  writeOld(dir, 'A.java', 'class B {}\n');
  assert.equal(texts.read(file), 'class A {}\n');
  // A different size: read again.
  writeOld(dir, 'A.java', 'class B { }\n');
  assert.equal(texts.read(file), 'class B { }\n');
  rmSync(file);
  assert.equal(texts.read(file), undefined);
});

test('RecentTexts: a text longer than the bound is read but not kept', () => {
  const dir = tempDir('needle-recent-');
  const text = `class Big { ${'int x; '.repeat(20)}}\n`;
  const file = writeOld(dir, 'Big.java', text);
  const texts = new RecentTexts(text.length - 1);
  assert.equal(texts.read(file), text);
  writeOld(dir, 'Big.java', text.replace('Big', 'Bag'));
  assert.equal(texts.read(file), text.replace('Big', 'Bag'), 'not remembered, so read again');
});

test('RecentTexts.held: the remembered text while the stamp is unchanged, never a read', () => {
  const dir = tempDir('needle-recent-');
  const file = writeOld(dir, 'A.java', 'class A {}\n');
  const texts = new RecentTexts(1000);
  assert.equal(texts.held(file), undefined, 'nothing read yet: held reads nothing');
  texts.read(file);
  assert.equal(texts.held(file), 'class A {}\n');
  writeOld(dir, 'A.java', 'class A { }\n');
  assert.equal(texts.held(file), undefined, 'another size: not the text held');
  rmSync(file);
  assert.equal(texts.held(file), undefined, 'gone');
});

test('RecentTexts.load: reads the disk whatever is held, and what it read is held after', () => {
  const dir = tempDir('needle-recent-');
  const file = writeOld(dir, 'A.java', 'class A {}\n');
  const texts = new RecentTexts(1000);
  assert.equal(texts.load(file), 'class A {}\n');
  writeOld(dir, 'A.java', 'class B {}\n'); // same size and mtime: read() would serve the held text
  assert.equal(texts.read(file), 'class A {}\n');
  assert.equal(texts.load(file), 'class B {}\n', 'load reads the disk');
  assert.equal(texts.held(file), 'class B {}\n');
  rmSync(file);
  assert.equal(texts.load(file), undefined);
});
