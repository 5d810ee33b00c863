import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkTextFile } from '../../server/src/retrieval/chunks/index';
import { chunkYaml } from '../../server/src/retrieval/chunks/yaml';
import { APPLICATION_YAML } from './fixtures';
import { assertWellFormed, bySymbol, lineOf } from './helpers';

const PATH = '/repo/src/main/resources/application.yml';

test('yaml: small top-level keys are one chunk each, a large one is split by second-level key', () => {
  const chunks = chunkTextFile(PATH, APPLICATION_YAML);
  assertWellFormed(PATH, APPLICATION_YAML, chunks);
  assert.deepEqual(chunks.map((c) => c.symbol), [
    'server',
    'spring.application',
    'spring.datasource',
    'spring.jpa',
    'spring.kafka',
    'spring.mail',
    'spring.cache',
    'management',
    'spring',
  ]);
  assert.ok(chunks.every((c) => c.kind === 'yaml'));
});

test('yaml: ranges, comments and headers of the pieces', () => {
  const chunks = chunkYaml(PATH, APPLICATION_YAML);
  const server = bySymbol(chunks, 'server');
  assert.equal(server.startLine, 0, 'the leading comment belongs to the first key');
  assert.equal(server.endLine, lineOf(APPLICATION_YAML, 'context-path: /shop'));

  const app = bySymbol(chunks, 'spring.application');
  assert.equal(app.startLine, lineOf(APPLICATION_YAML, 'spring:'), 'the first piece carries the parent key line');
  assert.equal(app.header, '--- # document 1');

  const ds = bySymbol(chunks, 'spring.datasource');
  assert.equal(ds.startLine, lineOf(APPLICATION_YAML, '# Primary database'));
  assert.equal(ds.endLine, lineOf(APPLICATION_YAML, 'pool-name: shop-pool'));
  assert.equal(ds.header, '--- # document 1\nspring:');
  assert.match(ds.description!, /^YAML configuration spring\.datasource in application\.yml\. spring datasource: url, username, password, hikari\./);

  const test2 = chunks[chunks.length - 1];
  assert.equal(test2.header, '--- # document 2 (profile test)');
  assert.equal(test2.startLine, lineOf(APPLICATION_YAML, 'spring:', lineOf(APPLICATION_YAML, '---')));
});

test('yaml: one-line keys and sequence items are packed, single-child keys are descended', () => {
  const steps = Array.from({ length: 10 }, (_, i) => `      - name: Step number ${i}\n        run: ./scripts/step-${i}.sh --with-a-long-argument --and-another-one`).join('\n');
  const text = `name: CI\non: push\nenv:\n  JAVA_VERSION: "21"\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n`;
  const chunks = chunkTextFile('/repo/.github/workflows/ci.yml', text);
  assertWellFormed('/repo/.github/workflows/ci.yml', text, chunks);
  assert.equal(chunks[0].symbol, 'name, on');
  assert.equal(chunks[0].startLine, 0);
  assert.equal(chunks[0].endLine, 1);
  assert.deepEqual(chunks.map((c) => c.symbol), ['name, on', 'env', 'jobs.build.runs-on', 'jobs.build.steps[0-3]', 'jobs.build.steps[4-7]', 'jobs.build.steps[8-9]']);
  const runsOn = chunks[2];
  assert.equal(runsOn.startLine, lineOf(text, 'jobs:'), 'the first piece takes the parent key lines');
  assert.equal(runsOn.header, undefined);
  assert.equal(chunks[3].startLine, lineOf(text, 'steps:'));
  assert.equal(chunks[3].header, 'jobs:\n  build:');
  assert.equal(chunks[4].header, 'jobs:\n  build:\n    steps:');
  assert.equal(chunks[4].startLine, lineOf(text, '- name: Step number 4'));
  assert.equal(chunks[5].endLine, lineOf(text, 'step-9.sh'));
  assert.ok(chunks.every((c) => c.text.length < 900));
});

test('yaml: broken YAML falls back to windows of about 20 lines', () => {
  const broken = `${APPLICATION_YAML}\n\tbad: [indent\n  : : :\n`;
  const chunks = chunkTextFile(PATH, broken);
  assertWellFormed(PATH, broken, chunks);
  assert.ok(chunks.length >= 3);
  assert.ok(chunks.every((c) => c.endLine - c.startLine + 1 <= 20));
  assert.equal(chunks[0].startLine, 0);
});

test('yaml: scalars, empty documents and comment-only files', () => {
  assert.deepEqual(chunkTextFile(PATH, ''), []);
  assert.deepEqual(chunkTextFile(PATH, '# just a comment\n'), []);
  const scalar = chunkTextFile(PATH, 'hello world\n');
  assert.equal(scalar.length, 1);
  assert.equal(scalar[0].text, 'hello world');
  const list = '- a\n- b\n- c\n';
  const chunks = chunkTextFile(PATH, list);
  assertWellFormed(PATH, list, chunks);
  assert.equal(chunks.length, 1);
});

test('yaml: anchors, aliases and merge keys are fine', () => {
  const text = 'defaults: &defaults\n  adapter: postgres\n  host: localhost\ndevelopment:\n  <<: *defaults\n  database: dev\n';
  const chunks = chunkTextFile(PATH, text);
  assertWellFormed(PATH, text, chunks);
  assert.deepEqual(chunks.map((c) => c.symbol), ['defaults', 'development']);
});
