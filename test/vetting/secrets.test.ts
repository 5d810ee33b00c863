import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { vetText, SECRET_KINDS } from '../../server/src/vetting/index';
import { CARRIERS, SECRET_SPECS, seededRng } from './fake-secrets';

const lineCount = (s: string) => s.split('\n').length;

describe('vetting: seeded secret corpus', () => {
  const kinds = new Set(SECRET_SPECS.map((s) => s.kind));

  it('covers at least 30 secret kinds, all of them known to the detector', () => {
    assert.ok(kinds.size >= 30, `only ${kinds.size} kinds`);
    for (const k of kinds) assert.ok(SECRET_KINDS.includes(k), `${k} not in SECRET_KINDS`);
  });

  SECRET_SPECS.forEach((spec, specIndex) => {
    for (const [carrierName, carrier] of Object.entries(CARRIERS)) {
      it(`${spec.kind} (${spec.key.join('.')}) in ${carrierName}`, () => {
        // Same seed for a spec across carriers: a different value per spec, reproducible.
        const { value, secret } = spec.make(seededRng(1000 + specIndex));
        const line = carrier(spec.key, value);
        const input = ['// context before', line, '// context after', ''].join('\n');
        const r = vetText(input);
        assert.ok(!r.text.includes(secret), `secret survived:\n${r.text}`);
        assert.equal(lineCount(r.text), lineCount(input));
        assert.ok(r.flags.includes('secret-redacted'));
        assert.ok(
          r.secrets.some((s) => s.kind === spec.kind && s.line === 1),
          `expected ${spec.kind} on line 1, got ${JSON.stringify(r.secrets)}\n${r.text}`,
        );
        assert.ok(r.text.includes(`«redacted:${spec.kind}»`));
        // Only the value goes: the surrounding lines and the start of the line stay.
        const [before, redacted, after] = r.text.split('\n');
        assert.equal(before, '// context before');
        assert.equal(after, '// context after');
        const keep = line.slice(0, line.indexOf(value.slice(0, 3)));
        assert.ok(redacted.startsWith(keep), `key lost: ${redacted}`);
      });
    }
  });
});

describe('vetting: secrets in ordinary code', () => {
  it('redacts several secrets on one line and reports each', () => {
    const r = vetText('String url = "https://ci:' + 'Zq8' + 'xP2mW7vLk4@ci.example.com"; String key = "AKIA' + 'Q7WZ3PLM4XN2RT6Y";');
    assert.deepEqual(r.secrets.map((s) => s.kind).sort(), ['aws-access-key-id', 'url-credentials']);
    assert.ok(!r.text.includes('xP2mW7vLk4'));
  });

  it('keeps the key name and replaces only the value', () => {
    const r = vetText('spring.datasource.password=Wq4' + '!vR8zT1u');
    assert.equal(r.text, 'spring.datasource.password=«redacted:password»');
  });

  // Notations beyond the carrier matrix: each line must lose exactly its value.
  const NOTATIONS: [string, string, string][] = [
    ['<entry key="token" value="b4c9a2' + '89323b21a01c3e940f150eb9b8c542587f1abfd8f0e1cc1ffc5e475514"/>', 'token', '<entry key="token" value="«redacted:token»"/>'],
    ['<property name="password" value="Tr0ub4' + 'dor&amp;3"/>', 'password', '<property name="password" value="«redacted:password»"/>'],
    ['mvn deploy -Dpassword=S3cr' + '3tPw -Dusername=ci', 'password', 'mvn deploy -Dpassword=«redacted:password» -Dusername=ci'],
    ['PGPASSWORD=S3cr' + '3tPw psql -h db', 'password', 'PGPASSWORD=«redacted:password» psql -h db'],
    ['Map.of("username", "admin", "password", "Adm1' + 'n!2024")', 'password', 'Map.of("username", "admin", "password", "«redacted:password»")'],
    ['props.put("mail.smtp.password", "x9Lk' + '2mQw");', 'password', 'props.put("mail.smtp.password", "«redacted:password»");'],
    ['new SecretKeySpec("0123456789ab' + 'cdef".getBytes(), "AES")', 'secret', 'new SecretKeySpec("«redacted:secret»".getBytes(), "AES")'],
    ['String json = "{\\"apiKey\\": \\"a8f5f167f44f' + '4964e6c998dee827110c\\"}";', 'api-key', 'String json = "{\\"apiKey\\": \\"«redacted:api-key»\\"}";'],
    ['conn.setRequestProperty("X-Api-Key", "9d2f' + '4c1a7b3e8f60");', 'api-key', 'conn.setRequestProperty("X-Api-Key", "«redacted:api-key»");'],
    ['db: { user: app, password: Zx9' + 'qW2e }', 'password', 'db: { user: app, password: «redacted:password» }'],
    ['secret_key_base: 9f4c2d3b8a7e6f5d4c3b2a1f0e9d8c7b' + '6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0', 'secret', 'secret_key_base: «redacted:secret»'],
    ['String dsn = "jdbc:oracle:thin:scott/Ti' + 'ger42@db:1521:orcl";', 'jdbc-connection-string', 'String dsn = "jdbc:oracle:thin:scott/«redacted:jdbc-connection-string»@db:1521:orcl";'],
    ['url: jdbc:sqlserver://db:1433;databaseName=shop;user=sa;password=Sq' + 'l!2024x;', 'jdbc-connection-string', 'url: jdbc:sqlserver://db:1433;databaseName=shop;user=sa;password=«redacted:jdbc-connection-string»;'],
  ];
  for (const [input, kind, expected] of NOTATIONS) {
    it(`redacts ${kind} in: ${input}`, () => {
      const r = vetText(input);
      assert.equal(r.text, expected);
      assert.deepEqual(r.secrets, [{ kind, line: 0 }]);
    });
  }

  it('handles CRLF line endings without changing them', () => {
    const input = 'a=1\r\ndb.password=Pk3' + 'vN9zQ2w\r\nb=2\r\n';
    const r = vetText(input);
    assert.equal(r.text, 'a=1\r\ndb.password=«redacted:password»\r\nb=2\r\n');
  });

  it('is idempotent: vetted text has nothing left to redact', () => {
    const input = SECRET_SPECS.map((s, i) => CARRIERS['java-constant'](s.key, s.make(seededRng(i)).value)).join('\n');
    const once = vetText(input);
    const twice = vetText(once.text);
    assert.equal(twice.text, once.text);
    assert.deepEqual(twice.secrets, []);
  });

  it('returns empty results for empty input', () => {
    assert.deepEqual(vetText(''), { text: '', flags: [], secrets: [], instructionLines: [] });
  });
});
