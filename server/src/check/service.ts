// checkCode for the edges (LSP, MCP): validates a request against the workspace, and vets the
// proposal against the content a retrieval at the target would hand a model (plus any content
// the caller says it already handed out).

import { normalizeLineEndings } from '../text/lines';
import type { ContextItem, Range } from '../../../shared/protocol';
import type { Indexer } from '../index/indexer';
import { InvalidRequest, retrieveAt, uriOfPath, type Settings } from '../service';
import { checkCode, type CheckCodeRequest, type CheckCodeResult } from './checkCode';

export interface CheckOptions {
  /** Run a retrieval at the target to learn what a model was shown (default true). */
  vetWithRetrieval?: boolean;
  /** Content already handed out (e.g. earlier retrievals of the same session). */
  retrieved?: ContextItem[];
  settings?: Settings;
}

export function validRange(r: unknown): Range | undefined {
  if (r === undefined || r === null) return undefined;
  const o = r as Record<string, Record<string, unknown> | undefined>;
  const ok = (p: Record<string, unknown> | undefined) => !!p && Number.isInteger(p.line) && (p.line as number) >= 0 && Number.isInteger(p.character) && (p.character as number) >= 0;
  if (typeof r !== 'object' || !ok(o.start) || !ok(o.end)) throw new InvalidRequest('range must be { start: { line, character }, end: { line, character } } with non-negative integers');
  const s = o.start as unknown as { line: number; character: number }, e = o.end as unknown as { line: number; character: number };
  if (e.line < s.line || (e.line === s.line && e.character < s.character)) throw new InvalidRequest('range end is before its start');
  return { start: { line: s.line, character: s.character }, end: { line: e.line, character: e.character } };
}

export async function checkAt(indexer: Indexer, proposed: CheckCodeRequest, opts: CheckOptions = {}): Promise<CheckCodeResult> {
  const req = typeof proposed.code === 'string' ? { ...proposed, code: normalizeLineEndings(proposed.code) } : proposed;
  if (!indexer.paths.flavour.isAbsolute(req.path)) throw new InvalidRequest(`path must be absolute: ${req.path}`);
  if (!indexer.rootOf(req.path)) throw new InvalidRequest(`${req.path} is outside every workspace folder`);
  if (typeof req.code !== 'string' || !req.code.trim()) throw new InvalidRequest('code must be a non-empty string');
  if (!/\.java$/.test(req.path)) throw new InvalidRequest('only Java files can be checked');
  const current = indexer.textOf(req.path);
  if (req.range) {
    if (current === undefined) throw new InvalidRequest(`cannot read ${req.path}`);
    const lines = current.split('\n');
    for (const p of [req.range.start, req.range.end]) {
      if (p.line >= lines.length || p.character > lines[p.line].length) throw new InvalidRequest(`range position ${p.line}:${p.character} is outside the document`);
    }
  }
  let retrieved = [...(opts.retrieved ?? [])];
  const first = await checkCode(indexer.index, (p) => indexer.textOf(p), { ...req, retrieved });
  if (opts.vetWithRetrieval === false || !first.target || current === undefined) return first;
  // What a retrieval for the target method shows a model: the proposal must not copy instruction-like parts of it.
  const sym = indexer.index.symbol(first.target)?.sym;
  if (!sym || !opts.settings) return first;
  try {
    const r = await retrieveAt(indexer, { textDocument: { uri: uriOfPath(req.path) }, position: { line: sym.nameSpan.sl, character: sym.nameSpan.sc } }, opts.settings);
    retrieved = [...retrieved, ...r.items];
  } catch {
    return first;
  }
  if (!retrieved.some((i) => i.flags?.includes('instruction-like'))) return first;
  return checkCode(indexer.index, (p) => indexer.textOf(p), { ...req, retrieved });
}
