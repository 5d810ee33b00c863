// Secrets: a seeded corpus of every secret kind of test/vetting/fake-secrets.ts planted in Java
// constants, setters, comments and Javadoc and in .properties, .yaml and .xml files of a
// workspace; then retrievals with the cursor in methods next to them and queries naming them.
// No secret may reach a result unredacted (the whole result is searched, not only item texts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, retrieveAt } from '../../server/src/service';
import { CARRIERS, SECRET_SPECS, seededRng } from '../vetting/fake-secrets';
import { ACME, copyWorkspace, prng } from './lib';

const SEED = Number(process.env.NEEDLE_FUZZ_SEED ?? 7);
const ROUNDS = Number(process.env.NEEDLE_SECRET_ROUNDS ?? 1);

const pascal = (w: string[]) => w.map((x) => x[0].toUpperCase() + x.slice(1)).join('');
const JAVA_CARRIERS = ['java-constant', 'java-setter', 'java-comment', 'javadoc'] as const;

test('secrets: planted secrets of every kind never reach a retrieval result unredacted', { timeout: 300_000 }, async (t) => {
  const root = copyWorkspace(ACME());
  const pkgDir = join(root, 'src/main/java/com/acme/cfg');
  mkdirSync(pkgDir, { recursive: true });
  const res = join(root, 'src/main/resources');
  const secrets: { kind: string; secret: string; file: string; line: number; key: string[] }[] = [];
  const props: string[] = [], yaml: string[] = ['integrations:'], xml: string[] = ['<?xml version="1.0"?>', '<config>'];
  for (let round = 0; round < ROUNDS; round++) {
    SECRET_SPECS.forEach((spec, i) => {
      const r = seededRng(SEED * 1000 + round * 100 + i);
      const mk = () => spec.make(r);
      const name = `${pascal(spec.key)}Client${round ? round : ''}${i}`;
      const a = mk(), b = mk(), c = mk(), d = mk();
      const constLine = CARRIERS['java-constant'](spec.key, a.value);
      const lines = [
        'package com.acme.cfg;', '', 'import com.acme.platform.config.AcmeSettings;', '',
        '/**', ` * Client for ${spec.key.join(' ')}.`, CARRIERS.javadoc(spec.key, b.value), ' */',
        `public class ${name} {`, constLine, '', `    /** Connects with the ${spec.key.join(' ')}. */`,
        `    public String connect(AcmeSettings config) {`, CARRIERS['java-comment'](spec.key, c.value).replace(/^ {4}/, '        '),
        CARRIERS['java-setter'](spec.key, d.value), `        return ${constLine.match(/String (\w+) =/)![1]}.substring(0, 4);`, '    }', '}', '',
      ];
      writeFileSync(join(pkgDir, `${name}.java`), lines.join('\n'));
      const bodyLine = lines.findIndex((l) => l.includes('return '));
      for (const s of [a, b, c, d]) secrets.push({ kind: spec.kind, secret: s.secret, file: join(pkgDir, `${name}.java`), line: bodyLine, key: spec.key });
      const e = mk(), f = mk(), g = mk();
      props.push(CARRIERS.properties(spec.key, e.value));
      yaml.push(CARRIERS[i % 2 ? 'yaml' : 'yaml-quoted'](spec.key, f.value));
      xml.push(CARRIERS[i % 2 ? 'xml-element' : 'xml-attribute'](spec.key, g.value));
      for (const s of [e, f, g]) secrets.push({ kind: spec.kind, secret: s.secret, file: '', line: 0, key: spec.key });
    });
  }
  xml.push('</config>');
  writeFileSync(join(res, 'integrations.properties'), props.join('\n') + '\n');
  writeFileSync(join(res, 'integrations.yaml'), yaml.join('\n') + '\n');
  writeFileSync(join(res, 'integrations.xml'), xml.join('\n') + '\n');

  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(root);
  const rand = prng(SEED);
  const javaSecrets = secrets.filter((s) => s.file);
  let retrievals = 0, redactedItems = 0;
  const leaks: string[] = [];
  const seen = new Set<string>();
  const stride = Number(process.env.NEEDLE_SECRET_STRIDE ?? 4);
  for (const s of javaSecrets.filter((_, i) => i % stride === 0)) {
    const queries = [s.key.join(' '), `${s.key.join('.')} in integrations.properties`, `${s.key.join('_').toUpperCase()} yaml xml config`];
    const query = queries[Math.floor(rand() * queries.length)];
    const r = await retrieveAt(ix, { textDocument: { uri: pathToFileURL(s.file).toString() }, position: { line: s.line, character: 8 }, query, budgetTokens: 3000 }, defaultSettings());
    retrievals++;
    const json = JSON.stringify(r);
    for (const x of secrets) if (json.includes(x.secret)) leaks.push(`${x.kind} (${x.key.join('.')}) leaked at ${s.file}:${s.line} query "${query}"`);
    redactedItems += r.items.filter((i) => i.flags?.includes('secret-redacted')).length;
    for (const i of r.items) seen.add(i.uri.split('/').pop()!);
  }
  const kinds = new Set(secrets.map((s) => s.kind)).size;
  const summary = { kinds, secretsPlanted: secrets.length, retrievals, itemsRedacted: redactedItems, leaks: leaks.length, configFilesShown: [...seen].filter((f) => /integrations\./.test(f)) };
  t.diagnostic(`secrets: ${JSON.stringify(summary)}`);
  assert.ok(kinds >= 30, `only ${kinds} kinds`);
  assert.ok(redactedItems > 0, 'no item was ever redacted: the planted secrets were never retrieved, the test proves nothing');
  assert.deepEqual([...new Set(leaks)], []);
});
