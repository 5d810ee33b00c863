// A small stand-in for the `vscode` module, enough to activate dist/extension.js in plain Node:
// the real vscode-languageclient starts the real dist/server.js over IPC, and the test drives the
// commands and watches the status bar, the views and the clipboard. Anything not modelled here is
// a no-op that returns a disposable, so unused corners of the client library stay quiet.

import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { relative } from 'node:path';

type Listener<T> = (e: T) => unknown;

export class Disposable {
  constructor(private readonly fn: () => void = () => {}) {}
  static from(...ds: { dispose(): unknown }[]) { return new Disposable(() => ds.forEach((d) => d.dispose())); }
  dispose() { this.fn(); }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  event = (l: Listener<T>) => { this.listeners.add(l); return new Disposable(() => this.listeners.delete(l)); };
  fire(e: T) { for (const l of [...this.listeners]) l(e); }
  dispose() { this.listeners.clear(); }
}

export class Uri {
  private constructor(readonly scheme: string, readonly authority: string, readonly path: string, readonly query: string, readonly fragment: string) {}
  static parse(s: string) {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(s);
    if (!m) throw new Error(`bad uri ${s}`);
    return new Uri(m[1], m[2] ?? '', decodeURIComponent(m[3]), m[4] ?? '', m[5] ?? '');
  }
  static file(p: string) { return new Uri('file', '', p, '', ''); }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }) { return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? ''); }
  get fsPath() { return this.path; }
  with(c: Partial<{ scheme: string; authority: string; path: string; query: string; fragment: string }>) {
    return new Uri(c.scheme ?? this.scheme, c.authority ?? this.authority, c.path ?? this.path, c.query ?? this.query, c.fragment ?? this.fragment);
  }
  toString() {
    if (this.scheme === 'file') return pathToFileURL(this.path).href + (this.fragment ? `#${this.fragment}` : '');
    return `${this.scheme}:${this.authority ? `//${this.authority}` : ''}${encodeURI(this.path)}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
  toJSON() { return this.toString(); }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
  isEqual(o: Position) { return o.line === this.line && o.character === this.character; }
}
export class Range {
  readonly start: Position; readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    if (typeof a === 'number') { this.start = new Position(a, b as number); this.end = new Position(c!, d!); }
    else { this.start = a; this.end = b as Position; }
  }
  get isEmpty() { return this.start.isEqual(this.end); }
}
export class Selection extends Range {
  constructor(readonly anchor: Position, readonly active: Position) { super(anchor, active); }
}

export class TextDocument {
  version = 1; isClosed = false; isDirty = false; isUntitled = false; eol = 1;
  constructor(readonly uri: Uri, public languageId: string, private text: string) {}
  get fileName() { return this.uri.fsPath; }
  getText(r?: Range) {
    if (!r) return this.text;
    return this.text.slice(this.offsetAt(r.start), this.offsetAt(r.end));
  }
  get lineCount() { return this.text.split('\n').length; }
  lineAt(line: number) { const text = this.text.split('\n')[line] ?? ''; return { text, range: new Range(line, 0, line, text.length), lineNumber: line }; }
  offsetAt(p: Position) { const lines = this.text.split('\n'); let o = 0; for (let i = 0; i < p.line && i < lines.length; i++) o += lines[i].length + 1; return o + p.character; }
  positionAt(offset: number) { const before = this.text.slice(0, offset).split('\n'); return new Position(before.length - 1, before[before.length - 1].length); }
}

/** What the test reads back. */
export const recorded = {
  statusBar: [] as { text: string; tooltip?: string; command?: string }[],
  shown: [] as TextDocument[],
  clipboard: '',
  messages: [] as string[],
  quickPicks: [] as { label: string }[][],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  codeLensProviders: [] as { provideCodeLenses: Function; resolveCodeLens?: Function }[],
  hoverProviders: [] as { provideHover: Function }[],
  output: [] as string[],
};

const contentProviders = new Map<string, { provideTextDocumentContent(u: Uri): string }>();
const configListeners = new EventEmitter<{ affectsConfiguration(s: string): boolean }>();
let settings: Record<string, unknown> = {};

function noop(): unknown { return new Disposable(); }
/** A stand-in for whatever is not modelled: callable (an event or a function) and constructible. */
function stub(name: string): unknown {
  return new Proxy(function () { return new Disposable(); }, {
    get: (_t, p) => (p === Symbol.toPrimitive ? () => name : p === 'then' ? undefined : stub(`${name}.${String(p)}`)),
  });
}

function statusItem() {
  const item = {
    text: '', tooltip: undefined as unknown, command: undefined as unknown, name: '', backgroundColor: undefined as unknown,
    show() {}, hide() {}, dispose() {},
  };
  return new Proxy(item, {
    set(t, p, v) {
      (t as Record<string | symbol, unknown>)[p] = v;
      if (p === 'text') recorded.statusBar.push({ text: String(v), tooltip: String(t.tooltip ?? ''), command: t.command as string });
      return true;
    },
  });
}

/** `appRoot`: VS Code's installation folder (`vscode.env.appRoot`), where its own ripgrep lives. */
export function createVscode(folder: string, active: { file: string; line: number; character: number }, opts: { appRoot?: string } = {}) {
  const doc = new TextDocument(Uri.file(active.file), 'java', readFileSync(active.file, 'utf8'));
  const pos = new Position(active.line, active.character);
  const editor = { document: doc as TextDocument, selection: new Selection(pos, pos), viewColumn: 1 };
  const workspaceFolder = { uri: Uri.file(folder), name: 'acme-shop', index: 0 };
  const window = {
    activeTextEditor: editor as typeof editor | undefined,
    visibleTextEditors: [editor],
    createOutputChannel: (name: string) => ({
      name, append: (s: string) => recorded.output.push(s), appendLine: (s: string) => recorded.output.push(s),
      replace() {}, clear() {}, show() {}, hide() {}, dispose() {},
    }),
    createStatusBarItem: () => statusItem(),
    showInformationMessage: async (m: string) => { recorded.messages.push(`info: ${m}`); return undefined; },
    showWarningMessage: async (m: string) => { recorded.messages.push(`warning: ${m}`); return undefined; },
    showErrorMessage: async (m: string) => { recorded.messages.push(`error: ${m}`); return undefined; },
    showQuickPick: async (items: { label: string }[]) => { recorded.quickPicks.push(items); return undefined; },
    withProgress: async (_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
      task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => new Disposable() }),
    showTextDocument: async (d: TextDocument) => {
      recorded.shown.push(d);
      const e = { document: d, selection: new Selection(new Position(0, 0), new Position(0, 0)), viewColumn: 2 };
      window.activeTextEditor = e;
      return e;
    },
    onDidChangeActiveTextEditor: noop, onDidChangeVisibleTextEditors: noop, onDidChangeTextEditorSelection: noop,
    tabGroups: { all: [], onDidChangeTabs: noop, onDidChangeTabGroups: noop },
  };
  const workspace = {
    workspaceFolders: [workspaceFolder],
    textDocuments: [doc],
    notebookDocuments: [],
    getWorkspaceFolder: (u: Uri) => (u.scheme === 'file' && !relative(folder, u.fsPath).startsWith('..') ? workspaceFolder : undefined),
    asRelativePath: (u: Uri | string) => { const p = typeof u === 'string' ? u : u.fsPath; const r = relative(folder, p); return r.startsWith('..') ? p : r; },
    getConfiguration: (section?: string) => {
      const prefix = section ? `${section}.` : '';
      return {
        get: (k: string, d?: unknown) => (prefix + k in settings ? settings[prefix + k] : d),
        has: (k: string) => prefix + k in settings,
        inspect: (k: string) => ({ key: prefix + k, globalValue: settings[prefix + k] }),
        update: async (k: string, v: unknown) => { settings[prefix + k] = v; configListeners.fire({ affectsConfiguration: (s: string) => (prefix + k).startsWith(s) }); },
      };
    },
    onDidChangeConfiguration: configListeners.event,
    registerTextDocumentContentProvider: (scheme: string, p: { provideTextDocumentContent(u: Uri): string }) => { contentProviders.set(scheme, p); return new Disposable(() => contentProviders.delete(scheme)); },
    openTextDocument: async (u: Uri) => {
      const p = contentProviders.get(u.scheme);
      if (p) return new TextDocument(u, u.path.endsWith('.md') ? 'markdown' : 'plaintext', p.provideTextDocumentContent(u));
      return new TextDocument(u, 'java', readFileSync(fileURLToPath(u.toString()), 'utf8'));
    },
    createFileSystemWatcher: () => ({ onDidCreate: noop, onDidChange: noop, onDidDelete: noop, dispose() {} }),
    onDidOpenTextDocument: noop, onDidCloseTextDocument: noop, onDidChangeTextDocument: noop, onDidSaveTextDocument: noop,
    onWillSaveTextDocument: noop, onDidChangeWorkspaceFolders: noop, onDidOpenNotebookDocument: noop, onDidCloseNotebookDocument: noop,
    onDidChangeNotebookDocument: noop, onDidSaveNotebookDocument: noop, onDidCreateFiles: noop, onDidRenameFiles: noop, onDidDeleteFiles: noop,
    onWillCreateFiles: noop, onWillRenameFiles: noop, onWillDeleteFiles: noop,
  };
  const languages = {
    match: (selector: unknown, d: TextDocument): number => {
      const sels = Array.isArray(selector) ? selector : [selector];
      return sels.some((s) => typeof s === 'string' ? s === d.languageId : (!s.language || s.language === d.languageId) && (!s.scheme || s.scheme === d.uri.scheme)) ? 10 : 0;
    },
    createDiagnosticCollection: () => ({ set() {}, delete() {}, clear() {}, forEach() {}, get: () => [], has: () => false, dispose() {} }),
    registerCodeLensProvider: (_s: unknown, p: { provideCodeLenses: Function; resolveCodeLens?: Function }) => { recorded.codeLensProviders.push(p); return new Disposable(); },
    registerHoverProvider: (_s: unknown, p: { provideHover: Function }) => { recorded.hoverProviders.push(p); return new Disposable(); },
    setTextDocumentLanguage: async (d: TextDocument, id: string) => { d.languageId = id; return d; },
  };
  const commands = {
    registerCommand: (id: string, fn: (...a: unknown[]) => unknown) => {
      if (recorded.commands.has(id)) throw new Error(`command '${id}' already exists`);
      recorded.commands.set(id, fn);
      return new Disposable(() => recorded.commands.delete(id));
    },
    executeCommand: async (id: string, ...args: unknown[]) => recorded.commands.get(id)?.(...args),
  };
  const env = { appName: 'mock', appRoot: opts.appRoot, language: 'en', clipboard: { writeText: async (s: string) => { recorded.clipboard = s; }, readText: async () => recorded.clipboard }, openExternal: async () => true };
  const enums = {
    StatusBarAlignment: { Left: 1, Right: 2 }, ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 }, ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    QuickPickItemKind: { Separator: -1, Default: 0 }, DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  };
  class ThemeColor { constructor(readonly id: string) {} }
  class MarkdownString { constructor(public value = '', public supportThemeIcons = false) {} appendMarkdown(s: string) { this.value += s; return this; } }
  class Hover { constructor(readonly contents: unknown, readonly range?: Range) {} }
  class CodeLens { constructor(public range: Range, public command?: { title: string; command: string; arguments?: unknown[] }) {} get isResolved() { return !!this.command; } }
  class DocumentLink { constructor(readonly range: Range, readonly target?: Uri) {} }
  class CancellationTokenSource { token = { isCancellationRequested: false, onCancellationRequested: () => new Disposable() }; cancel() { this.token.isCancellationRequested = true; } dispose() {} }
  // Namespaces: what is not modelled registers nothing and returns a disposable.
  const ns = <T extends object>(o: T): T => new Proxy(o, { get: (t, p) => (p in t ? (t as Record<string | symbol, unknown>)[p] : typeof p === 'string' ? noop : undefined) });
  const api: Record<string, unknown> = {
    version: '1.91.0', Uri, Position, Range, Selection, Disposable, EventEmitter, ThemeColor, MarkdownString, Hover, CodeLens, DocumentLink,
    CancellationTokenSource, window: ns(window), workspace: ns(workspace), languages: ns(languages), commands: ns(commands), env: ns(env), ...enums,
  };
  const vscode = new Proxy(api, { get: (t, p) => (p in t ? t[p as string] : typeof p === 'string' ? (t[p] = stub(p)) : undefined) });
  return { vscode, editor, doc, setSettings: (s: Record<string, unknown>) => { settings = s; } };
}
