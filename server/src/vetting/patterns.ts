// Secrets recognised by their format alone (a vendor prefix, a fixed shape), wherever they
// appear: code, comments, config. Each pattern runs once over the whole text.
//
// Linear time: no nested quantifiers and every quantifier bounded (token lengths are known),
// so the work at each start position is capped by a constant.

import { isPlaceholder } from './values';

export interface PatternMatch {
  kind: string;
  /** Absolute offsets of the part to redact. */
  start: number;
  end: number;
}

interface TokenPattern {
  kind: string;
  regex: RegExp;
  /** Capture group holding the secret part (requires the `d` flag); whole match if absent. */
  group?: number;
  /** Final say on a match: the kind to report, or null to reject it. */
  refine?: (value: string, text: string, matchStart: number) => string | null;
}

function hasDigitAndLetter(v: string): boolean {
  return /[0-9]/.test(v) && /[A-Za-z]/.test(v);
}

/** Up to `max` characters before `at`, not crossing the start of its line. */
function lineBefore(text: string, at: number, max = 400): string {
  let i = at;
  const stop = Math.max(0, at - max);
  while (i > stop && text.charCodeAt(i - 1) !== 10) i--;
  return text.slice(i, at);
}

// `mysql` in jdbc:mysql://, `mongodb+srv` in mongodb+srv://
function schemeBefore(text: string, colon: number): string {
  let i = colon;
  while (i > 0 && /[A-Za-z0-9+.-]/.test(text[i - 1]) && colon - i < 32) i--;
  return text.slice(i, colon).toLowerCase();
}

function connectionKind(text: string, colon: number): string {
  const scheme = schemeBefore(text, colon);
  if (lineBefore(text, colon - scheme.length, 24).toLowerCase().includes('jdbc:')) return 'jdbc-connection-string';
  if (scheme.startsWith('mongodb')) return 'mongodb-connection-string';
  if (scheme === 'redis' || scheme === 'rediss') return 'redis-connection-string';
  if (scheme === 'amqp' || scheme === 'amqps') return 'amqp-connection-string';
  return 'url-credentials';
}

function isBasicCredential(b64: string): boolean {
  const decoded = Buffer.from(b64, 'base64').toString('latin1');
  return decoded.includes(':') && /^[\x20-\x7e]+$/.test(decoded);
}

const PATTERNS: TokenPattern[] = [
  { kind: 'aws-access-key-id', regex: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b/g },
  { kind: 'github-fine-grained-pat', regex: /\bgithub_pat_[A-Za-z0-9_]{22,255}/g },
  { kind: 'github-pat', regex: /\bghp_[A-Za-z0-9]{36,251}\b/g },
  { kind: 'github-oauth-token', regex: /\bgho_[A-Za-z0-9]{36,251}\b/g },
  { kind: 'github-app-token', regex: /\bgh[usr]_[A-Za-z0-9]{36,251}\b/g },
  { kind: 'gitlab-pat', regex: /\bglpat-[A-Za-z0-9_-]{20,64}/g },
  { kind: 'gitlab-runner-token', regex: /\bglrt-[A-Za-z0-9_-]{20,64}/g },
  { kind: 'slack-webhook', regex: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_\/-]{20,200})/dg, group: 1 },
  { kind: 'slack-token', regex: /\bxox[abposer]-[A-Za-z0-9-]{10,250}/g },
  { kind: 'slack-token', regex: /\bxapp-\d-[A-Za-z0-9-]{10,250}/g },
  { kind: 'stripe-secret-key', regex: /\bsk_(?:live|test)_[A-Za-z0-9]{16,247}\b/g },
  { kind: 'stripe-restricted-key', regex: /\brk_(?:live|test)_[A-Za-z0-9]{16,247}\b/g },
  { kind: 'stripe-webhook-secret', regex: /\bwhsec_[A-Za-z0-9+\/]{24,128}/g },
  { kind: 'twilio-api-key', regex: /\bSK[0-9a-f]{32}\b/g },
  { kind: 'sendgrid-api-key', regex: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g },
  { kind: 'mailgun-api-key', regex: /\bkey-[0-9a-f]{32}\b/g },
  { kind: 'npm-token', regex: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'pypi-token', regex: /\bpypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{16,512}/g },
  { kind: 'heroku-api-key', regex: /\bHRKU-[A-Za-z0-9_-]{20,100}/g },
  { kind: 'shopify-access-token', regex: /\bshp(?:at|ca|pa)_[a-fA-F0-9]{32}\b/g },
  { kind: 'shopify-shared-secret', regex: /\bshpss_[a-fA-F0-9]{32}\b/g },
  { kind: 'google-api-key', regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'google-oauth-client-secret', regex: /\bGOCSPX-[A-Za-z0-9_-]{24,40}/g },
  { kind: 'anthropic-api-key', regex: /\bsk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{20,255}/g },
  {
    kind: 'openai-api-key',
    regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}/g,
    refine: (v) => (hasDigitAndLetter(v.slice(3)) ? 'openai-api-key' : null),
  },
  { kind: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{0,4096}/g },
  { kind: 'azure-storage-account-key', regex: /AccountKey=([A-Za-z0-9+\/]{20,200}={0,2})/dgi, group: 1 },
  { kind: 'azure-shared-access-key', regex: /SharedAccessKey=([A-Za-z0-9+\/]{20,200}={0,2})/dgi, group: 1 },
  {
    kind: 'azure-sas-token',
    regex: /[?&;]sig=([A-Za-z0-9%+\/]{16,256}(?:%3D|=){0,2})/dg,
    group: 1,
    refine: (_v, text, at) => (/[?&;]sv=\d/.test(lineBefore(text, at)) ? 'azure-sas-token' : null),
  },
  { kind: 'databricks-token', regex: /\bdapi[0-9a-f]{32}(?:-\d)?\b/g },
  { kind: 'digitalocean-token', regex: /\bdo[por]_v1_[a-f0-9]{64}\b/g },
  { kind: 'vault-token', regex: /\bhv[sbr]\.[A-Za-z0-9_-]{24,255}/g },
  { kind: 'discord-webhook', regex: /discord(?:app)?\.com\/api\/webhooks\/(\d{5,30}\/[A-Za-z0-9_-]{30,100})/dg, group: 1 },
  { kind: 'telegram-bot-token', regex: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g },
  { kind: 'age-secret-key', regex: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g },
  { kind: 'newrelic-api-key', regex: /\bNRAK-[A-Z0-9]{27}\b/g },
  {
    kind: 'bearer-token',
    regex: /\b[Bb]earer[ \t]{1,8}([A-Za-z0-9._~+\/-]{16,4096}={0,2})/dg,
    group: 1,
    refine: (v) => (hasDigitAndLetter(v) ? 'bearer-token' : null),
  },
  {
    kind: 'basic-auth-header',
    regex: /\bBasic[ \t]{1,8}([A-Za-z0-9+\/]{8,1024}={0,2})/dg,
    group: 1,
    refine: (v) => (isBasicCredential(v) ? 'basic-auth-header' : null),
  },
  {
    // scheme://user:password@host — the password only.
    kind: 'url-credentials',
    regex: /:\/\/[^\s:@\/"'<>?#]{0,256}:([^\s@\/"'<>]{1,256})@/dg,
    group: 1,
    refine: (v, text, at) => (isPlaceholder(v) ? null : connectionKind(text, at)),
  },
  { kind: 'jdbc-connection-string', regex: /jdbc:oracle:thin:[A-Za-z0-9_$#]{1,64}\/([^@\s"'<>\/]{1,128})@/dg, group: 1 },
  {
    // ?password=… / ;password=… inside a JDBC or other connection URL.
    kind: 'url-credentials',
    regex: /[?&;](?:password|pwd|passwd)=([^&;\s"'<>]{1,256})/dgi,
    group: 1,
    refine: (v, text, at) => {
      if (isPlaceholder(v)) return null;
      const before = lineBefore(text, at);
      if (/jdbc:/i.test(before)) return 'jdbc-connection-string';
      if (/mongodb/i.test(before)) return 'mongodb-connection-string';
      return /:\/\/|;/.test(before) ? 'url-credentials' : null;
    },
  },
];

/**
 * Characters every match of `re` starts with (after a leading `\b`), read off its source: a run of
 * plain or escaped punctuation characters, without a last one a quantifier follows. Empty for a
 * case-insensitive pattern, one with an alternation outside any group, or one starting with a
 * class, group or escape class. A text without it has no match, found by `includes` at a fraction
 * of the regex's scan (most patterns start with `\b`, which the engine cannot skip ahead on).
 */
export function leadingLiteral(re: RegExp): string {
  if (re.flags.includes('i')) return '';
  const src = re.source;
  let depth = 0, inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') { i++; continue; }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return '';
  }
  let i = src.startsWith('\\b') ? 2 : 0;
  let literal = '';
  for (; i < src.length; i++) {
    const c = src[i];
    if (/[A-Za-z0-9_\-=:,;'"<>@#%&!~\/]/.test(c)) literal += c;
    else if (c === '\\' && i + 1 < src.length && /[.\/\-:?=+*()[\]{}|$^\\]/.test(src[i + 1])) literal += src[++i];
    else break;
  }
  if (i < src.length && /[?*+{]/.test(src[i])) literal = literal.slice(0, -1);
  return literal;
}

const LITERALS = PATTERNS.map((p) => leadingLiteral(p.regex));

/** Format-recognised secrets: one batch per pattern, in catalog order (earlier batches win overlaps). */
export function findPatternSecrets(text: string): PatternMatch[][] {
  const batches: PatternMatch[][] = [];
  for (let k = 0; k < PATTERNS.length; k++) {
    const p = PATTERNS[k];
    if (LITERALS[k] && !text.includes(LITERALS[k])) continue;
    const batch: PatternMatch[] = [];
    p.regex.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = p.regex.exec(text))) {
      const range = p.group ? m.indices?.[p.group] : undefined;
      const [start, end] = range ?? [m.index, m.index + m[0].length];
      const kind = p.refine ? p.refine(text.slice(start, end), text, m.index) : p.kind;
      if (kind) batch.push({ kind, start, end });
    }
    if (batch.length > 0) batches.push(batch);
  }
  return batches;
}

/** Kinds this catalog can report (for documentation and tests). */
export const PATTERN_KINDS: readonly string[] = [
  ...new Set([...PATTERNS.map((p) => p.kind), 'jdbc-connection-string', 'mongodb-connection-string',
    'redis-connection-string', 'amqp-connection-string']),
];
