import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkTextFile } from '../../server/src/retrieval/chunks/index';
import { chunkMarkdown } from '../../server/src/retrieval/chunks/markdown';
import { README_MD } from './fixtures';
import { assertWellFormed, bySymbol, lineOf } from './helpers';

const PATH = '/repo/README.md';

test('markdown: one chunk per section, heading path as symbol and ancestors as header', () => {
  const chunks = chunkTextFile(PATH, README_MD);
  assertWellFormed(PATH, README_MD, chunks);
  assert.deepEqual(chunks.map((c) => c.symbol), [
    'Acme Shop',
    'Acme Shop > Getting started',
    'Acme Shop > Configuration > Database',
    'Acme Shop > Configuration > Messaging',
    'Acme Shop > Setext title',
  ]);
  assert.ok(chunks.every((c) => c.kind === 'section'));
  const db = bySymbol(chunks, 'Acme Shop > Configuration > Database');
  assert.equal(db.startLine, lineOf(README_MD, '### Database'));
  assert.equal(db.endLine, lineOf(README_MD, 'PostgreSQL instance'));
  assert.equal(db.header, '# Acme Shop\n## Configuration');
  assert.equal(db.description, 'Section "Database" under Acme Shop > Configuration of README.md. Set spring.datasource.url to your PostgreSQL instance.');
  assert.equal(bySymbol(chunks, 'Acme Shop').header, undefined);
});

test('markdown: # inside fenced code is not a heading; setext headings are', () => {
  const chunks = chunkMarkdown(PATH, README_MD);
  const start = bySymbol(chunks, 'Acme Shop > Getting started');
  assert.match(start.text, /# this is not a heading/);
  assert.equal(start.endLine, lineOf(README_MD, '```', lineOf(README_MD, './mvnw')));
  const setext = bySymbol(chunks, 'Acme Shop > Setext title');
  assert.equal(setext.startLine, lineOf(README_MD, 'Setext title'));
  assert.match(setext.text, /^Setext title\n-+\n\nText under a setext heading\.$/);
});

test('markdown: a long section is cut between paragraphs, never inside code', () => {
  const paragraphs = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} explains one more aspect of the order workflow, with enough words to take room in a chunk of text.`);
  const code = '```java\nclass A {\n\n  void b() {}\n\n}\n```';
  const text = `# Guide\n\n## Orders\n\n${paragraphs.slice(0, 4).join('\n\n')}\n\n${code}\n\n${paragraphs.slice(4).join('\n\n')}\n`;
  const chunks = chunkMarkdown(PATH, text);
  assertWellFormed(PATH, text, chunks);
  const parts = chunks.filter((c) => c.symbol === 'Guide > Orders');
  assert.ok(parts.length >= 2, `${parts.length} parts`);
  assert.equal(parts[0].header, '# Guide');
  assert.equal(parts[1].header, '# Guide\n## Orders');
  assert.match(parts[1].description!, /Part 2/);
  const withCode = chunks.filter((c) => c.text.includes('class A {'));
  assert.equal(withCode.length, 1);
  assert.match(withCode[0].text, /```java\nclass A \{\n\n {2}void b\(\) \{\}\n\n\}\n```/);
  assert.ok(!chunks.some((c) => c.symbol === 'Guide'), 'a heading with only sub-sections is carried in their header');
});

test('markdown: front matter, no headings, empty input', () => {
  const text = '---\ntitle: Notes\n---\nJust some notes.\n# Heading\nBody\n';
  const chunks = chunkMarkdown('/repo/docs/notes.md', text);
  assertWellFormed('/repo/docs/notes.md', text, chunks);
  assert.deepEqual(chunks.map((c) => [c.symbol, c.startLine, c.endLine]), [['notes.md', 0, 3], ['Heading', 4, 5]]);
  assert.deepEqual(chunkTextFile(PATH, ''), []);
  const plain = chunkTextFile('/repo/CHANGES.markdown', 'one\ntwo\n');
  assert.deepEqual(plain.map((c) => c.text), ['one\ntwo']);
});
