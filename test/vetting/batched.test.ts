// Prose is redacted in batches (vetting/index.ts redactTexts: the line-local texts joined by '\n'
// and redacted once). A batched redaction must equal each text's own, whatever sits in the texts
// around it: a private key cut across texts (the one multi-line detector), a URL's credentials or
// a connection string's scheme at a text's end with the rest at the next one's start (classes
// like url-credentials' [^\s…] and lineBefore() must not reach across), and texts with '\r'.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactText, redactTexts } from '../../server/src/vetting';
import { CARRIERS, pemBody, SECRET_SPECS, seededRng, type Rng } from './fake-secrets';

const FRAGMENTS = [
  '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', '-----BEGIN PRIVATE KEY-----', '-----END PRIVATE KEY-----',
  'https://', 'admin', ':', 's3cr3tPassw0rd', '@db.example.com/x', 'jdbc:', 'postgresql:', 'mongodb+srv://', 'redis://',
  '?password=', ';pwd=', 'hunter2Xy9', '?sv=2020&', '&sig=', 'abcdEFGH1234abcdEFGH%3D', 'Bearer ', 'Basic ', 'dXNlcjpwYXNz',
  'password', ' = ', '"', 'token: ', 'apiKey=', ' ', '\t', '\n', '\n', '\r\n', 'See the ', 'value', '{@code x}', '*',
];

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function randomText(r: Rng): string {
  const parts: string[] = [];
  const n = Math.floor(r() * 8);
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.25) {
      const spec = pick(r, SECRET_SPECS);
      parts.push(pick(r, Object.values(CARRIERS))(spec.key, spec.make(r).value));
    } else if (x < 0.35) parts.push(pemBody(r, 1 + Math.floor(r() * 3)).join('\n'));
    else parts.push(pick(r, FRAGMENTS));
  }
  return parts.join(r() < 0.5 ? '' : '\n');
}

describe('batched redaction', () => {
  it('equals each text redacted alone, on random neighbours', () => {
    const r = seededRng(1818);
    let redacted = 0;
    for (let n = 0; n < 1500; n++) {
      const texts = Array.from({ length: 1 + Math.floor(r() * 12) }, () => randomText(r));
      const alone = texts.map(redactText);
      redacted += alone.filter((t, i) => t !== texts[i]).length;
      assert.deepEqual(redactTexts(texts), alone, JSON.stringify(texts));
    }
    assert.ok(redacted > 1000, `only ${redacted} texts had a redaction: the cases do not exercise the detectors`);
  });

  it('a private key cut across texts is redacted as each text alone redacts it', () => {
    const r = seededRng(7);
    const body = pemBody(r, 4);
    const texts = ['-----BEGIN RSA PRIVATE KEY-----', body.join('\n'), '-----END RSA PRIVATE KEY-----', `${body[0]}\n-----END RSA PRIVATE KEY-----`];
    assert.deepEqual(redactTexts(texts), texts.map(redactText));
    assert.equal(redactTexts(texts)[1], body.join('\n'), 'key material outside a marked block is not a private key');
  });

  it("a URL's credentials split at a text's end are not joined with the next text", () => {
    const texts = ['connect to jdbc:postgresql://admin:', 's3cr3tPassw0rd@db.example.com/x', 'https://admin:hunter2Xy9', '@db.example.com/', 'Bearer', ' abcdEFGH1234abcdEFGH'];
    assert.deepEqual(redactTexts(texts), texts.map(redactText));
  });
});
