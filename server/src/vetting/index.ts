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

export function vetText(text: string): VetResult {
  const lines = new TextLines(text);
  const redaction = redactSecrets(lines);
  const instructionLines = findInstructionLines(lines);
  const flags: VetFlag[] = [];
  if (instructionLines.length > 0) flags.push('instruction-like');
  if (redaction.secrets.length > 0) flags.push('secret-redacted');
  return { text: redaction.text, flags, secrets: redaction.secrets, instructionLines };
}
