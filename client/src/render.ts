// What the client shows as text: the context (through the server's own markdown renderer, so
// every surface reads the same), the status-bar verdict and the status details. Pure: no `vscode`
// import, so the editor tests can check it without an editor.

import type { RetrievalResult, StatusResult } from '../../shared/protocol';
import { hostPaths } from '../../server/src/platform/paths';
import { confidenceLabel, renderContext as renderMarkdown, scenarioLabel, verdictLine } from '../../server/src/render/markdown';


/** The one-line verdict for the status bar and notifications: the server's own wording. */
export { verdictLine };

/** The verdict of a structured result, short: `P(sufficient) 0.82, new body` (`no verdict` without a result). */
export function verdictSummary(r: RetrievalResult | undefined): string {
  return r ? `${confidenceLabel(r)}, ${scenarioLabel(r)}` : 'no verdict';
}

export function defaultLabel(uri: string): string {
  try {
    return hostPaths.toPath(uri);
  } catch {
    return uri;
  }
}

/**
 * The context as markdown for an editor's view: the server's renderer (bundled into the client),
 * with links that open each file at its line.
 */
export function renderContext(r: RetrievalResult, opts: { origin?: { uri: string; line: number }; label?: (uri: string) => string } = {}): string {
  return renderMarkdown(r, { origin: opts.origin, label: opts.label ?? defaultLabel, links: true });
}

/** Lines for the status details (quick pick or modal). */
export function statusLines(s: StatusResult): string[] {
  const lines = [
    `State: ${s.state}${s.paused ? ' (paused)' : ''}`,
    `Files: ${s.files} · symbols: ${s.symbols} · edges: ${s.edges}`,
  ];
  if (s.resolvedShare !== undefined) lines.push(`Resolved references: ${(s.resolvedShare * 100).toFixed(1)} %`);
  if (s.indexMs !== undefined) lines.push(`First index: ${Math.round(s.indexMs)} ms`);
  if (s.lastUpdateMs !== undefined) lines.push(`Last update: ${Math.round(s.lastUpdateMs)} ms`);
  if (s.skipped?.length) lines.push(`Skipped: ${s.skipped.length} file${s.skipped.length === 1 ? '' : 's'}`);
  return lines;
}
