// The status bar item: indexing progress (from the server's `$/progress`, and `needle/status`
// polled every 2 s while indexing), then the index size and the confidence of the last retrieval.
// It follows the client's state, so after a crash and restart it picks up again by itself.

import * as vscode from 'vscode';
import {
  State, WorkDoneProgress, WorkDoneProgressCreateRequest,
  type FeatureState, type LanguageClient, type StaticFeature, type WorkDoneProgressBegin,
  type WorkDoneProgressReport, type WorkDoneProgressEnd, type ProgressToken,
} from 'vscode-languageclient/node';
import { Methods, type StatusResult } from '../../shared/protocol';

/** How often `needle/status` is polled while the server indexes. */
const POLL_INDEXING_MS = 2000;
/** How often it is refreshed once ready (edits and file changes move the counts). */
const POLL_READY_MS = 30_000;

type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

export class NeedleStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('needle.status', vscode.StatusBarAlignment.Left, 10);
  private timer: NodeJS.Timeout | undefined;
  private lastStatus: StatusResult | undefined;
  private lastConfidence: number | undefined;
  private progress: string | undefined;
  private readonly progressTokens = new Map<string, vscode.Disposable>();
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  constructor(private readonly client: LanguageClient) {
    this.item.name = 'Needle';
    this.item.command = 'needle.showStatus';
    this.render('starting');
    this.item.show();
    this.disposables.push(client.onDidChangeState((e) => {
      if (e.newState === State.Running) this.poll(0);
      else if (e.newState === State.Starting) { this.clearProgress(); this.render('starting'); }
      else { this.clearProgress(); this.stopPolling(); this.render('stopped'); }
    }));
  }

  /**
   * A client feature that takes over `window/workDoneProgress/create`, so the server's indexing
   * progress shows in this item rather than in a notification. Registered after the built-in
   * progress feature, its `initialize` runs after it on every (re)start and wins.
   */
  progressFeature(): StaticFeature {
    return {
      fillClientCapabilities: (caps) => { (caps.window ??= {}).workDoneProgress = true; },
      initialize: () => {
        this.client.onRequest(WorkDoneProgressCreateRequest.type, (params) => this.watchProgress(params.token));
      },
      getState: (): FeatureState => ({ kind: 'static' }),
      clear: () => this.clearProgress(),
    };
  }

  private watchProgress(token: ProgressToken): void {
    const key = String(token);
    this.progressTokens.get(key)?.dispose();
    const sub = this.client.onProgress(WorkDoneProgress.type, token, (value: ProgressValue) => {
      if (value.kind === 'end') {
        sub.dispose();
        this.progressTokens.delete(key);
        this.progress = undefined;
        this.poll(0);
        return;
      }
      // The server's message reads "1200/3102 files"; a begin has only a title.
      const message = value.message?.replace(/\s*files?$/, '');
      this.progress = message || (value.kind === 'begin' ? '…' : this.progress);
      this.render('indexing');
      if (!this.timer) this.poll(POLL_INDEXING_MS);
    });
    this.progressTokens.set(key, sub);
  }

  private clearProgress(): void {
    for (const d of this.progressTokens.values()) d.dispose();
    this.progressTokens.clear();
    this.progress = undefined;
  }

  /** Records the confidence of the latest retrieval for the ready text. */
  setConfidence(confidence: number): void {
    this.lastConfidence = confidence;
    this.render();
  }

  get status(): StatusResult | undefined {
    return this.lastStatus;
  }

  async fetch(): Promise<StatusResult | undefined> {
    if (this.client.state !== State.Running) return undefined;
    try {
      this.lastStatus = await this.client.sendRequest<StatusResult>(Methods.status, {});
    } catch {
      return this.lastStatus;
    }
    return this.lastStatus;
  }

  /** Polls after `delayMs`, then every 2 s while indexing and every 30 s once ready. */
  poll(delayMs: number): void {
    this.stopPolling();
    if (this.disposed) return;
    this.timer = setTimeout(async () => {
      this.timer = undefined;
      const s = await this.fetch();
      if (this.disposed || this.client.state !== State.Running) return;
      this.render();
      if (!this.timer) this.poll(s?.state === 'ready' && !this.progress ? POLL_READY_MS : POLL_INDEXING_MS);
    }, delayMs);
  }

  private stopPolling(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private render(mode?: 'starting' | 'stopped' | 'indexing'): void {
    const s = this.lastStatus;
    this.item.backgroundColor = undefined;
    if (mode === 'starting') {
      this.item.text = '$(sync~spin) Needle starting';
      this.item.tooltip = 'Needle: the language server is starting';
      return;
    }
    if (mode === 'stopped' || this.client.state === State.Stopped) {
      this.item.text = '$(error) Needle stopped';
      this.item.tooltip = 'Needle: the language server is not running (see the "Needle" output). Click for details.';
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
      return;
    }
    if (this.progress || mode === 'indexing' || s?.state === 'indexing') {
      const counts = this.progress && this.progress !== '…' ? this.progress : s ? `${s.files} files` : '';
      this.item.text = `$(sync~spin) Needle indexing ${counts}`.trimEnd();
      this.item.tooltip = 'Needle is indexing the workspace; retrieval answers with what is indexed so far. Click for details.';
      return;
    }
    if (!s) {
      this.item.text = '$(sync~spin) Needle';
      return;
    }
    const conf = this.lastConfidence !== undefined ? ` · conf ${this.lastConfidence.toFixed(2)}` : '';
    this.item.text = `${s.paused ? '$(debug-pause) ' : ''}Needle: ${s.files} files · ${s.symbols} symbols${conf}`;
    this.item.tooltip = `Needle: ${s.files} files, ${s.symbols} symbols, ${s.edges} edges${s.paused ? ' (indexing paused)' : ''}${conf ? `; last retrieval confidence ${this.lastConfidence!.toFixed(2)}` : ''}. Click for details.`;
  }

  dispose(): void {
    this.disposed = true;
    this.stopPolling();
    this.clearProgress();
    for (const d of this.disposables) d.dispose();
    this.item.dispose();
  }
}
