// Secret detection and redaction. Three detectors, in priority order (an earlier detector's
// span wins any overlap):
//   1. private-key blocks (pem.ts) — multi-line;
//   2. format-recognised tokens (patterns.ts) — vendor prefixes and fixed shapes;
//   3. secret-named keys with literal values (assignments.ts) — passwords, secrets, tokens,
//      api keys in Java, properties, env, YAML, JSON and XML notation.
// Only values are replaced (by «redacted:<kind>»); keys and markers stay so the reader can see
// what was there. Detectors 2 and 3 are line-local (no match or refinement crosses a '\n'):
// index.ts redactTexts relies on it to redact many texts as one (test/vetting/batched.test.ts).

import { findAssignedSecrets, KEY_TRIGGER } from './assignments';
import { findPatternSecrets, PATTERN_KINDS } from './patterns';
import { findPrivateKeyBlocks, PEM_KINDS } from './pem';
import { applyRedactions, SpanSet, type SecretSpan } from './spans';
import type { TextLines } from '../text/lines';

export interface FoundSecret {
  kind: string;
  line: number;
}

export interface Redaction {
  text: string;
  secrets: FoundSecret[];
}

/** Kinds reported by the key/value detector (beyond the format-specific ones). */
const ASSIGNMENT_KINDS = [
  'password', 'secret', 'credential', 'token', 'api-key', 'access-key', 'private-key', 'high-entropy-secret',
  'aws-secret-access-key', 'aws-session-token', 'heroku-api-key', 'twilio-auth-token',
];

export const SECRET_KINDS: readonly string[] = [...new Set([...PEM_KINDS, ...PATTERN_KINDS, ...ASSIGNMENT_KINDS])].sort();

function collectSpans(lines: TextLines): SecretSpan[] {
  const spans = new SpanSet();
  spans.addBatch(findPrivateKeyBlocks(lines));

  for (const batch of findPatternSecrets(lines.text)) {
    spans.addBatch(batch.map((p) => ({ ...p, line: lines.lineOf(p.start), reported: true })));
  }

  // Parse only lines that contain a trigger word; hits arrive in text order.
  const assigned: SecretSpan[] = [];
  const trigger = new RegExp(KEY_TRIGGER.source, 'gi');
  let m: RegExpExecArray | null;
  while ((m = trigger.exec(lines.text))) {
    const line = lines.lineOf(m.index);
    const base = lines.starts[line];
    for (const v of findAssignedSecrets(lines.lineText(line))) {
      assigned.push({ start: base + v.start, end: base + v.end, line, kind: v.kind, reported: true });
    }
    trigger.lastIndex = lines.lineEnd(line) + 1;
  }
  spans.addBatch(assigned);
  return spans.sorted();
}

export function redactSecrets(lines: TextLines): Redaction {
  const spans = collectSpans(lines);
  return {
    text: applyRedactions(lines, spans),
    secrets: spans.filter((s) => s.reported).map((s) => ({ kind: s.kind, line: s.line })),
  };
}
