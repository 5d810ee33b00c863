// Deterministic fake secrets for the vetting tests. Values are generated from a seeded PRNG so
// no credential-shaped string is committed verbatim; only the vendor prefixes are literal.

export type Rng = () => number;

export { mulberry32 as seededRng } from '../../scripts/lib/prng.mjs';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
export const ALNUM = UPPER + LOWER + DIGITS;
export const UPPER_ALNUM = UPPER + DIGITS;
export const HEX = '0123456789abcdef';
export const B64 = ALNUM + '+/';
export const B64URL = ALNUM + '-_';

export function pick(r: Rng, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)];
  return s;
}

/** Random string that surely mixes upper, lower and digits, starting with a letter. */
export function mixed(r: Rng, alphabet: string, n: number): string {
  return pick(r, UPPER, 1) + pick(r, LOWER, 1) + pick(r, DIGITS, 1) + pick(r, alphabet, n - 3);
}

export function hex(r: Rng, n: number): string {
  return pick(r, 'abcdef', 1) + pick(r, DIGITS, 1) + pick(r, HEX, n - 2);
}

export function uuid(r: Rng): string {
  return [hex(r, 8), hex(r, 4), hex(r, 4), hex(r, 4), hex(r, 12)].join('-');
}

function base64url(s: string): string {
  return Buffer.from(s).toString('base64url');
}

export interface SecretSpec {
  kind: string;
  /** Key name as words; carriers spell it camelCase, dotted, UPPER_SNAKE… */
  key: string[];
  make: (r: Rng) => { value: string; secret: string };
}

const plain = (f: (r: Rng) => string) => (r: Rng) => {
  const v = f(r);
  return { value: v, secret: v };
};

/** Password-ish value: letters, digits and a few symbols that need no escaping anywhere. */
const password = (r: Rng) => mixed(r, ALNUM, 12) + pick(r, '!*_.-', 2) + pick(r, DIGITS, 2);

export const SECRET_SPECS: SecretSpec[] = [
  { kind: 'aws-access-key-id', key: ['aws', 'access', 'key', 'id'], make: plain((r) => 'AKIA' + pick(r, UPPER_ALNUM, 16)) },
  { kind: 'aws-secret-access-key', key: ['aws', 'secret', 'access', 'key'], make: plain((r) => mixed(r, B64, 40)) },
  { kind: 'aws-session-token', key: ['aws', 'session', 'token'], make: plain((r) => mixed(r, B64, 120)) },
  { kind: 'github-pat', key: ['github', 'token'], make: plain((r) => 'ghp_' + pick(r, ALNUM, 36)) },
  { kind: 'github-oauth-token', key: ['github', 'oauth'], make: plain((r) => 'gho_' + pick(r, ALNUM, 36)) },
  { kind: 'github-app-token', key: ['installation', 'token'], make: plain((r) => 'ghs_' + pick(r, ALNUM, 36)) },
  { kind: 'github-fine-grained-pat', key: ['gh', 'pat'], make: plain((r) => 'github_pat_' + pick(r, ALNUM, 22) + '_' + pick(r, ALNUM, 59)) },
  { kind: 'gitlab-pat', key: ['gitlab', 'token'], make: plain((r) => 'glpat-' + pick(r, B64URL, 20)) },
  { kind: 'gitlab-runner-token', key: ['runner', 'token'], make: plain((r) => 'glrt-' + pick(r, B64URL, 24)) },
  { kind: 'slack-token', key: ['slack', 'bot', 'token'], make: plain((r) => `xoxb-${pick(r, DIGITS, 12)}-${pick(r, DIGITS, 13)}-${pick(r, ALNUM, 24)}`) },
  {
    kind: 'slack-webhook', key: ['slack', 'webhook', 'url'], make: (r) => {
      const secret = `T${pick(r, UPPER_ALNUM, 8)}/B${pick(r, UPPER_ALNUM, 10)}/${pick(r, ALNUM, 24)}`;
      return { value: `https://hooks.slack.com/services/${secret}`, secret };
    },
  },
  { kind: 'stripe-secret-key', key: ['stripe', 'key'], make: plain((r) => 'sk_live_' + pick(r, ALNUM, 24)) },
  { kind: 'stripe-restricted-key', key: ['stripe', 'restricted'], make: plain((r) => 'rk_live_' + pick(r, ALNUM, 24)) },
  { kind: 'stripe-webhook-secret', key: ['stripe', 'webhook', 'signing'], make: plain((r) => 'whsec_' + pick(r, ALNUM, 32)) },
  { kind: 'twilio-api-key', key: ['twilio', 'api', 'sid'], make: plain((r) => 'SK' + hex(r, 32)) },
  { kind: 'twilio-auth-token', key: ['twilio', 'auth', 'token'], make: plain((r) => hex(r, 32)) },
  { kind: 'sendgrid-api-key', key: ['sendgrid'], make: plain((r) => `SG.${pick(r, B64URL, 22)}.${pick(r, B64URL, 43)}`) },
  { kind: 'mailgun-api-key', key: ['mailgun'], make: plain((r) => 'key-' + hex(r, 32)) },
  { kind: 'npm-token', key: ['npm', 'publish'], make: plain((r) => 'npm_' + pick(r, ALNUM, 36)) },
  { kind: 'pypi-token', key: ['pypi', 'upload'], make: plain((r) => 'pypi-AgEIcHlwaS5vcmc' + pick(r, B64URL, 64)) },
  { kind: 'heroku-api-key', key: ['heroku', 'api', 'key'], make: plain(uuid) },
  { kind: 'heroku-api-key', key: ['platform', 'auth'], make: plain((r) => 'HRKU-' + pick(r, B64URL, 60)) },
  { kind: 'shopify-access-token', key: ['shopify', 'admin'], make: plain((r) => 'shpat_' + hex(r, 32)) },
  { kind: 'shopify-shared-secret', key: ['shopify', 'app'], make: plain((r) => 'shpss_' + hex(r, 32)) },
  { kind: 'google-api-key', key: ['maps', 'browser'], make: plain((r) => 'AIza' + pick(r, B64URL, 35)) },
  { kind: 'google-oauth-client-secret', key: ['google', 'oauth'], make: plain((r) => 'GOCSPX-' + pick(r, B64URL, 28)) },
  { kind: 'openai-api-key', key: ['openai'], make: plain((r) => 'sk-proj-' + mixed(r, ALNUM, 48)) },
  { kind: 'anthropic-api-key', key: ['anthropic'], make: plain((r) => 'sk-ant-api03-' + mixed(r, B64URL, 93) + 'AA') },
  {
    kind: 'jwt', key: ['session', 'jwt'], make: plain((r) => {
      const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
      const payload = base64url(JSON.stringify({ sub: pick(r, ALNUM, 12), iat: 1700000000 + Math.floor(r() * 1e6) }));
      return `${header}.${payload}.${pick(r, B64URL, 43)}`;
    }),
  },
  {
    kind: 'azure-storage-account-key', key: ['storage', 'connection'], make: (r) => {
      const secret = mixed(r, B64, 86) + '==';
      return { value: `DefaultEndpointsProtocol=https;AccountName=acme${pick(r, DIGITS, 4)};AccountKey=${secret};EndpointSuffix=core.windows.net`, secret };
    },
  },
  {
    kind: 'azure-shared-access-key', key: ['service', 'bus'], make: (r) => {
      const secret = mixed(r, B64, 43) + '=';
      return { value: `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${secret}`, secret };
    },
  },
  {
    kind: 'azure-sas-token', key: ['backup', 'location'], make: (r) => {
      const secret = mixed(r, ALNUM, 43) + '%2F' + pick(r, ALNUM, 8);
      return { value: `https://acme.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&spr=https&sig=${secret}%3D`, secret };
    },
  },
  { kind: 'databricks-token', key: ['databricks', 'host', 'auth'], make: plain((r) => 'dapi' + hex(r, 32)) },
  { kind: 'digitalocean-token', key: ['do', 'api'], make: plain((r) => 'dop_v1_' + hex(r, 64)) },
  { kind: 'vault-token', key: ['vault', 'login'], make: plain((r) => 'hvs.' + pick(r, B64URL, 90)) },
  {
    kind: 'discord-webhook', key: ['discord', 'hook'], make: (r) => {
      const secret = `${pick(r, '123456789', 1)}${pick(r, DIGITS, 17)}/${pick(r, B64URL, 68)}`;
      return { value: `https://discord.com/api/webhooks/${secret}`, secret };
    },
  },
  { kind: 'telegram-bot-token', key: ['telegram', 'bot'], make: plain((r) => `${pick(r, '123456789', 1)}${pick(r, DIGITS, 9)}:AA${pick(r, B64URL, 33)}`) },
  { kind: 'age-secret-key', key: ['age', 'identity'], make: plain((r) => 'AGE-SECRET-KEY-1' + pick(r, UPPER_ALNUM, 58)) },
  { kind: 'newrelic-api-key', key: ['newrelic', 'user'], make: plain((r) => 'NRAK-' + pick(r, UPPER_ALNUM, 27)) },
  {
    kind: 'bearer-token', key: ['authorization'], make: (r) => {
      const secret = mixed(r, B64URL, 40);
      return { value: `Bearer ${secret}`, secret };
    },
  },
  {
    kind: 'basic-auth-header', key: ['authorization'], make: (r) => {
      const secret = Buffer.from(`svc-${pick(r, LOWER, 5)}:${password(r)}`).toString('base64');
      return { value: `Basic ${secret}`, secret };
    },
  },
  {
    kind: 'url-credentials', key: ['maven', 'repository', 'url'], make: (r) => {
      const secret = mixed(r, ALNUM, 16);
      return { value: `https://deploy:${secret}@repo.example.com/maven2`, secret };
    },
  },
  {
    kind: 'jdbc-connection-string', key: ['datasource', 'url'], make: (r) => {
      const secret = mixed(r, ALNUM, 14);
      return { value: `jdbc:postgresql://db.internal:5432/orders?user=orders&password=${secret}&ssl=true`, secret };
    },
  },
  {
    kind: 'jdbc-connection-string', key: ['reporting', 'url'], make: (r) => {
      const secret = mixed(r, ALNUM, 14);
      return { value: `jdbc:mysql://reports:${secret}@db.internal:3306/reports`, secret };
    },
  },
  {
    kind: 'mongodb-connection-string', key: ['mongo', 'uri'], make: (r) => {
      const secret = mixed(r, ALNUM, 18);
      return { value: `mongodb+srv://app:${secret}@cluster0.example.mongodb.net/shop?retryWrites=true`, secret };
    },
  },
  {
    kind: 'redis-connection-string', key: ['cache', 'uri'], make: (r) => {
      const secret = mixed(r, ALNUM, 20);
      return { value: `redis://default:${secret}@cache.internal:6379/0`, secret };
    },
  },
  {
    kind: 'amqp-connection-string', key: ['broker', 'uri'], make: (r) => {
      const secret = mixed(r, ALNUM, 16);
      return { value: `amqps://orders:${secret}@mq.internal:5671/shop`, secret };
    },
  },
  { kind: 'password', key: ['db', 'password'], make: plain(password) },
  { kind: 'password', key: ['keystore', 'passphrase'], make: plain(password) },
  { kind: 'secret', key: ['client', 'secret'], make: plain((r) => mixed(r, ALNUM, 32)) },
  { kind: 'credential', key: ['smtp', 'credentials'], make: plain((r) => mixed(r, ALNUM, 20)) },
  { kind: 'token', key: ['refresh', 'token'], make: plain((r) => mixed(r, B64URL, 40)) },
  { kind: 'api-key', key: ['api', 'key'], make: plain((r) => hex(r, 32)) },
  { kind: 'access-key', key: ['storage', 'access', 'key'], make: plain((r) => mixed(r, B64, 44)) },
  { kind: 'private-key', key: ['jwt', 'signing', 'key'], make: plain((r) => mixed(r, B64, 64)) },
  { kind: 'high-entropy-secret', key: ['hmac', 'key'], make: plain((r) => hex(r, 64)) },
];

// Carriers: the notations a secret arrives in. Each returns one line.
const camel = (w: string[]) => w.map((x, i) => (i === 0 ? x : x[0].toUpperCase() + x.slice(1))).join('');
const pascal = (w: string[]) => w.map((x) => x[0].toUpperCase() + x.slice(1)).join('');
const upperSnake = (w: string[]) => w.join('_').toUpperCase();
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const CARRIERS: Record<string, (key: string[], value: string) => string> = {
  'java-constant': (k, v) => `    private static final String ${upperSnake(k)} = "${v}";`,
  'java-setter': (k, v) => `        config.set${pascal(k)}("${v}");`,
  'java-comment': (k, v) => `    // ${camel(k)}: ${v}`,
  'javadoc': (k, v) => `     * ${camel(k)}=${v}`,
  'properties': (k, v) => `${k.join('.')}=${v}`,
  'yaml': (k, v) => `  ${k.join('-')}: ${v}`,
  'yaml-quoted': (k, v) => `    ${k.join('_')}: "${v}"`,
  'xml-element': (k, v) => `    <${camel(k)}>${xmlEscape(v)}</${camel(k)}>`,
  'xml-attribute': (k, v) => `  <bean id="cfg" ${camel(k)}="${xmlEscape(v)}"/>`,
  'json': (k, v) => `  "${camel(k)}": "${v}",`,
  'env': (k, v) => `export ${upperSnake(k)}=${v}`,
};

/** Body lines of a fake PEM block: base64 of random bytes, 64 characters a line. */
export function pemBody(r: Rng, lines: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines - 1; i++) out.push(mixed(r, B64, 64));
  out.push(mixed(r, B64, 20) + '==');
  return out;
}
