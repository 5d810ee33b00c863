// The read-only view of a retrieval result: a virtual markdown document under the scheme
// `needle-context`, whose `file://…#Lnn` links open the file at that line.

import * as vscode from 'vscode';

export const SCHEME = 'needle-context';

export class ContextView implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, this),
      vscode.languages.registerDocumentLinkProvider({ scheme: SCHEME }, this),
      // Forget the text of views nobody looks at any more.
      vscode.workspace.onDidCloseTextDocument((d) => { if (d.uri.scheme === SCHEME) this.docs.delete(d.uri.toString()); }),
      this.changed,
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '# Needle context\n\nThis view has expired: run **Needle: Retrieve context for cursor** again.\n';
  }

  /** Links in the markdown source: every `(file://…#Lnn)` target opens the file at that line. */
  provideDocumentLinks(doc: vscode.TextDocument): vscode.DocumentLink[] {
    const links: vscode.DocumentLink[] = [];
    const text = doc.getText();
    const re = /\]\((file:\/\/[^)\s]+)\)/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const start = doc.positionAt(m.index + 2);
      const end = doc.positionAt(m.index + 2 + m[1].length);
      try {
        links.push(new vscode.DocumentLink(new vscode.Range(start, end), vscode.Uri.parse(m[1], true)));
      } catch { /* not a URI: leave it as text */ }
    }
    return links;
  }

  /** The markdown of the view in the active editor, if the active editor shows one. */
  activeMarkdown(): string | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    return doc && doc.uri.scheme === SCHEME ? doc.getText() : undefined;
  }

  /** Opens a new view beside the source editor. */
  async show(markdown: string, title: string): Promise<vscode.TextEditor> {
    const safe = title.replace(/[\\/:*?"<>|#?]+/g, '_');
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${safe}.md`, query: String(++this.counter) });
    this.docs.set(uri.toString(), markdown);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') doc = await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: false });
  }
}
