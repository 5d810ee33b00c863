// The LSP side of checkCode: the `needle/checkCode` request and the opt-in `unknown-internal-api`
// diagnostics on open Java files (setting `checkCodeDiagnostics`, default off). Diagnostics of
// other Needle features for the same document are kept: every publication merges the groups.

import { DiagnosticSeverity, ErrorCodes, ResponseError, type Connection, type Diagnostic, type PublishDiagnosticsParams, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Indexer } from '../index/indexer';
import { InvalidRequest, pathOfUri, type Settings } from '../service';
import type { CheckCodeResult } from './checkCode';
import { checkAt, validRange } from './service';

interface Deps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  indexer: Indexer;
  getSettings: () => Settings;
  /** Runs `work` as a read of the index: after every update that arrived before it, none during it (scheduler.ts). */
  read: <T>(work: () => Promise<T>) => Promise<T>;
  waitForIndex: () => Promise<void>;
}

const DEBOUNCE_MS = 500;
const DIAGNOSTIC_CODES = new Set(['unknown-internal-api', 'no-matching-overload', 'missing-import']);

/** The params as received, before validation (see CheckCodeParams in shared/protocol.ts). */
export interface RawCheckCodeParams { textDocument: { uri: string }; range?: unknown; text?: unknown }

export function registerCheckCode(d: Deps): { configure: (raw: unknown) => void } {
  const { connection, documents, indexer } = d;
  let enabled = false;

  // Diagnostics publication shared with the other features: groups per URI, merged on send.
  const groups = new Map<string, Map<string, Diagnostic[]>>();
  const rawSend = connection.sendDiagnostics.bind(connection);
  const send = (uri: string, group: string, diagnostics: Diagnostic[]) => {
    let g = groups.get(uri);
    if (!g) groups.set(uri, (g = new Map()));
    g.set(group, diagnostics);
    const all = [...g.values()].flat();
    if (!all.length) groups.delete(uri);
    return rawSend({ uri, diagnostics: all });
  };
  connection.sendDiagnostics = (p: PublishDiagnosticsParams) => send(p.uri, 'other', p.diagnostics);

  async function handle(raw: unknown): Promise<CheckCodeResult> {
    const p = (raw && typeof raw === 'object' ? raw : {}) as RawCheckCodeParams;
    try {
      const path = pathOfUri(p.textDocument?.uri);
      const range = validRange(p.range);
      if (p.text !== undefined && typeof p.text !== 'string') throw new InvalidRequest('text must be a string');
      await d.waitForIndex();
      return await d.read(async () => {
        const current = indexer.textOf(path);
        if (p.text === undefined) {
          // Check the document's own code (in the range, or all of it).
          if (current === undefined) throw new InvalidRequest(`cannot read ${path}`);
          const doc = documents.get(p.textDocument.uri);
          const code = range ? (doc ? doc.getText(range) : sliceRange(current, range)) : current;
          return checkAt(indexer, range ? { path, code, range } : { path, code, scope: 'file' }, { settings: d.getSettings(), vetWithRetrieval: false });
        }
        return checkAt(indexer, { path, code: p.text as string, range }, { settings: d.getSettings() });
      });
    } catch (e) {
      if (e instanceof InvalidRequest) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
      throw e;
    }
  }

  connection.onRequest('needle/checkCode', (params: unknown) => handle(params));

  const timers = new Map<string, NodeJS.Timeout>();
  const generation = new Map<string, number>();
  const publish = async (uri: string, gen: number) => {
    if (!enabled) { if (groups.get(uri)?.get('check')?.length) await send(uri, 'check', []); return; }
    let path: string;
    try { path = pathOfUri(uri); } catch { return; }
    if (!path.endsWith('.java') || !indexer.rootOf(path)) return;
    let r: CheckCodeResult | undefined;
    try {
      r = await d.read(async () => {
        const text = indexer.textOf(path);
        if (text === undefined || generation.get(uri) !== gen) return undefined;
        return checkAt(indexer, { path, code: text, scope: 'file' }, { vetWithRetrieval: false });
      });
    } catch { return; }
    if (!r || generation.get(uri) !== gen) return;
    const diagnostics: Diagnostic[] = r.findings.filter((f) => DIAGNOSTIC_CODES.has(f.code)).map((f) => ({
      range: f.fileRange ?? f.range, severity: DiagnosticSeverity.Warning, source: 'needle', code: 'unknown-internal-api', message: f.message,
      data: { kind: f.code, candidates: f.candidates ?? f.overloads ?? [] },
    }));
    await send(uri, 'check', diagnostics);
  };
  const schedule = (doc: TextDocument) => {
    if (!enabled && !groups.get(doc.uri)?.get('check')?.length) return;
    clearTimeout(timers.get(doc.uri));
    const gen = (generation.get(doc.uri) ?? 0) + 1;
    generation.set(doc.uri, gen);
    timers.set(doc.uri, setTimeout(() => void publish(doc.uri, gen), DEBOUNCE_MS));
  };
  documents.onDidOpen((e) => schedule(e.document));
  documents.onDidChangeContent((e) => schedule(e.document));
  documents.onDidClose((e) => { clearTimeout(timers.get(e.document.uri)); generation.delete(e.document.uri); groups.get(e.document.uri)?.delete('check'); });

  return {
    configure(raw: unknown) {
      const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
      const next = o.checkCodeDiagnostics === true;
      if (next === enabled) return;
      enabled = next;
      for (const doc of documents.all()) schedule(doc);
    },
  };
}

function sliceRange(text: string, r: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  const lines = text.split('\n');
  if (r.start.line === r.end.line) return (lines[r.start.line] ?? '').slice(r.start.character, r.end.character);
  return [(lines[r.start.line] ?? '').slice(r.start.character), ...lines.slice(r.start.line + 1, r.end.line), (lines[r.end.line] ?? '').slice(0, r.end.character)].join('\n');
}
