// The language server (dist/server.js). A thin protocol layer: handlers convert LSP params,
// call the indexer or service, and convert back. Nothing here knows how retrieval works.

import {
  createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, ResponseError, ErrorCodes, LSPErrorCodes,
  type InitializeParams, type InitializeResult, type WorkspaceFolder, type CancellationToken,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Commands, Methods, type RetrieveContextParams } from '../../../shared/protocol';
import { Indexer } from '../index/indexer';
import { defaultCacheDir } from '../index/persist';
import type { FSWatcher } from 'chokidar';
import { watchFolder } from '../index/watcher';
import { defaultSettings, InvalidRequest, pathOfUri, prepareIndexer, retrieveAt, validateParams, type Settings } from '../service';
import { CancelledError } from '../retrieval/pipeline';
import { registerEditorFeatures } from './editorFeatures';
import { readSettings } from './settings';
import { closeOrgConnections } from '../org/recall';
import { useOrgIndex } from '../org/library';
import { registerCheckCode } from '../check/lsp';
import { Scheduler } from '../scheduler';
import { IdleMemory } from './idleMemory';
import { describeRipgrep, findRipgrepHere } from '../platform/ripgrep';
import { hostPaths } from '../platform/paths';
import { boundHeapGrowth } from '../platform/heapGrowth';

boundHeapGrowth();
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let settings: Settings = defaultSettings();
let exclude: string[] = [];
let supportsProgress = false;
let supportsFolderEvents = false;
const watchers = new Map<string, FSWatcher>();
const log = (m: string) => connection.console.log(`[needle] ${m}`);

/** Where the prepare phase reports its steps: the progress of the folder being indexed. */
let onPrepareStep: ((name: string, done: number, total: number) => void) | undefined;

const indexer = new Indexer({
  cacheDir: process.env.NEEDLE_NO_CACHE ? null : defaultCacheDir(),
  log,
  // Retrieval's workspace-wide structures are the last phase of indexing: ready means answering at the usual latency.
  prepare: prepareIndexer({
    onStep: (name, done, total) => onPrepareStep?.(name, done, total),
    done: (steps) => log(`retrieval prepared: ${steps.map((s) => `${s.name} ${Math.round(s.ms)} ms`).join(', ')}`),
  }),
});

/**
 * Updates are applied one at a time in arrival order; retrievals run between them, never during
 * one (scheduler.ts). When the work runs out, the memory a burst grew is given back (idleMemory.ts).
 */
const scheduler: Scheduler = new Scheduler({
  onUpdateError: (e) => log(`update failed: ${(e as Error).message}`),
  onQuiet: () => idleMemory.quiet(),
});
const idleMemory = new IdleMemory(() => scheduler.busy);
/** Resolves once every queued update has been applied. */
const settled = (): Promise<unknown> => scheduler.settled();

connection.onInitialize((params: InitializeParams): InitializeResult => {
  supportsProgress = !!params.capabilities.window?.workDoneProgress;
  supportsFolderEvents = !!params.capabilities.workspace?.workspaceFolders;
  const opts = readSettings(params.initializationOptions);
  settings = { ...settings, ...opts.settings };
  useOrgIndex(indexer, settings.orgIndex, log); // opened now, not on the first request
  exclude = opts.exclude;
  indexer.setExclude(exclude);
  indexer.setDependencySettings(opts.dependencies);
  indexer.paused = opts.paused;
  checkCode.configure(params.initializationOptions);
  const folders: WorkspaceFolder[] = params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []);
  pendingFolders = folders.map((f) => hostPaths.toPath(f.uri));
  indexer.expectFolders(pendingFolders);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      hoverProvider: true,
      codeLensProvider: { resolveProvider: true },
      executeCommandProvider: { commands: [Commands.retrieveContext] },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      experimental: { needle: { version: '0.1.0', retrieveContext: true, checkCode: true } },
    },
    serverInfo: { name: 'needle', version: '0.1.0' },
  };
});

let pendingFolders: string[] = [];

async function indexFolder(root: string): Promise<void> {
  let token: string | undefined;
  if (supportsProgress) {
    token = `needle-index-${root}`;
    try { await connection.sendRequest('window/workDoneProgress/create', { token }); } catch { token = undefined; }
  }
  if (token) connection.sendProgress({ method: '$/progress' } as never, token, { kind: 'begin', title: `Needle: indexing ${root}`, percentage: 0, cancellable: false } as never);
  let lastReport = 0;
  const onProgress = (done: number, total: number) => {
    const now = Date.now();
    if (!token || (now - lastReport < 200 && done < total)) return;
    lastReport = now;
    connection.sendProgress({ method: '$/progress' } as never, token, { kind: 'report', message: `${done}/${total} files`, percentage: total ? Math.floor((done / total) * 100) : 100 } as never);
  };
  indexer.setProgressListener(onProgress);
  onPrepareStep = (name, done, total) => {
    if (token) connection.sendProgress({ method: '$/progress' } as never, token, { kind: 'report', message: `preparing retrieval: ${name} (${done + 1}/${total})`, percentage: 100 } as never);
  };
  // The watcher starts first, so no change between the cold scan and the first event is lost:
  // its events queue behind the cold index and are applied in order.
  if (!watchers.has(root)) {
    const w = watchFolder(root, {
      // Idle re-indexing: background work, after the user's requests (scheduler.ts updateIdle).
      changed: (p) => void scheduler.updateIdle(`disk ${p}`, () => indexer.diskChanged(p)),
      deleted: (p) => void scheduler.updateIdle(`disk ${p}`, () => indexer.diskDeleted(p)),
      restored: () => void reindexFolder(root),
      dependencyFile: (p) => void scheduler.updateLatest(`dependencies ${root}`, () => indexer.dependencyFileChanged(p)),
    }, exclude);
    watchers.set(root, w);
    await new Promise<void>((resolve) => { w.once('ready', () => resolve()); setTimeout(resolve, 10_000); });
  }
  try {
    await scheduler.update(() => indexer.addFolder(root));
    // What only an edit needs (whose files a shape change reaches), in idle time rather than in the start.
    void scheduler.updateIdle('consulters', () => indexer.index.prepareConsultedBy());
  } finally {
    if (token) connection.sendProgress({ method: '$/progress' } as never, token, { kind: 'end', message: `${indexer.index.stats().files} files indexed` } as never);
  }
}

/** A workspace folder that was deleted and has come back: a new watch and a fresh index. */
async function reindexFolder(root: string): Promise<void> {
  const w = watchers.get(root);
  watchers.delete(root);
  await w?.close();
  await scheduler.update(() => indexer.removeFolder(root));
  await indexFolder(root);
}

connection.onInitialized(async () => {
  log(describeRipgrep(findRipgrepHere()));
  // Clients without workspace-folder support would make the library throw on registration.
  if (supportsFolderEvents) connection.workspace.onDidChangeWorkspaceFolders(async (e) => {
    for (const f of e.removed) {
      const root = hostPaths.toPath(f.uri);
      await watchers.get(root)?.close();
      watchers.delete(root);
      await scheduler.update(() => indexer.removeFolder(root));
    }
    for (const f of e.added) await indexFolder(hostPaths.toPath(f.uri));
  });
  for (const root of pendingFolders) await indexFolder(root);
});

connection.onDidChangeConfiguration((change) => {
  const opts = readSettings((change.settings as Record<string, unknown> | undefined)?.needle ?? change.settings);
  settings = { ...settings, ...opts.settings };
  indexer.paused = opts.paused;
  indexer.setDependencySettings(opts.dependencies);
  checkCode.configure((change.settings as Record<string, unknown> | undefined)?.needle ?? change.settings);
});

// A document's newest text supersedes any older one still waiting: keystrokes queued behind a
// long update are applied once.
const setDocument = (uri: string, text: string) => { const p = safePath(uri); if (p) void scheduler.updateLatest(`document ${p}`, () => indexer.setDocument(p, text)); };
documents.onDidOpen((e) => setDocument(e.document.uri, e.document.getText()));
documents.onDidChangeContent((e) => setDocument(e.document.uri, e.document.getText()));
documents.onDidClose((e) => { const p = safePath(e.document.uri); if (p) void scheduler.update(() => indexer.closeDocument(p)); });

function safePath(uri: string): string | undefined {
  try { return pathOfUri(uri); } catch { return undefined; }
}

/** Waits (bounded) for the first index so that early requests see the workspace. */
async function waitForIndex(maxMs = 30_000): Promise<void> {
  const until = Date.now() + maxMs;
  while (indexer.state !== 'ready' && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

/** Resolves after the event loop has polled for I/O once more (two check phases apart), so pending input is read. */
function ioTurn(): Promise<void> {
  return new Promise((r) => setImmediate(() => setImmediate(r)));
}

/**
 * One retrieval through the scheduler. `background` marks work the user did not ask for just now
 * (code-lens resolves, diagnostics passes): it waits for interactive requests, gives way to them,
 * and is dropped once `stale` (its document version was superseded).
 */
export async function handleRetrieve(raw: unknown, token?: CancellationToken, background?: { stale: () => boolean }) {
  let params: RetrieveContextParams;
  try {
    params = validateParams(raw);
  } catch (e) {
    throw new ResponseError(ErrorCodes.InvalidParams, (e as Error).message);
  }
  await waitForIndex();
  try {
    // The scheduler starts the retrieval after every update that arrived before it, and applies
    // none while it runs. A turn of the event loop before and after: a $/cancelRequest that arrived
    // meanwhile is read (stages run back to back in one turn, so the pipeline's own checks rarely see it).
    const result = await scheduler.read(async (preempted) => {
      await ioTurn();
      if (token?.isCancellationRequested || preempted()) throw new CancelledError();
      return retrieveAt(indexer, params, settings, () => !!token?.isCancellationRequested || preempted());
    }, token, background && { background: true, stale: background.stale });
    await ioTurn();
    if (token?.isCancellationRequested) throw new CancelledError();
    return result;
  } catch (e) {
    if (e instanceof InvalidRequest) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
    if (e instanceof CancelledError && background?.stale()) throw new ResponseError(LSPErrorCodes.ContentModified, 'the document changed');
    if (e instanceof CancelledError || token?.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
    throw e;
  }
}

// The snapshot saved at shutdown lets the next start restore edges instead of resolving again.
connection.onShutdown(async () => {
  await settled();
  for (const root of indexer.folders) indexer.saveFolderCache(root);
  await closeOrgConnections(); // a PGlite folder is flushed and released
});

connection.onRequest(Methods.status, () => indexer.status());
connection.onRequest(Methods.retrieveContext, (params: unknown, token: CancellationToken) => handleRetrieve(params, token));
connection.onExecuteCommand(async (p, token) => {
  if (p.command !== Commands.retrieveContext) throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${p.command}`);
  if (!Array.isArray(p.arguments)) throw new ResponseError(ErrorCodes.InvalidParams, `${p.command} takes the arguments [uri, position, options?]`);
  const [uri, position, options] = p.arguments;
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) throw new ResponseError(ErrorCodes.InvalidParams, 'options (the third argument) must be an object');
  return handleRetrieve({ ...(options ?? {}), textDocument: { uri }, position }, token);
});

const checkCode = registerCheckCode({ connection, documents, indexer, getSettings: () => settings, read: (work) => scheduler.read(work), waitForIndex });
registerEditorFeatures({ connection, documents, indexer, getSettings: () => settings, retrieve: (params, token, background) => handleRetrieve(params, token, background), settled });

documents.listen(connection);
connection.listen();

process.on('uncaughtException', (e) => log(`uncaught: ${e.stack ?? e}`));
process.on('unhandledRejection', (e) => log(`unhandled: ${(e as Error)?.stack ?? e}`));
