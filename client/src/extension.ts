// The VS Code client (dist/extension.js). Thin: it starts dist/server.js and wires editor UI to
// protocol calls. Everything an LSP editor can use (hover, code lens, diagnostics, retrieval)
// lives in the server, so Neovim and Emacs get the same features.

import * as vscode from 'vscode';
import {
  LanguageClient, TransportKind, State, ResponseError, LSPErrorCodes, DidChangeConfigurationNotification,
  type LanguageClientOptions, type ServerOptions,
} from 'vscode-languageclient/node';
import { Commands, Methods, type RetrievalResult, type RetrieveContextParams, type StatusResult } from '../../shared/protocol';
import { ContextView } from './contextView';
import { renderContext, statusLines, verdictLine } from './render';
import { NeedleStatusBar } from './statusBar';
import { checkLanguageModelTools, registerLanguageModelTools } from './lmTools';
import { ripgrepForServer } from './ripgrep';

let client: LanguageClient | undefined;

/** The `needle.*` settings as the server reads them (server/src/lsp/settings.ts). */
function needleSettings(): Record<string, unknown> {
  const c = vscode.workspace.getConfiguration('needle');
  const keys = ['budgetTokens', 'threshold', 'maxRounds', 'exclude', 'pauseIndexing', 'codeLens', 'diagnostics', 'diagnosticSeverity', 'goldenRepositories', 'checkCodeDiagnostics',
    'dependencies', 'internalGroups', 'mavenRepositories', 'useMavenCommand'];
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = c.get(k);
    if (v !== undefined && v !== null) out[k] = v;
  }
  // τ overrides the server's calibrated threshold only where the user set it; the manifest's
  // default is documentation, not an override.
  const t = c.inspect<number>('threshold');
  const explicit = t?.workspaceFolderValue ?? t?.workspaceValue ?? t?.globalValue;
  if (explicit === undefined) delete out.threshold;
  else out.threshold = explicit;
  return out;
}

/** Path of a URI relative to its workspace folder, for headings. */
function label(uri: string): string {
  try {
    return vscode.workspace.asRelativePath(vscode.Uri.parse(uri, true), true);
  } catch {
    return uri;
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Needle');
  const serverModule = context.asAbsolutePath('dist/server.js');
  const rg = ripgrepForServer(context.extensionPath, vscode.env.appRoot);
  output.appendLine(rg.message);
  const env = rg.env; // merged onto process.env by the client library
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { env } },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { env, execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const view = new ContextView();
  let status: NeedleStatusBar | undefined;

  /** Shows a result in a new view and remembers its confidence for the status bar. */
  const present = async (r: RetrievalResult, origin?: { uri: string; line: number; character: number }) => {
    status?.setConfidence(r.confidence);
    const name = origin ? `${label(origin.uri).split('/').pop()}:${origin.line + 1}` : 'result';
    await view.show(renderContext(r, { origin, label }), `Needle context ${name}`);
  };

  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'java' }],
    // The `needle` section is synchronized by hand (below) so that τ is sent only where set.
    initializationOptions: () => needleSettings(),
    outputChannel: output,
    middleware: {
      // The server's command `needle.retrieveContext` (code lens click) is registered by the
      // client library; here its result is shown instead of being dropped.
      executeCommand: async (command, args, next) => {
        const result = await next(command, args);
        if (command === Commands.retrieveContext && isResult(result)) {
          const [uri, position] = args as [string, { line: number; character: number } | undefined];
          await present(result, typeof uri === 'string' && position ? { uri, ...position } : undefined);
        }
        return result;
      },
    },
  };

  const lc = new LanguageClient('needle', 'Needle', serverOptions, clientOptions);
  client = lc;
  status = new NeedleStatusBar(lc);
  lc.registerFeature(status.progressFeature());
  context.subscriptions.push(output, view.register(), status);
  registerLanguageModelTools(context, () => client);
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('needle') || lc.state !== State.Running) return;
    void lc.sendNotification(DidChangeConfigurationNotification.type, { settings: { needle: needleSettings() } });
    status?.poll(500); // pausing or resuming shows at once
  }));

  /** Retrieves for the active editor's cursor, with a cancellable progress notification. */
  const retrieveForCursor = async (): Promise<{ result: RetrievalResult; origin: { uri: string; line: number; character: number } } | undefined> => {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'java' || editor.document.uri.scheme !== 'file') {
      void vscode.window.showWarningMessage('Needle: place the cursor in a Java file of the workspace.');
      return undefined;
    }
    if (lc.state !== State.Running) {
      void vscode.window.showWarningMessage('Needle: the language server is not running yet.');
      return undefined;
    }
    const pos = editor.selection.active;
    const uri = lc.code2ProtocolConverter.asUri(editor.document.uri);
    const params: RetrieveContextParams = { textDocument: { uri }, position: { line: pos.line, character: pos.character } };
    // A selection, if any, is the task text (an error message, a test name...).
    const selected = editor.selection.isEmpty ? '' : editor.document.getText(editor.selection).trim();
    if (selected) params.query = selected.slice(0, 4000);
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Needle: retrieving context…', cancellable: true },
        (_p, token) => lc.sendRequest<RetrievalResult>(Methods.retrieveContext, params, token),
      );
      return { result, origin: { uri, ...params.position } };
    } catch (e) {
      if (e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled) return undefined;
      void vscode.window.showErrorMessage(`Needle: ${(e as Error).message}`);
      return undefined;
    }
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('needle.retrieveContextForCursor', async () => {
      const r = await retrieveForCursor();
      if (r) await present(r.result, r.origin);
    }),

    vscode.commands.registerCommand('needle.copyContext', async () => {
      // In a context view, copy what it shows; elsewhere retrieve for the cursor first.
      let markdown = view.activeMarkdown();
      let verdict = '';
      if (markdown === undefined) {
        const r = await retrieveForCursor();
        if (!r) return;
        status?.setConfidence(r.result.confidence);
        markdown = renderContext(r.result, { origin: r.origin, label });
        verdict = ` (${verdictLine(r.result)})`;
      }
      await vscode.env.clipboard.writeText(markdown);
      void vscode.window.showInformationMessage(`Needle: context copied to the clipboard${verdict}.`);
    }),

    vscode.commands.registerCommand('needle.showStatus', async () => {
      const s = (await status?.fetch()) ?? status?.status;
      await showStatus(lc, output, s);
    }),

    vscode.commands.registerCommand('needle.showOutput', () => output.show(true)),

    vscode.commands.registerCommand('needle.checkLanguageModelTools', async () => {
      try {
        void vscode.window.showInformationMessage(await checkLanguageModelTools());
      } catch (e) {
        void vscode.window.showErrorMessage(`Needle: language-model tool check failed: ${(e as Error).message}`);
      }
    }),

    vscode.commands.registerCommand('needle.restartServer', async () => {
      await lc.restart();
    }),
  );

  await lc.start();
}

function isResult(x: unknown): x is RetrievalResult {
  return !!x && typeof x === 'object' && Array.isArray((x as RetrievalResult).items) && typeof (x as RetrievalResult).confidence === 'number';
}

async function showStatus(lc: LanguageClient, output: vscode.OutputChannel, s: StatusResult | undefined): Promise<void> {
  type Pick = vscode.QuickPickItem & { run?: () => unknown };
  const items: Pick[] = [];
  if (lc.state !== State.Running) items.push({ label: '$(error) The language server is not running', detail: 'See the "Needle" output for its log.' });
  if (s) {
    for (const line of statusLines(s)) items.push({ label: line });
    if (s.skipped?.length) {
      items.push({ label: 'Skipped files', kind: vscode.QuickPickItemKind.Separator });
      for (const f of s.skipped.slice(0, 50)) items.push({ label: f.path, description: f.reason });
      if (s.skipped.length > 50) items.push({ label: `… ${s.skipped.length - 50} more` });
    }
  }
  const paused = vscode.workspace.getConfiguration('needle').get<boolean>('pauseIndexing') === true;
  items.push(
    { label: 'Actions', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(search) Retrieve context for cursor', run: () => vscode.commands.executeCommand('needle.retrieveContextForCursor') },
    { label: paused ? '$(debug-start) Resume indexing' : '$(debug-pause) Pause indexing', run: () => vscode.workspace.getConfiguration('needle').update('pauseIndexing', !paused, vscode.ConfigurationTarget.Workspace) },
    { label: '$(output) Show server log', run: () => output.show(true) },
    { label: '$(debug-restart) Restart server', run: () => lc.restart() },
  );
  const chosen = await vscode.window.showQuickPick(items, { title: 'Needle status', placeHolder: s ? `${s.state}: ${s.files} files · ${s.symbols} symbols · ${s.edges} edges` : 'status unavailable' });
  await chosen?.run?.();
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop();
}
