// Hover, code lenses and diagnostics: each runs the same retrieval as `needle/retrieveContext`
// for one method and shows the gate's verdict. Conversions only; the verdict comes from the core.

import {
  DiagnosticSeverity, LSPErrorCodes, ResponseError, type CancellationToken, type CodeLens, type Connection, type Diagnostic, type Hover, type TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Commands, type RetrievalResult, type RetrieveContextParams } from '../../../shared/protocol';
import type { Indexer } from '../index/indexer';
import type { SymbolFact } from '../java/facts';
import { pathOfUri, type Settings } from '../service';
import { currentEditorSettings } from './settings';
import { bodyIsEmpty } from '../gate/scenario';
import { scenarioLabel, verdictLine } from '../render/markdown';

interface Deps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  indexer: Indexer;
  getSettings: () => Settings;
  /** `background`: scheduled after user requests and dropped once `stale` (scheduler.ts). */
  retrieve: (params: RetrieveContextParams, token?: CancellationToken, background?: { stale: () => boolean }) => Promise<RetrievalResult>;
  settled: () => Promise<unknown>;
}

/** Diagnostics wait for typing to pause this long before the gate runs over the file. */
const DIAGNOSTIC_DEBOUNCE_MS = 600;
/** Upper bound of methods checked per file per pass, so huge files stay responsive. */
export const MAX_METHODS_PER_PASS = 60;

const fmt = (x: number) => x.toFixed(2);

function uncovered(r: RetrievalResult, n: number) {
  return r.dependencySurface.filter((s) => s.internal && !s.covered).sort((a, b) => b.weight * b.novelty - a.weight * a.novelty || (a.symbol < b.symbol ? -1 : 1)).slice(0, n);
}

function methodsOf(indexer: Indexer, path: string): SymbolFact[] {
  return (indexer.index.file(path)?.facts.symbols ?? []).filter((s) => s.kind === 'method' || s.kind === 'constructor');
}

/** Abstract, native and interface methods have no body to write: no context is needed for them. */
export function hasBody(symbols: SymbolFact[], m: SymbolFact): boolean {
  if (m.kind === 'constructor') return true;
  if (m.modifiers.includes('abstract') || m.modifiers.includes('native')) return false;
  const owner = m.parent >= 0 ? symbols[m.parent] : undefined;
  if (owner && (owner.kind === 'interface' || owner.kind === 'annotation')) return ['default', 'static', 'private'].some((k) => m.modifiers.includes(k));
  return true;
}

/**
 * The methods a diagnostics pass judges: those with code in their body. An empty `{}` in a file
 * (an intentionally empty override, a no-op hook) needs nothing; lenses and hovers still judge it
 * as a new body. At most MAX_METHODS_PER_PASS.
 */
export function diagnosedMethods(symbols: SymbolFact[], text: string | undefined): SymbolFact[] {
  return symbols.filter((m) => (m.kind === 'method' || m.kind === 'constructor') && hasBody(symbols, m) && (text === undefined || !bodyIsEmpty(text, m.span)))
    .slice(0, MAX_METHODS_PER_PASS);
}

export function registerEditorFeatures(d: Deps): void {
  const { connection, documents, indexer } = d;

  connection.onHover(async (p, token): Promise<Hover | null> => {
    let path: string;
    try { path = pathOfUri(p.textDocument.uri); } catch { return null; }
    await d.settled();
    const sym = indexer.index.enclosingSymbol(path, p.position.line, p.position.character);
    if (!sym || (sym.sym.kind !== 'method' && sym.sym.kind !== 'constructor')) return null;
    const r = await d.retrieve({ textDocument: p.textDocument, position: { line: sym.sym.nameSpan.sl, character: sym.sym.nameSpan.sc } }, token);
    const lines = [`**Needle** — ${verdictLine(r)} (τ ${fmt(r.threshold)})`];
    if (r.review) lines.push('', ...r.reviewReasons.map((x) => `- ${x}`));
    const top = uncovered(r, 5);
    if (top.length) {
      lines.push('', 'Not in context:');
      for (const s of top) lines.push(`- ${s.uri && s.line !== undefined ? `[\`${s.symbol}\`](${s.uri}#L${s.line + 1})` : `\`${s.symbol}\``} (novelty ${fmt(s.novelty)})`);
    }
    return { contents: { kind: 'markdown', value: lines.join('\n') } };
  });

  connection.onCodeLens((p): CodeLens[] => {
    if (!currentEditorSettings().codeLens) return [];
    let path: string;
    try { path = pathOfUri(p.textDocument.uri); } catch { return []; }
    return methodsOf(indexer, path).map((m) => ({
      range: { start: { line: m.nameSpan.sl, character: m.nameSpan.sc }, end: { line: m.nameSpan.el, character: m.nameSpan.ec } },
      data: { uri: p.textDocument.uri, line: m.nameSpan.sl, character: m.nameSpan.sc, version: documents.get(p.textDocument.uri)?.version },
    }));
  });

  connection.onCodeLensResolve(async (lens, token): Promise<CodeLens> => {
    const data = lens.data as { uri: string; line: number; character: number; version?: number };
    const position = { line: data.line, character: data.character };
    try {
      // Background work: a lens of a document version since edited is not worth computing.
      const stale = () => data.version !== undefined && documents.get(data.uri)?.version !== data.version;
      const r = await d.retrieve({ textDocument: { uri: data.uri }, position }, token, { stale });
      lens.command = { title: verdictLine(r), command: Commands.retrieveContext, arguments: [data.uri, position] };
    } catch (e) {
      // Cancelled or superseded: the client asks again for the current version.
      if (e instanceof ResponseError && (e.code === LSPErrorCodes.RequestCancelled || e.code === LSPErrorCodes.ContentModified)) throw e;
      lens.command = { title: `needle: ${(e as Error).message}`, command: '' };
    }
    return lens;
  });

  // Diagnostics: debounced per document; a newer edit supersedes a running pass.
  const timers = new Map<string, NodeJS.Timeout>();
  const generation = new Map<string, number>();
  const schedule = (doc: TextDocument) => {
    clearTimeout(timers.get(doc.uri));
    const gen = (generation.get(doc.uri) ?? 0) + 1;
    generation.set(doc.uri, gen);
    timers.set(doc.uri, setTimeout(() => void publish(doc.uri, gen), DIAGNOSTIC_DEBOUNCE_MS));
  };
  const publish = async (uri: string, gen: number) => {
    const es = currentEditorSettings();
    if (!es.diagnostics) { await connection.sendDiagnostics({ uri, diagnostics: [] }); return; }
    let path: string;
    try { path = pathOfUri(uri); } catch { return; }
    await d.settled();
    const diagnostics: Diagnostic[] = [];
    for (const m of diagnosedMethods(indexer.index.file(path)?.facts.symbols ?? [], indexer.textOf(path))) {
      if (generation.get(uri) !== gen) return; // superseded by a newer edit
      let r: RetrievalResult;
      try {
        r = await d.retrieve({ textDocument: { uri }, position: { line: m.nameSpan.sl, character: m.nameSpan.sc } }, undefined, { stale: () => generation.get(uri) !== gen });
      } catch { continue; }
      if (!r.review) continue;
      const missing = uncovered(r, 5);
      diagnostics.push({
        range: { start: { line: m.nameSpan.sl, character: m.nameSpan.sc }, end: { line: m.nameSpan.el, character: m.nameSpan.ec } },
        severity: { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint }[es.diagnosticSeverity],
        source: 'needle',
        code: 'insufficient-context',
        message: `Context may be insufficient for this ${scenarioLabel(r)} (P(sufficient) ${fmt(r.confidence)} < τ ${fmt(r.threshold)}): ${missing.map((s) => s.symbol).join(', ') || r.reviewReasons.join('; ')}`,
        relatedInformation: missing.filter((s) => s.uri && s.line !== undefined).map((s) => ({
          location: { uri: s.uri!, range: { start: { line: s.line!, character: 0 }, end: { line: s.line!, character: 0 } } },
          message: `not in context: ${s.symbol}`,
        })),
      });
    }
    if (generation.get(uri) === gen) await connection.sendDiagnostics({ uri, diagnostics });
  };
  documents.onDidOpen((e) => schedule(e.document));
  documents.onDidChangeContent((e) => schedule(e.document));
  documents.onDidSave((e) => schedule(e.document));
  documents.onDidClose((e) => { clearTimeout(timers.get(e.document.uri)); generation.delete(e.document.uri); void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] }); });
}
