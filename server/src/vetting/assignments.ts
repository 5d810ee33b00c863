// Secrets recognised by their key rather than their format: a secret-named key followed by
// an assignment and a literal value, in any of the notations retrieved text comes in:
//   Java      String dbPassword = "…";   setPassword("…");   .apiKey("…")
//             props.put("db.password", "…");   conn.setRequestProperty("X-Api-Key", "…")
//   props/env db.password=…   DB_PASSWORD=…   export API_TOKEN="…"
//   YAML      password: …      "password": "…" (JSON)
//   XML       <password>…</password>   password="…"   <property name="password" value="…"/>
// Only the value is redacted. Values that are code (`request.getPassword()`, `password;`),
// placeholders (`${DB_PASSWORD}`) or names (`"secretKey"`) are left alone.
//
// A hand-written scanner rather than one big regex: every step moves forward through the line,
// so the cost is linear in its length whatever the input.

import { classifyKey, type KeyClass } from './keys';
import { isHighEntropyValue, isStrongSecretValue, isTokenLikeValue } from './values';

/** Cheap trigger: only lines containing one of these fragments are parsed. */
export const KEY_TRIGGER = /pass|pwd|secret|token|key|auth|cred|salt|hmac|bearer/gi;
const LINE_TRIGGER = new RegExp(KEY_TRIGGER.source, 'gi');

export interface ValueRange {
  start: number;
  end: number;
  kind: string;
}

const JAVA_WORDS = new Set(['null', 'true', 'false', 'new', 'this', 'super', 'return', 'throw', 'case']);
// Method names that read or check a secret rather than supply one: getPassword("alias").
const NON_SETTER_VERBS = new Set([
  'get', 'find', 'load', 'read', 'lookup', 'resolve', 'fetch', 'has', 'is', 'remove', 'delete',
  'clear', 'contains', 'validate', 'verify', 'check', 'matches', 'encode', 'decode', 'hash',
  'parse', 'generate', 'create', 'refresh', 'revoke', 'invalidate', 'require', 'assert', 'issue',
]);

function isKeyChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13;
}

function skipSpaces(line: string, i: number): number {
  while (i < line.length && isSpace(line.charCodeAt(i))) i++;
  return i;
}

function acceptsValue(cls: KeyClass, value: string): boolean {
  if (cls.strength === 'strong') return isStrongSecretValue(value);
  if (cls.strength === 'medium') return isTokenLikeValue(value);
  return isHighEntropyValue(value);
}

interface Literal {
  start: number;
  end: number;
  /** Where scanning resumes: a literal's content is a value, never a key. */
  next: number;
  /** Set when the text was scanned as a value but is code or prose, not a literal. */
  rejected?: boolean;
}

/**
 * Finds closing quotes on one line. Once a quote is known to have no closing partner after
 * some offset, later searches from further right return at once — without this, a line full
 * of unterminated quotes would be rescanned to its end for every key on it.
 */
class QuoteFinder {
  private readonly noneFrom = new Map<string, number>();

  constructor(private readonly line: string) {}

  /** Offset of the closing `quote` for a literal whose content starts at `from`, or -1. */
  close(quote: string, from: number): number {
    if (from >= (this.noneFrom.get(quote) ?? Infinity)) return -1;
    const line = this.line;
    let at = -1;
    if (quote.length === 2) {
      at = line.indexOf(quote, from); // \" inside another string literal
    } else {
      for (let j = from; j < line.length; j++) {
        const c = line[j];
        if (c === '\\') j++;
        else if (c === quote) {
          at = j;
          break;
        }
      }
    }
    if (at < 0) this.noneFrom.set(quote, Math.min(from, this.noneFrom.get(quote) ?? Infinity));
    return at;
  }
}

/** A quoted literal at `i` ("…", '…', or \"…\" inside another string); null if none. */
function quotedAt(line: string, i: number, quotes: QuoteFinder): Literal | null {
  let q = line[i];
  if (q === '\\' && (line[i + 1] === '"' || line[i + 1] === "'")) {
    q = '\\' + line[i + 1];
    i++;
  } else if (q !== '"' && q !== "'") {
    return null;
  }
  if (line.startsWith('"""', i)) return null; // Java text block: content is on later lines
  const start = i + 1;
  const close = quotes.close(q, start);
  return close < 0 ? null : { start, end: close, next: close + q.length };
}

const UNQUOTED_STOP = new Set([' ', '\t', '\r', ',', ';', ')', '}', ']', '"', "'", '<', '>', '&']);

/**
 * An unquoted config value (`password=s3cret`, `password: s3cret`). It must end the statement —
 * end of line, a trailing comment, or a closing quote/tag — otherwise it is code or prose.
 */
function unquotedAt(line: string, i: number, op: string, envStyle = false): Literal | null {
  let j = i;
  while (j < line.length && !UNQUOTED_STOP.has(line[j])) j++;
  if (j === i) return null;
  const token = line.slice(i, j);
  const k = skipSpaces(line, j);
  const rest = line.slice(k, k + 4);
  const ends = k >= line.length || rest[0] === '#' || rest.startsWith('//') || rest.startsWith('*/') ||
    rest.startsWith('-->') || rest[0] === '"' || rest[0] === "'" || rest[0] === '<' || rest[0] === '&' ||
    rest === '\\' || (op === ':' && (rest[0] === ',' || rest[0] === '}')) ||
    /^--?[A-Za-z]/.test(rest) || // next command-line option: `-Dpassword=… -Dusername=…`
    (envStyle && /^[A-Za-z]/.test(rest)); // `PGPASSWORD=… psql -h db`
  const code = token.includes('(') || JAVA_WORDS.has(token);
  return { start: i, end: j, next: j, rejected: !ends || code };
}

/** After a quoted key: `: v`, `= v`, `=> v`, `, v` or XML's `name="k" value="v"`. */
function valueAfterQuotedKey(line: string, i: number, quotes: QuoteFinder): Literal | null {
  i = skipSpaces(line, i);
  const c = line[i];
  if (c === ':' || c === ',') i++;
  else if (c === '=' && line[i + 1] === '>') i += 2;
  else if (c === '=' && line[i + 1] !== '=') i++;
  else if (line.startsWith('value', i) || line.startsWith('content', i)) {
    i = skipSpaces(line, i + (line[i] === 'v' ? 5 : 7));
    if (line[i] !== '=') return null;
    i++;
  } else return null;
  i = skipSpaces(line, i);
  const literal = quotedAt(line, i, quotes);
  if (literal && c === ',') {
    // `put("password", "v")` or `Map.of("password", "v", "user", "u")`, but not
    // `scrypt("password", "salt", 64)`: there the key literal is an argument, not a name.
    const j = skipSpaces(line, literal.next);
    if (line[j] === ',' && !/["']/.test(line[skipSpaces(line, j + 1)] ?? '')) return null;
  }
  return literal ?? (c === ':' ? unquotedAt(line, i, ':') : null);
}

/** After an unquoted key: `= v`, `: v`, `:= v`, or a call `setPassword("v")`. */
function valueAfterPlainKey(
  line: string,
  keyStart: number,
  keyEnd: number,
  quotes: QuoteFinder,
): { literal: Literal; call: boolean } | null {
  let i = skipSpaces(line, keyEnd);
  const c = line[i];
  let op: string;
  if (c === '=' && line[i + 1] !== '=' && line[i + 1] !== '>') op = '=';
  else if (c === ':' && line[i + 1] === '=') {
    op = '=';
    i++;
  } else if (c === ':' && line[i + 1] !== ':') op = ':';
  else if (c === '(') op = '(';
  else return null;
  // `a != password`, `x <= secret`: comparison, not assignment.
  const before = line[keyStart - 1];
  if (op === '=' && (before === '!' || before === '<' || before === '>')) return null;
  i = skipSpaces(line, i + 1);
  if (op === '(') {
    // Constructor/setter arguments: take the last of the leading string literals.
    let last = quotedAt(line, i, quotes);
    if (!last) return null;
    for (;;) {
      const j = skipSpaces(line, last.next);
      if (line[j] !== ',') break;
      const more = quotedAt(line, skipSpaces(line, j + 1), quotes);
      if (!more) break;
      last = more;
    }
    return { literal: last, call: true };
  }
  const envStyle = op === '=' && /^[A-Z][A-Z0-9_]*$/.test(line.slice(keyStart, keyEnd));
  const literal = quotedAt(line, i, quotes) ?? unquotedAt(line, i, op, envStyle);
  return literal ? { literal, call: false } : null;
}

const MAX_TAG_LENGTH = 256;
const MAX_REREAD = 64;
const MAX_ELEMENT_VALUE = 4096;

/** First `ch` in line[from, from + limit), or -1. Bounded so repeated misses stay linear. */
function indexWithin(line: string, ch: string, from: number, limit: number): number {
  const stop = Math.min(line.length, from + limit);
  for (let i = from; i < stop; i++) if (line[i] === ch) return i;
  return -1;
}

/** `<password>v</password>` or `<password attr="…">v</password>`; value ends at `<` or end of line. */
function valueInElement(line: string, keyEnd: number): Literal | null {
  const close = indexWithin(line, '>', keyEnd, MAX_TAG_LENGTH);
  if (close < 0 || line[close - 1] === '/') return null;
  let start = close + 1;
  let end = indexWithin(line, '<', start, MAX_ELEMENT_VALUE);
  if (end < 0) {
    if (line.length - start > MAX_ELEMENT_VALUE) return null;
    end = line.length;
  }
  while (start < end && isSpace(line.charCodeAt(start))) start++;
  while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
  return end > start ? { start, end, next: end } : null;
}

function lastSegment(key: string): string {
  const dot = key.lastIndexOf('.');
  return dot < 0 ? key : key.slice(dot + 1);
}

function isNonSetter(method: string): boolean {
  const verb = /^[a-z]+/.exec(method);
  return !!verb && verb[0] !== method && NON_SETTER_VERBS.has(verb[0]);
}

/** Secret values assigned to secret-named keys on one line (columns within the line). */
export function findAssignedSecrets(line: string): ValueRange[] {
  const found: ValueRange[] = [];
  const trigger = LINE_TRIGGER;
  trigger.lastIndex = 0;
  const quotes = new QuoteFinder(line);
  let m: RegExpExecArray | null;
  while ((m = trigger.exec(line))) {
    let ks = m.index;
    let ke = m.index + m[0].length;
    while (ks > 0 && isKeyChar(line.charCodeAt(ks - 1))) ks--;
    while (ke < line.length && isKeyChar(line.charCodeAt(ke))) ke++;
    trigger.lastIndex = ke;
    const key = line.slice(ks, ke);
    const before = line[ks - 1];
    const quoteBefore = before === '"' || before === "'";
    const quotedKey = quoteBefore && (line[ke] === before || (line[ke] === '\\' && line[ke + 1] === before));

    let literal: Literal | null = null;
    let cls: KeyClass | null;
    if (before === '<') {
      cls = classifyKey(key);
      if (cls) literal = valueInElement(line, ke);
    } else if (quotedKey) {
      cls = classifyKey(key);
      if (cls) literal = valueAfterQuotedKey(line, ke + (line[ke] === '\\' ? 2 : 1), quotes);
    } else {
      const assignment = valueAfterPlainKey(line, ks, ke, quotes);
      if (assignment?.call) {
        const method = lastSegment(key);
        cls = isNonSetter(method) ? null : classifyKey(method);
      } else {
        cls = assignment ? classifyKey(key) : null;
      }
      literal = assignment?.literal ?? null;
    }
    if (!literal) continue;
    const value = line.slice(literal.start, literal.end);
    const secret = !!cls && !literal.rejected && acceptsValue(cls, value);
    if (secret) found.push({ start: literal.start, end: literal.end, kind: cls!.kind });
    // Resume after a secret or a long value; a short non-secret value is re-read, since it may
    // be the name of the next key (`<entry key="token" value="…"/>`). Short re-reads keep the
    // scan linear.
    if ((secret || value.length > MAX_REREAD) && literal.next > trigger.lastIndex) trigger.lastIndex = literal.next;
  }
  return found;
}
