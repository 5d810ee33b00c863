import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkTextFile } from '../../server/src/retrieval/chunks/index';
import { chunkProperties, groupPrefix, parseProperties } from '../../server/src/retrieval/chunks/properties';
import { LineIndex } from '../../server/src/retrieval/chunks/lines';
import { APPLICATION_PROPERTIES } from './fixtures';
import { assertWellFormed, bySymbol, lineOf } from './helpers';

const PATH = '/repo/src/main/resources/application.properties';

test('properties: chunks by dotted key group, comments kept with their group', () => {
  const chunks = chunkTextFile(PATH, APPLICATION_PROPERTIES);
  assertWellFormed(PATH, APPLICATION_PROPERTIES, chunks);
  assert.deepEqual(chunks.map((c) => c.symbol), ['spring.application, server', 'spring.datasource', 'spring.jpa', 'logging.level', 'acme.payments']);
  assert.ok(chunks.every((c) => c.kind === 'properties'));
  const ds = bySymbol(chunks, 'spring.datasource');
  assert.equal(ds.startLine, lineOf(APPLICATION_PROPERTIES, '# Database connection'));
  assert.equal(ds.endLine, lineOf(APPLICATION_PROPERTIES, 'hikari.connection-timeout'));
  assert.match(ds.description!, /^Configuration properties spring\.datasource \(spring datasource\) in application\.properties\. Keys: url, username, password, driver-class-name, hikari\.maximum-pool-size, hikari\.connection-timeout\. Database connection\./);
  assert.ok(!ds.description!.includes('secret'), 'password values are not copied into descriptions');
  const logging = bySymbol(chunks, 'logging.level');
  assert.equal(logging.text.split('\n')[0], '! Logging levels');
});

test('properties: continuation lines stay with their entry', () => {
  const chunks = chunkTextFile(PATH, APPLICATION_PROPERTIES);
  const pay = bySymbol(chunks, 'acme.payments');
  assert.equal(pay.endLine, lineOf(APPLICATION_PROPERTIES, 'acme.payments.timeout'));
  assert.match(pay.text, /\\\n    \/v2\/charges/);
  const entries = parseProperties(new LineIndex(APPLICATION_PROPERTIES));
  const url = entries.find((e) => e.key === 'acme.payments.provider-url')!;
  assert.equal(url.end - url.keyLine, 1);
  assert.equal(url.value, 'https://payments.example/api /v2/charges');
});

test('properties: key syntax (colon, spaces, escapes) is parsed', () => {
  const text = 'a.b.c : 1\nx\\:y.z=2\nplain value\nempty\n';
  const keys = parseProperties(new LineIndex(text)).map((e) => [e.key, e.value]);
  assert.deepEqual(keys, [['a.b.c', '1'], ['x:y.z', '2'], ['plain', 'value'], ['empty', '']]);
});

test('properties: a large group is split by the next key segment', () => {
  const lines: string[] = [];
  for (const sub of ['consumer', 'producer', 'streams']) {
    lines.push(`# Kafka ${sub}`);
    for (let i = 0; i < 8; i++) lines.push(`spring.kafka.${sub}.setting-number-${i}=value-${i}-for-the-${sub}`);
  }
  const text = `${lines.join('\n')}\n`;
  const chunks = chunkProperties(PATH, text);
  assertWellFormed(PATH, text, chunks);
  assert.deepEqual(chunks.map((c) => c.symbol), ['spring.kafka.consumer', 'spring.kafka.producer', 'spring.kafka.streams']);
  assert.ok(chunks.every((c) => c.text.startsWith('# Kafka ')));
  assert.ok(chunks.every((c) => c.text.length < 750));
});

test('properties: group names are common prefixes, never a whole key', () => {
  const idx = new LineIndex('server.port=1\nserver.address=x\nname=y\n');
  const [port, address, name] = parseProperties(idx);
  assert.equal(groupPrefix([port]), 'server');
  assert.equal(groupPrefix([port, address]), 'server');
  assert.equal(groupPrefix([name]), 'name');
  assert.equal(groupPrefix([port, name]), '');
});

test('properties: comments only, empty and odd files never throw', () => {
  assert.deepEqual(chunkTextFile(PATH, ''), []);
  assert.deepEqual(chunkTextFile(PATH, '# nothing here\n! really\n\n'), []);
  for (const odd of ['=\n:\n\\', '\\\n\\\n\\', 'a=b\\', '\u0000\u0001=\u0002', 'x'.repeat(5000)]) {
    const chunks = chunkTextFile(PATH, odd);
    assertWellFormed(PATH, odd, chunks);
  }
});
