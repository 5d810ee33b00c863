import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { vetText } from '../../server/src/vetting/index';
import { HEX, pemBody, pick, seededRng } from './fake-secrets';

const LABELS: Record<string, string> = {
  'private-key-rsa': 'RSA PRIVATE KEY',
  'private-key-ec': 'EC PRIVATE KEY',
  'private-key-dsa': 'DSA PRIVATE KEY',
  'private-key-openssh': 'OPENSSH PRIVATE KEY',
  'private-key-pkcs8': 'PRIVATE KEY',
  'private-key-encrypted': 'ENCRYPTED PRIVATE KEY',
  'private-key-pgp': 'PGP PRIVATE KEY BLOCK',
};

// Carriers for a multi-line key; `body` lines are the secret.
const BLOCK_CARRIERS: Record<string, (label: string, body: string[]) => string[]> = {
  'pem file': (l, b) => [`-----BEGIN ${l}-----`, ...b, `-----END ${l}-----`],
  'java concatenation': (l, b) => [
    `    private static final String KEY = "-----BEGIN ${l}-----\\n"`,
    ...b.map((x) => `        + "${x}\\n"`),
    `        + "-----END ${l}-----";`,
  ],
  'java one-liner': (l, b) => [`    String key = "-----BEGIN ${l}-----\\n${b.join('\\n')}\\n-----END ${l}-----\\n";`],
  'java text block': (l, b) => ['    String key = """', `        -----BEGIN ${l}-----`, ...b.map((x) => `        ${x}`), `        -----END ${l}-----`, '        """;'],
  'javadoc': (l, b) => ['    /**', '     * Test key:', `     * -----BEGIN ${l}-----`, ...b.map((x) => `     * ${x}`), `     * -----END ${l}-----`, '     */'],
  'line comments': (l, b) => [`// -----BEGIN ${l}-----`, ...b.map((x) => `// ${x}`), `// -----END ${l}-----`],
  'properties': (l, b) => [`tls.key=-----BEGIN ${l}-----\\n\\`, ...b.map((x) => `  ${x}\\n\\`), `  -----END ${l}-----`],
  'yaml block': (l, b) => ['tls:', '  key: |', `    -----BEGIN ${l}-----`, ...b.map((x) => `    ${x}`), `    -----END ${l}-----`, '  port: 8443'],
  'xml element': (l, b) => [`<privateKey>-----BEGIN ${l}-----`, ...b, `-----END ${l}-----</privateKey>`],
  'json': (l, b) => [`  "privateKey": "-----BEGIN ${l}-----\\n${b.join('\\n')}\\n-----END ${l}-----\\n",`],
};

function check(input: string, secretLines: string[], kind: string) {
  const r = vetText(input);
  assert.equal(r.text.split('\n').length, input.split('\n').length, 'line count changed');
  for (const s of secretLines) assert.ok(!r.text.includes(s), `key material survived:\n${r.text}`);
  assert.ok(r.flags.includes('secret-redacted'));
  const reported = r.secrets.filter((s) => s.kind === kind);
  assert.equal(reported.length, 1, `expected one ${kind}, got ${JSON.stringify(r.secrets)}`);
  assert.ok(r.text.includes(`«redacted:${kind}»`));
  return r;
}

describe('vetting: private-key blocks', () => {
  let seed = 7;
  for (const [kind, label] of Object.entries(LABELS)) {
    for (const [carrierName, carrier] of Object.entries(BLOCK_CARRIERS)) {
      it(`${kind} in ${carrierName}`, () => {
        const body = pemBody(seededRng(seed++), 6);
        const input = ['class Fixtures {', ...carrier(label, body), '}'].join('\n');
        const r = check(input, body, kind);
        // Markers and surrounding code stay readable.
        assert.ok(r.text.includes(`-----BEGIN ${label}-----`));
        assert.ok(r.text.includes(`-----END ${label}-----`));
        assert.ok(r.text.startsWith('class Fixtures {\n') && r.text.endsWith('\n}'));
      });
    }
  }

  it('redacts a legacy encrypted PEM with Proc-Type/DEK-Info headers', () => {
    const r = seededRng(99);
    const body = pemBody(r, 5);
    const iv = pick(r, HEX, 32).toUpperCase();
    const input = ['-----BEGIN RSA PRIVATE KEY-----', 'Proc-Type: 4,ENCRYPTED', `DEK-Info: AES-128-CBC,${iv}`, '', ...body, '-----END RSA PRIVATE KEY-----'].join('\n');
    check(input, body, 'private-key-rsa');
  });

  it('redacts a PGP armored key with headers, blank line and checksum', () => {
    const r = seededRng(100);
    const body = [...pemBody(r, 5), '=' + pick(r, 'ABCDEFGHIJ0123456789', 4)];
    const input = ['-----BEGIN PGP PRIVATE KEY BLOCK-----', 'Version: GnuPG v2', '', ...body, '-----END PGP PRIVATE KEY BLOCK-----'].join('\n');
    check(input, body, 'private-key-pgp');
  });

  it('reports a GCP service-account private_key as such', () => {
    const body = pemBody(seededRng(101), 8);
    const input = [
      '{',
      '  "type": "service_account",',
      '  "project_id": "acme-shop",',
      `  "private_key": "-----BEGIN PRIVATE KEY-----\\n${body.join('\\n')}\\n-----END PRIVATE KEY-----\\n",`,
      '  "client_email": "svc@acme-shop.iam.gserviceaccount.com"',
      '}',
    ].join('\n');
    const r = check(input, body, 'gcp-service-account-key');
    assert.ok(r.text.includes('"client_email": "svc@acme-shop.iam.gserviceaccount.com"'));
  });

  it('redacts a truncated key (no END marker) and stops at the first line that is not key material', () => {
    const body = pemBody(seededRng(102), 4).slice(0, 3);
    const input = ['-----BEGIN OPENSSH PRIVATE KEY-----', ...body, '    return key;', '}'].join('\n');
    const r = check(input, body, 'private-key-openssh');
    assert.ok(r.text.endsWith('\n    return key;\n}'));
  });

  it('leaves public keys and certificates alone', () => {
    const body = pemBody(seededRng(103), 4);
    for (const label of ['PUBLIC KEY', 'CERTIFICATE', 'RSA PUBLIC KEY']) {
      const input = [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join('\n');
      const r = vetText(input);
      assert.equal(r.text, input);
      assert.deepEqual(r.secrets, []);
    }
  });
});
