// Vetting: retrieved code is untrusted data. Before it reaches a model, secrets are redacted
// (value only, line count preserved) and lines that try to instruct the model are flagged.

import { findInstructionLines } from './instructions';
import { redactSecrets } from './secrets';
import { TextLines } from '../text/lines';

export type VetFlag = 'secret-redacted' | 'instruction-like';

export interface VetResult {
  /** Same number of lines as the input; secrets replaced by «redacted:<kind>». */
  text: string;
  /** Sorted, unique. */
  flags: VetFlag[];
  /** One entry per secret; `line` is 0-based (the first redacted line of a multi-line key). */
  secrets: { kind: string; line: number }[];
  /** 0-based lines that look like instructions aimed at a model. */
  instructionLines: number[];
}

export { SECRET_KINDS } from './secrets';

/**
 * vetText(text).text without the instruction scan: for text only ever published or shown as its
 * redacted self (a Javadoc's prose, a chunk's header), whose flags nobody reads.
 */
export function redactText(text: string): string {
  return redactSecrets(new TextLines(text)).text;
}

/**
 * Texts that can be redacted as lines of one joined text: those without a private-key marker, the
 * one detector that spans lines (pem.ts runs only on a text containing 'PRIVATE KEY', which no
 * '\n' join can create). Every other detector is line-local: no pattern's match or refinement
 * crosses a '\n' (patterns.ts: no class admits it, lineBefore stops at it, no ^ or $), and the
 * key/value detector parses each line alone.
 */
const joinable = (text: string) => !text.includes('PRIVATE KEY');

/**
 * texts.map(redactText), the line-local texts redacted together as one text joined by '\n' (a
 * redaction never adds or removes a line break, so each text is its own run of lines again):
 * one pass of every detector instead of one per text, for the many short texts of a file's prose.
 */
export function redactTexts(texts: readonly string[]): string[] {
  const out = texts.slice();
  const batch: number[] = [];
  for (let i = 0; i < texts.length; i++) {
    if (joinable(texts[i])) batch.push(i);
    else out[i] = redactText(texts[i]);
  }
  if (batch.length === 0) return out;
  const lines = redactText(batch.map((i) => texts[i]).join('\n')).split('\n');
  let at = 0;
  for (const i of batch) {
    let count = 1;
    for (let nl = texts[i].indexOf('\n'); nl !== -1; nl = texts[i].indexOf('\n', nl + 1)) count++;
    out[i] = lines.slice(at, at + count).join('\n');
    at += count;
  }
  if (at !== lines.length) throw new Error('redactTexts: a redaction changed the number of lines');
  return out;
}

export function vetText(text: string): VetResult {
  const lines = new TextLines(text);
  const redaction = redactSecrets(lines);
  const instructionLines = findInstructionLines(lines);
  const flags: VetFlag[] = [];
  if (instructionLines.length > 0) flags.push('instruction-like');
  if (redaction.secrets.length > 0) flags.push('secret-redacted');
  return { text: redaction.text, flags, secrets: redaction.secrets, instructionLines };
}
