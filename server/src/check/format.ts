// Findings as text for a model or a terminal: one line per finding, positions 1-based as editors show them.

import { shortName } from '../gate/surface';
import type { CheckCodeResult } from './checkCode';

export function findingsAsText(r: CheckCodeResult, label = 'proposed code'): string {
  const out: string[] = [];
  const errors = r.findings.filter((f) => f.severity === 'error').length;
  out.push(`${label}: ${errors ? `${errors} problem${errors === 1 ? '' : 's'}` : 'no problems'} (${r.references} references checked, placed as ${r.placement}${r.target ? ` replacing ${shortName(r.target)}` : ''}${r.syntaxErrors ? ', has syntax errors' : ''})`);
  for (const f of r.findings) {
    out.push(`- ${f.severity} [${f.code}] line ${f.range.start.line + 1}, column ${f.range.start.character + 1}: ${f.message}`);
  }
  if (r.surface.used.length) out.push(`uses from the dependency surface: ${r.surface.used.map(shortName).join(', ')}`);
  return out.join('\n') + '\n';
}
