import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkTextFile, textFileType } from '../../server/src/retrieval/chunks/index';
import { APPLICATION_PROPERTIES, APPLICATION_YAML, ORDERS_OPENAPI_YAML, PETSTORE_SWAGGER_JSON, POM_XML, README_MD, SPRING_BEANS_XML } from './fixtures';
import { assertWellFormed, rng } from './helpers';

const FILES: [string, string][] = [
  ['/r/api/orders.yaml', ORDERS_OPENAPI_YAML],
  ['/r/api/petstore.json', PETSTORE_SWAGGER_JSON],
  ['/r/application.properties', APPLICATION_PROPERTIES],
  ['/r/application.yml', APPLICATION_YAML],
  ['/r/README.md', README_MD],
  ['/r/pom.xml', POM_XML],
  ['/r/beans.xml', SPRING_BEANS_XML],
];

test('dispatch by file name; unknown types give no chunks', () => {
  assert.equal(textFileType('/r/a.YML'), 'yaml');
  assert.equal(textFileType('C:\\r\\app.properties'), 'properties');
  assert.equal(textFileType('/r/docs/x.markdown'), 'markdown');
  assert.equal(textFileType('/r/Foo.java'), undefined);
  assert.equal(textFileType('/r/Makefile'), undefined);
  assert.deepEqual(chunkTextFile('/r/Foo.java', 'class Foo {}\n'), []);
  assert.deepEqual(chunkTextFile('/r/notes.txt', 'hello\n'), []);
  assert.equal(chunkTextFile('/r/api/orders.yaml', ORDERS_OPENAPI_YAML).filter((c) => c.kind === 'endpoint').length, 5);
  assert.equal(chunkTextFile('/r/api/orders.json', JSON.stringify({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/a': { get: {} } } }, null, 2)).filter((c) => c.kind === 'endpoint').length, 1);
});

test('every chunker keeps whole lines with exact text', () => {
  for (const [path, text] of FILES) {
    const chunks = chunkTextFile(path, text);
    assert.ok(chunks.length > 0, path);
    assertWellFormed(path, text, chunks);
    assert.ok(chunks.every((c) => c.description && c.symbol), `${path}: every chunk has a symbol and description`);
  }
});

test('chunks stay near the target size (no giant chunks from small sections)', () => {
  for (const [path, text] of FILES) {
    for (const c of chunkTextFile(path, text)) assert.ok(c.text.length <= 760, `${path} ${c.symbol}: ${c.text.length} chars`);
  }
});

test('truncated inputs never throw and keep exact ranges', () => {
  for (const [path, text] of FILES) {
    for (let cut = 0; cut <= text.length; cut += 37) {
      const part = text.slice(0, cut);
      assertWellFormed(path, part, chunkTextFile(path, part));
    }
  }
});

test('randomly mutated inputs never throw and keep exact ranges', () => {
  const random = rng(42);
  const noise = ['{', '}', '[', ']', ':', '"', "'", '<', '>', '/', '\t', '\n', '#', '-', '\\', '&', '*', '!', '\r\n', '\u0000', '\uFEFF'];
  for (const [path, text] of FILES) {
    for (let round = 0; round < 40; round++) {
      const chars = [...text];
      for (let k = 0; k < 1 + Math.floor(random() * 6); k++) {
        const at = Math.floor(random() * chars.length);
        if (random() < 0.5) chars.splice(at, 1 + Math.floor(random() * 20));
        else chars.splice(at, 0, noise[Math.floor(random() * noise.length)]);
      }
      const mutated = chars.join('');
      let chunks;
      assert.doesNotThrow(() => {
        chunks = chunkTextFile(path, mutated);
      }, `${path} round ${round}`);
      assertWellFormed(path, mutated, chunks!);
    }
  }
});

test('garbage of every kind never throws', () => {
  const random = rng(7);
  const garbage = [
    '',
    '\n\n\n',
    '\u0000\u0001\u0002\uFFFD',
    '{'.repeat(5000),
    '['.repeat(3000) + ']'.repeat(2999),
    '- - - - :\n\t: [\n',
    '<'.repeat(2000),
    '#'.repeat(100) + '\n' + '='.repeat(100),
    'a: &x [*x]\nb: *x\n',
    '%YAML 1.2\n---\n!!binary |\n  R0lGODlhDAAMAIQAAP//9/X\n',
    Array.from({ length: 2000 }, () => String.fromCharCode(Math.floor(random() * 128))).join(''),
  ];
  for (const g of garbage) {
    for (const path of ['/r/a.yaml', '/r/a.json', '/r/a.properties', '/r/a.md', '/r/pom.xml', '/r/a.xml']) {
      let chunks;
      assert.doesNotThrow(() => {
        chunks = chunkTextFile(path, g);
      }, `${path} ${JSON.stringify(g.slice(0, 30))}`);
      assertWellFormed(path, g, chunks!);
    }
  }
});

test('chunking is deterministic', () => {
  for (const [path, text] of FILES) assert.deepEqual(chunkTextFile(path, text), chunkTextFile(path, text));
});
