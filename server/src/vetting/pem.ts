// Private-key blocks (PEM and PGP armor). A key spans lines, so this detector walks lines:
// it redacts the body between the BEGIN and END markers with one replacement per line (the
// line count never changes) and keeps the markers, so the reader still sees "a key was here".
// Handles keys written raw, inside comments (` * MIIE…`), as Java concatenations
// (`+ "MIIE…\n"`), as one line with `\n` escapes (GCP service-account JSON), or as YAML/XML
// bodies. Without an END marker (a truncated snippet) it stops at the first line that cannot
// be key material.

import type { TextLines } from '../text/lines';
import type { SecretSpan } from './spans';

const BEGIN = /-----BEGIN ((?:[A-Z0-9]+ ){0,3})PRIVATE KEY(?: BLOCK)?-----/g;
const END = '-----END ';
const MAX_BODY_LINES = 1000;

const KIND_BY_LABEL: Record<string, string> = {
  '': 'private-key-pkcs8',
  'RSA ': 'private-key-rsa',
  'EC ': 'private-key-ec',
  'DSA ': 'private-key-dsa',
  'OPENSSH ': 'private-key-openssh',
  'ENCRYPTED ': 'private-key-encrypted',
  'PGP ': 'private-key-pgp',
};

export const PEM_KINDS: readonly string[] = [...new Set(Object.values(KIND_BY_LABEL)), 'gcp-service-account-key'];

// Decoration around key material: indentation, comment leaders, quotes, concatenation,
// `\n` escapes, line continuations.
const LEADING = new Set([' ', '\t', '*', '/', '#', '"', "'", '+', '>']);
const TRAILING = new Set([' ', '\t', '\r', '"', "'", '+', ',', ';', '\\']);

/** The [start, end) range of a segment once decoration is trimmed from both ends. */
function trimDecoration(line: string, start: number, end: number): [number, number] {
  for (;;) {
    if (start < end && LEADING.has(line[start])) start++;
    else if (line[start] === '\\' && (line[start + 1] === 'n' || line[start + 1] === 'r') && start + 2 <= end) start += 2;
    else break;
  }
  for (;;) {
    if (end > start && TRAILING.has(line[end - 1])) end--;
    else if (end - start >= 2 && line[end - 2] === '\\' && (line[end - 1] === 'n' || line[end - 1] === 'r')) end -= 2;
    else break;
  }
  return [start, end];
}

// Base64 body (with `\n` escapes), an armor header such as `Proc-Type: 4,ENCRYPTED`, or blank.
function isKeyMaterial(content: string): boolean {
  return content === '' || /^[A-Za-z0-9+\/=\\]+$/.test(content) || /^[A-Za-z-]{2,20}: [ -~]{0,200}$/.test(content);
}

function kindFor(label: string, textBeforeMarker: string): string {
  if (/private_key\\?["']/.test(textBeforeMarker)) return 'gcp-service-account-key';
  return KIND_BY_LABEL[label] ?? 'private-key';
}

export function findPrivateKeyBlocks(lines: TextLines): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const text = lines.text;
  if (!text.includes('PRIVATE KEY')) return spans;
  // Next END marker at or after some offset; queries only move forward, so the scans add up
  // to one pass over the text.
  let nextEnd = -1;
  const endAtOrAfter = (from: number): number => {
    if (nextEnd !== Infinity && nextEnd < from) {
      const i = text.indexOf(END, from);
      nextEnd = i < 0 ? Infinity : i;
    }
    return nextEnd;
  };

  BEGIN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BEGIN.exec(text))) {
    let line = lines.lineOf(m.index);
    const lineEnd = lines.lineEnd(line);
    const kind = kindFor(m[1], text.slice(Math.max(lines.starts[line], m.index - 200), m.index));
    let reported = false;
    const add = (ln: number, [s, e]: [number, number]) => {
      if (e <= s) return;
      spans.push({ line: ln, start: s, end: e, kind, reported: !reported });
      reported = true;
    };

    const afterMarker = m.index + m[0].length;
    const end = endAtOrAfter(afterMarker);
    if (end < lineEnd) {
      add(line, trimDecoration(text, afterMarker, end));
      BEGIN.lastIndex = end;
      continue;
    }
    add(line, trimDecoration(text, afterMarker, lineEnd));
    const last = Math.min(lines.count - 1, line + MAX_BODY_LINES);
    while (line < last) {
      line++;
      const base = lines.starts[line];
      const body = lines.lineText(line);
      const endCol = body.indexOf(END);
      const [s, e] = trimDecoration(body, 0, endCol >= 0 ? endCol : body.length);
      if (endCol < 0 && !isKeyMaterial(body.slice(s, e))) break;
      add(line, [base + s, base + e]);
      if (endCol >= 0) break;
    }
    BEGIN.lastIndex = Math.max(BEGIN.lastIndex, lines.lineEnd(line));
  }
  return spans;
}
