// Language-model tools for VS Code chat (agent mode): Needle's retrieval and its check of
// proposed code, as `vscode.lm.registerTool` tools declared in package.json
// (`contributes.languageModelTools`). The `vscode.lm` tool API exists from VS Code 1.95 on; on
// older versions nothing is registered and the rest of the extension works as before.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { Methods, type CheckCodeParams, type CheckCodeResult, type RetrievalResult, type RetrieveContextParams } from '../../shared/protocol';
import { renderContext, verdictSummary } from './render';
import { hostPaths } from '../../server/src/platform/paths';

export const TOOL_RETRIEVE = 'needle_retrieve_context';
export const TOOL_CHECK = 'needle_check_code';

interface RetrieveInput { file: string; line: number; column?: number; task?: string; budget_tokens?: number }
interface CheckInput { file: string; code: string }


/** The subset of the tool API used here (absent from the 1.91 typings). */
interface LmApi {
  registerTool(name: string, tool: {
    prepareInvocation?(options: { input: unknown }, token: vscode.CancellationToken): unknown;
    invoke(options: { input: unknown }, token: vscode.CancellationToken): Promise<unknown>;
  }): vscode.Disposable;
}

/**
 * The retrieval tool's last answer as the server sent it (the structured result, not its rendered
 * text): VS Code hands a tool's answer back to its caller as text parts only, so the setup check
 * below reads the verdict from here.
 */
let lastRetrieval: RetrievalResult | undefined;

type Ctors = { LanguageModelToolResult: new (parts: unknown[]) => unknown; LanguageModelTextPart: new (text: string) => unknown };

function fileUri(file: string): vscode.Uri | undefined {
  if (!file) return undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (hostPaths.flavour.isAbsolute(file)) {
    try { return vscode.Uri.parse(hostPaths.toUri(file), true); } catch { return undefined; }
  }
  const folder = folders[0];
  return folder ? vscode.Uri.joinPath(folder.uri, file) : undefined;
}

function describe(file: string): string {
  return file.replace(/[`\n]/g, '');
}

export function formatFindings(r: Pick<CheckCodeResult, 'findings' | 'placement' | 'references'>): string {
  const errors = r.findings.filter((f) => f.severity === 'error');
  const out = [`${errors.length ? `${errors.length} problem${errors.length === 1 ? '' : 's'}` : 'no problems'} (${r.references} references checked, placed as ${r.placement})`];
  for (const f of r.findings) out.push(`- ${f.severity} [${f.code}] line ${f.range.start.line + 1}, column ${f.range.start.character + 1}: ${f.message}`);
  return out.join('\n');
}

export function registerLanguageModelTools(context: vscode.ExtensionContext, getClient: () => LanguageClient | undefined): boolean {
  const api = vscode as unknown as { lm?: Partial<LmApi> } & Partial<Ctors>;
  const lm = api.lm;
  if (!lm || typeof lm.registerTool !== 'function' || typeof api.LanguageModelToolResult !== 'function' || typeof api.LanguageModelTextPart !== 'function') return false;
  const result = (text: string) => new api.LanguageModelToolResult!([new api.LanguageModelTextPart!(text)]);
  const running = () => {
    const c = getClient();
    if (!c || !c.isRunning()) throw new Error('the Needle language server is not running yet; try again in a moment');
    return c;
  };

  context.subscriptions.push(lm.registerTool(TOOL_RETRIEVE, {
    prepareInvocation(options) {
      const i = options.input as RetrieveInput;
      return {
        invocationMessage: `Needle: retrieving context for ${describe(i.file)}:${i.line}`,
        confirmationMessages: {
          title: 'Retrieve context with Needle',
          message: new vscode.MarkdownString(`Needle will read \`${describe(i.file)}\` around line ${i.line} and the workspace files its index selects (code, Javadoc, configuration), within a budget of ${i.budget_tokens ?? 4000} tokens, and hand them to the model. Secrets are redacted; nothing is written.`),
        },
      };
    },
    async invoke(options, token) {
      const i = options.input as RetrieveInput;
      const uri = fileUri(i.file);
      if (!uri) return result(`invalid input: file must be a path relative to the workspace root, got ${JSON.stringify(i.file)}`);
      if (!Number.isInteger(i.line) || i.line < 1) return result('invalid input: line must be a 1-based integer');
      const c = running();
      const params: RetrieveContextParams = { textDocument: { uri: c.code2ProtocolConverter.asUri(uri) }, position: { line: i.line - 1, character: Math.max(0, (i.column ?? 1) - 1) } };
      if (i.task) params.query = i.task.slice(0, 4000);
      if (i.budget_tokens) params.budgetTokens = i.budget_tokens;
      try {
        const r = await c.sendRequest<RetrievalResult>(Methods.retrieveContext, params, token);
        lastRetrieval = r;
        return result(renderContext(r, { label: (u) => vscode.workspace.asRelativePath(vscode.Uri.parse(u, true), true) }));
      } catch (e) {
        return result(`Needle could not retrieve: ${(e as Error).message}`);
      }
    },
  }));

  context.subscriptions.push(lm.registerTool(TOOL_CHECK, {
    prepareInvocation(options) {
      const i = options.input as CheckInput;
      return {
        invocationMessage: `Needle: checking proposed code for ${describe(i.file)}`,
        confirmationMessages: {
          title: 'Check code with Needle',
          message: new vscode.MarkdownString(`Needle will read \`${describe(i.file)}\` and the workspace index to check the proposed code (${i.code?.split('\n').length ?? 0} lines) for APIs that do not exist, wrong arities and copied instruction-like content. Nothing is written.`),
        },
      };
    },
    async invoke(options, token) {
      const i = options.input as CheckInput;
      const uri = fileUri(i.file);
      if (!uri) return result(`invalid input: file must be a path relative to the workspace root, got ${JSON.stringify(i.file)}`);
      if (typeof i.code !== 'string' || !i.code.trim()) return result('invalid input: code must be the proposed method or file');
      const c = running();
      try {
        const params: CheckCodeParams = { textDocument: { uri: c.code2ProtocolConverter.asUri(uri) }, text: i.code };
        const r = await c.sendRequest<CheckCodeResult>(Methods.checkCode, params, token);
        return result(formatFindings(r));
      } catch (e) {
        return result(`Needle could not check: ${(e as Error).message}`);
      }
    },
  }));
  return true;
}

/**
 * "Needle: Check language-model tools": lists the Needle tools VS Code knows and invokes the
 * retrieval tool at the cursor, the way a chat agent would. For users checking their setup, and
 * for the end-to-end test.
 */
export async function checkLanguageModelTools(): Promise<string> {
  const lm = (vscode as unknown as { lm?: { tools?: readonly { name: string }[]; invokeTool?(name: string, options: { input: unknown; toolInvocationToken: undefined }, token?: vscode.CancellationToken): Thenable<{ content: unknown[] }> } }).lm;
  if (!lm?.tools || !lm.invokeTool) return 'Needle: this VS Code has no language-model tool API (1.95 or later needed).';
  const names = lm.tools.map((t) => t.name).filter((n) => n.startsWith('needle_')).sort();
  const editor = vscode.window.activeTextEditor;
  if (!editor) return `Needle: language-model tools registered: ${names.join(', ') || 'none'}; open a Java file to try one.`;
  const file = vscode.workspace.asRelativePath(editor.document.uri, false);
  lastRetrieval = undefined;
  const r = await lm.invokeTool(TOOL_RETRIEVE, { input: { file, line: editor.selection.active.line + 1 }, toolInvocationToken: undefined });
  const text = r.content.map((p) => (p && typeof p === 'object' && 'value' in p ? String((p as { value: unknown }).value) : '')).join('');
  // The verdict from the server's structured result of that invocation, never parsed back from the text.
  const verdict = verdictSummary(lastRetrieval);
  return `Needle: language-model tools registered: ${names.join(', ')}; ${TOOL_RETRIEVE} answered ${text.length} characters (${verdict}).`;
}
