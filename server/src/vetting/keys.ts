// Classifying a key name (`db.password`, `AWS_SECRET_ACCESS_KEY`, `setClientSecret`) by the
// secret it would hold. Strength says how much evidence the value needs before redaction:
//   strong — the name only ever holds secrets: redact any non-trivial literal;
//   medium — usually a secret (`token`, `apiKey`): the value must look token-like;
//   weak   — ambiguous (`key`, `salt`): the value must look like random hex/base64.

import { splitIdentifier } from '../text/identifiers';

export type Strength = 'weak' | 'medium' | 'strong';

export interface KeyClass {
  kind: string;
  strength: Strength;
}

const RANK: Record<Strength, number> = { weak: 0, medium: 1, strong: 2 };

// A word after the secret word that makes the name describe the secret, not hold it:
// `passwordField`, `token.ttl`, `API_KEY_HEADER`, `secretName`.
const NON_SECRET_TAILS = new Set([
  'field', 'fields', 'column', 'col', 'param', 'parameter', 'params', 'header', 'headers', 'name',
  'names', 'label', 'hint', 'prompt', 'message', 'msg', 'error', 'errors', 'url', 'uri', 'endpoint',
  'path', 'file', 'dir', 'location', 'type', 'length', 'len', 'min', 'max', 'size', 'policy',
  'pattern', 'regex', 'encoder', 'expiry', 'expiration', 'expires', 'expire', 'ttl', 'timeout',
  'validity', 'lifetime', 'seconds', 'minutes', 'hours', 'days', 'enabled', 'disabled', 'required',
  'count', 'attempts', 'format', 'mode', 'strategy', 'ref', 'prefix', 'suffix', 'store', 'service',
  'repository', 'repo', 'manager', 'provider', 'handler', 'filter', 'validator', 'generator',
  'factory', 'util', 'utils', 'helper', 'properties', 'class', 'bean', 'version', 'strength',
  'complexity', 'history', 'chars', 'placeholder', 'schema', 'input', 'kind', 'algorithm', 'alg',
  'encoding', 'charset', 'index', 'valid', 'invalid', 'visible', 'source', 'id', 'ids', 'equals',
  'matches', 'exception', 'request', 'response', 'dto', 'entity', 'cache', 'changed', 'reset',
  'rotation', 'usage', 'scope', 'scopes', 'audience', 'issuer', 'claim', 'claims', 'selector',
]);

// Words before `key` that make it a credential (`apiKey`, `accessKey`, `signing_key`).
const KEY_QUALIFIERS: Record<string, KeyClass> = {
  api: { kind: 'api-key', strength: 'medium' },
  app: { kind: 'api-key', strength: 'medium' },
  client: { kind: 'api-key', strength: 'medium' },
  consumer: { kind: 'api-key', strength: 'medium' },
  license: { kind: 'api-key', strength: 'medium' },
  subscription: { kind: 'api-key', strength: 'medium' },
  auth: { kind: 'api-key', strength: 'medium' },
  access: { kind: 'access-key', strength: 'medium' },
  account: { kind: 'access-key', strength: 'medium' },
  storage: { kind: 'access-key', strength: 'medium' },
  shared: { kind: 'access-key', strength: 'medium' },
  private: { kind: 'private-key', strength: 'medium' },
  signing: { kind: 'private-key', strength: 'medium' },
  encryption: { kind: 'private-key', strength: 'medium' },
  decryption: { kind: 'private-key', strength: 'medium' },
  master: { kind: 'private-key', strength: 'medium' },
  secret: { kind: 'secret', strength: 'strong' },
};

const WEAK_SECRET: KeyClass = { kind: 'high-entropy-secret', strength: 'weak' };

function classifyWord(parts: string[], i: number): KeyClass | null {
  const p = parts[i];
  if (p === 'pwd' || p === 'pass' || p === 'passcode' || /(?:password|passwd|passphrase)$/.test(p)) {
    return { kind: 'password', strength: 'strong' };
  }
  if (p === 'secrets' || p.endsWith('secret')) return { kind: 'secret', strength: 'strong' };
  if (p === 'creds' || p === 'credential' || p.endsWith('credentials')) return { kind: 'credential', strength: 'strong' };
  if (p.endsWith('token') || p === 'auth' || p === 'bearer') return { kind: 'token', strength: 'medium' };
  if (p === 'key') return KEY_QUALIFIERS[parts[i - 1] ?? ''] ?? WEAK_SECRET;
  if (p.endsWith('key') && p.length > 3) return KEY_QUALIFIERS[p.slice(0, -3)] ?? null; // apikey, secretkey
  if (p === 'salt' || p === 'hmac') return WEAK_SECRET;
  return null;
}

// Provider-specific names give a more useful kind than the generic word.
function providerKind(parts: string[], generic: string): string {
  const has = (w: string) => parts.includes(w);
  if (has('aws') && (has('secret') || generic === 'secret')) return 'aws-secret-access-key';
  const at = parts.indexOf('secret');
  if (at >= 0 && parts[at + 1] === 'access' && parts[at + 2] === 'key') return 'aws-secret-access-key';
  if (has('aws') && has('session') && generic === 'token') return 'aws-session-token';
  if (has('heroku')) return 'heroku-api-key';
  if (has('twilio')) return 'twilio-auth-token';
  return generic;
}

/** The secret a key name holds, or null when the name is not secret-bearing. */
export function classifyKey(name: string): KeyClass | null {
  const parts = splitIdentifier(name);
  let best: KeyClass | null = null;
  let lastHit = -1;
  for (let i = 0; i < parts.length; i++) {
    const c = classifyWord(parts, i);
    if (!c) continue;
    lastHit = i;
    if (!best || RANK[c.strength] >= RANK[best.strength]) best = c;
  }
  if (!best) return null;
  for (let i = lastHit + 1; i < parts.length; i++) if (NON_SECRET_TAILS.has(parts[i])) return null;
  return { kind: providerKind(parts, best.kind), strength: best.strength };
}
