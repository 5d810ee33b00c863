// Judging a candidate value found next to a secret-named key: is it a placeholder, a label
// that merely names the secret (`"secretKey"`), or something that looks like a credential?
//
// Decision on well-known defaults: `changeme`, `changeit`, `password`, `secret`, `test`,
// `example`… are left visible. They protect nothing (they are public knowledge) and showing
// them tells the reader "this is a placeholder", which redaction would hide.

import { splitIdentifier } from '../text/identifiers';

const TRIVIAL_VALUES = new Set([
  'changeme', 'change_me', 'change-me', 'changeit', 'replaceme', 'replace_me', 'replace-me',
  'todo', 'fixme', 'tbd', 'example', 'sample', 'placeholder', 'dummy', 'fake', 'mock', 'test',
  'none', 'null', 'nil', 'undefined', 'empty', 'default', 'true', 'false', 'yes', 'no', 'on',
  'off', 'required', 'optional', 'secret', 'secrets', 'password', 'passwd', 'pwd', 'pass',
  'token', 'key', 'apikey', 'api_key', 'api-key', 'credential', 'credentials', 'redacted',
  'hidden', 'masked', 'n/a', 'na',
  // type names, from schemas and typed declarations (`password: string`)
  'string', 'char', 'text', 'boolean', 'bool', 'number', 'int', 'integer', 'long', 'object', 'any', 'array',
]);

/** Values that reference a secret kept elsewhere, or stand in for one. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v.length === 0 || v.startsWith('«redacted:')) return true;
  const first = v[0];
  const second = v[1] ?? '';
  if ((first === '$' || first === '#') && (second === '{' || second === '(')) return true; // ${X}, #{x}, $(x)
  if (first === '{' && (second === '{' || /^\{\d+\}$/.test(v))) return true; // {{x}}, {0}
  if (first === '$' && /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(v)) return true; // $ENV_VAR
  if (first === '%' && (/^%[A-Za-z_][A-Za-z0-9_.]*%$/.test(v) || /^%[sd]$|^%\(/.test(v))) return true;
  if (first === '<' && v.endsWith('>')) return true; // <your-token>
  if (first === '@' && v.endsWith('@') && v.length > 2) return true; // Maven filtering @db.password@
  if (/^(?:ENC|DEC)\(|^\{cipher\}|^arn:aws:|^(?:vault|env|secret|sm|ssm):/i.test(v)) return true;
  if (/^(.)\1*$/.test(v)) return true; // "xxxxxx", "******"
  const lower = v.toLowerCase();
  if (TRIVIAL_VALUES.has(lower)) return true;
  if (lower.startsWith('your') || lower.startsWith('insert') || lower.startsWith('enter-')) return true;
  return /example|placeholder|changeme|change_me|replace_me|replaceme|dummy|xxxxx/.test(lower);
}

/** A name rather than a secret: `secretKey`, `db.password`, `X-Auth-Token`. */
export function isIdentifierLike(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z._-]*$/.test(value)) return false;
  const parts = splitIdentifier(value);
  if (parts.length < 2) return false;
  let letters = 0;
  for (const p of parts) letters += p.length;
  // Random mixed-case strings also split into "parts", but tiny ones (`aB`, `Xq`, `Zt`).
  return letters / parts.length >= 3;
}

export function isUrlOrPath(value: string): boolean {
  if (value.includes('://')) return true;
  return /^(?:\.{0,2}\/|~\/|classpath:|file:)[A-Za-z0-9_.\/{}-]*$/.test(value);
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

interface CharMix { digits: number; lower: number; upper: number; other: number }

function charMix(value: string): CharMix {
  const mix: CharMix = { digits: 0, lower: 0, upper: 0, other: 0 };
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) mix.digits++;
    else if (c >= 97 && c <= 122) mix.lower++;
    else if (c >= 65 && c <= 90) mix.upper++;
    else mix.other++;
  }
  return mix;
}

function plausible(value: string, minLength: number): boolean {
  return value.length >= minLength && !/\s/.test(value) && !isPlaceholder(value) &&
    !isIdentifierLike(value) && !isUrlOrPath(value);
}

/** Anything non-trivial: used for keys that only ever hold secrets (`password`, `secret`). */
export function isStrongSecretValue(value: string): boolean {
  return plausible(value, 3);
}

/** Token-ish: letters with digits, or long and varied. Used for `token`, `apiKey`, … */
export function isTokenLikeValue(value: string): boolean {
  if (!plausible(value, 8)) return false;
  const mix = charMix(value);
  if (mix.digits > 0 && mix.lower + mix.upper > 0) return true;
  return value.length >= 16 && entropy(value) >= 3.5;
}

/** Random-looking hex or base64: used for weak names like a bare `key` or `salt`. */
export function isHighEntropyValue(value: string): boolean {
  if (!plausible(value, 16) || !/^[A-Za-z0-9+\/=_-]+$/.test(value)) return false;
  const mix = charMix(value);
  const hex = /^[0-9a-fA-F]+$/.test(value);
  if (hex) return mix.digits >= 2 && mix.lower + mix.upper >= 2;
  return value.length >= 20 && mix.digits >= 2 && mix.lower >= 2 && mix.upper >= 2 && entropy(value) >= 3.5;
}
