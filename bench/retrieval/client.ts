// A minimal LSP client for the benchmark: spawns `node dist/server.js --stdio` and speaks JSON-RPC
// over its stdio (vscode-jsonrpc), as an editor would.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { RetrievalResult, RetrieveContextParams, StatusResult } from '../../shared/protocol';

export interface ServerSession {
  conn: MessageConnection;
  child: ChildProcess;
  /** Client capabilities that were sent in `initialize`. */
  capabilities: object;
  /** Set when the server failed with `capabilities: {}` and was restarted with workspace-folder support. */
  workaround?: string;
  /** Wall time from spawn until `needle/status` says ready. */
  readyMs: number;
  status: StatusResult;
  stderr: () => string;
  open(path: string, text: string): Promise<void>;
  close(path: string): Promise<void>;
  retrieve(params: RetrieveContextParams): Promise<{ result: RetrievalResult; ms: number }>;
  /** The next textDocument/publishDiagnostics for `uri` after this call (undefined on timeout). */
  nextDiagnostics(uri: string, timeoutMs: number): Promise<{ code?: string | number; range: { start: { line: number } } }[] | undefined>;
  /** Peak resident set (VmHWM) of the server process, in MB; undefined when /proc is unavailable. */
  peakRssMB(): number | undefined;
  shutdown(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const NO_FOLDER_EVENTS = "doesn't support sending workspace folder change events";

/**
 * Starts the server with `capabilities: {}`. If the server cannot cope with a client that lacks
 * workspace-folder support (it logs NO_FOLDER_EVENTS and never indexes), it is restarted with
 * `workspace.workspaceFolders: true` and the session records the workaround.
 */
export interface StartOptions {
  readyTimeoutMs?: number;
  /** The server's cache folder (NEEDLE_CACHE_DIR); without it the server runs with NEEDLE_NO_CACHE. */
  cacheDir?: string;
  /** Sent as `initializationOptions` (the `needle.*` settings). */
  initializationOptions?: object;
}

export async function startServer(serverJs: string, workspace: string, opts: StartOptions = {}): Promise<ServerSession> {
  try {
    return await startOnce(serverJs, workspace, {}, opts);
  } catch (e) {
    if (!(e instanceof CapabilityError)) throw e;
    const s = await startOnce(serverJs, workspace, { workspace: { workspaceFolders: true } }, opts);
    s.workaround = `server failed with capabilities {} (${e.message}); restarted with workspace.workspaceFolders: true`;
    return s;
  }
}

class CapabilityError extends Error {}

async function startOnce(serverJs: string, workspace: string, capabilities: object, opts: StartOptions): Promise<ServerSession> {
  const t0 = performance.now();
  const env: NodeJS.ProcessEnv = { ...process.env, NEEDLE_NO_CACHE: '1' };
  if (opts.cacheDir) { delete env.NEEDLE_NO_CACHE; env.NEEDLE_CACHE_DIR = opts.cacheDir; }
  // NEEDLE_BENCH_SERVER_ARGS: node options for the server process only, e.g. "--cpu-prof --cpu-prof-dir=DIR"
  // for a CPU profile of the server (NODE_OPTIONS refuses --cpu-prof).
  const nodeArgs = (process.env.NEEDLE_BENCH_SERVER_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, serverJs, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env });
  let err = '';
  child.stderr!.on('data', (d) => { err = (err + d.toString()).slice(-20000); });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  // answer whatever the server asks the client (configuration, registrations) with null
  conn.onRequest(() => null);
  let capabilityFailure: string | undefined;
  const diagnosticWaiters = new Map<string, ((d: unknown[]) => void)[]>();
  conn.onNotification((method: string, p: unknown) => {
    if (method === 'textDocument/publishDiagnostics') {
      const { uri, diagnostics } = p as { uri: string; diagnostics: unknown[] };
      const ws = diagnosticWaiters.get(uri) ?? [];
      diagnosticWaiters.delete(uri);
      for (const w of ws) w(diagnostics);
    }
    const msg = (p as { message?: unknown } | undefined)?.message;
    if (typeof msg === 'string' && msg.includes(NO_FOLDER_EVENTS)) capabilityFailure = msg.split('\n')[0];
    if (process.env.NEEDLE_BENCH_DEBUG) console.error(method, JSON.stringify(p).slice(0, 300));
  });
  conn.listen();
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`server exited (${code}): ${err.slice(-2000)}`))));
  exited.catch(() => undefined);
  const uri = pathToFileURL(workspace).href;
  await Promise.race([conn.sendRequest('initialize', {
    processId: process.pid, rootUri: uri, capabilities, initializationOptions: opts.initializationOptions,
    workspaceFolders: [{ uri, name: 'bench' }],
  }), exited]);
  await conn.sendNotification('initialized', {});
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 600_000);
  let status: StatusResult;
  for (;;) {
    status = await Promise.race([conn.sendRequest<StatusResult>('needle/status', {}), exited]);
    if (status.state === 'ready') break;
    if (capabilityFailure && status.files === 0) {
      child.kill();
      conn.dispose();
      throw new CapabilityError(capabilityFailure);
    }
    if (Date.now() > deadline) throw new Error(`server not ready in time: ${JSON.stringify(status)}`);
    await sleep(50);
  }
  const readyMs = performance.now() - t0;
  const versions = new Map<string, number>();
  return {
    conn, child, readyMs, status, capabilities,
    stderr: () => err,
    async open(path, text) {
      const v = (versions.get(path) ?? 0) + 1;
      versions.set(path, v);
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToFileURL(path).href, languageId: 'java', version: v, text } });
    },
    async close(path) {
      await conn.sendNotification('textDocument/didClose', { textDocument: { uri: pathToFileURL(path).href } });
    },
    async retrieve(params) {
      const s = performance.now();
      const result = await Promise.race([conn.sendRequest<RetrievalResult>('needle/retrieveContext', params), exited]);
      return { result, ms: performance.now() - s };
    },
    nextDiagnostics(uri, timeoutMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        const list = diagnosticWaiters.get(uri) ?? [];
        list.push((d) => { clearTimeout(timer); resolve(d as never); });
        diagnosticWaiters.set(uri, list);
      });
    },
    peakRssMB() {
      try {
        const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        return m ? Math.round(Number(m[1]) / 1024) : undefined;
      } catch { return undefined; }
    },
    async shutdown() {
      try {
        await Promise.race([conn.sendRequest('shutdown'), sleep(5000)]);
        await conn.sendNotification('exit');
      } catch { /* already gone */ }
      await Promise.race([new Promise((r) => child.once('exit', r)), sleep(5000)]);
      if (child.exitCode === null) child.kill();
      conn.dispose();
    },
  };
}
