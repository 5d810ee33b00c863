// Starts the real server bundle (dist/server.js --stdio) and talks JSON-RPC to it, as an editor would.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { StatusResult } from '../../shared/protocol';

export interface ServerSession {
  connection: MessageConnection;
  process: ChildProcess;
  stderr: () => string;
  diagnostics: Map<string, unknown[]>;
  /** The server's window/logMessage lines. */
  logs: string[];
  waitReady(timeoutMs?: number): Promise<StatusResult>;
  close(): Promise<void>;
}

/** `command`: how to start the server (default: node dist/server.js --stdio); `env`: its whole environment. */
export interface StartOptions { command?: string[]; env?: NodeJS.ProcessEnv }

export async function startServer(roots: string[], initializationOptions: object = {}, capabilities?: object, opts: StartOptions = {}): Promise<ServerSession> {
  // Tests are bundled into dist/test/<area>/; the server bundle is dist/server.js.
  const serverPath = [join(__dirname, '..', '..', 'server.js'), join(__dirname, '..', 'server.js'), join(process.cwd(), 'dist', 'server.js')].find((p) => existsSync(p));
  if (!serverPath && !opts.command) throw new Error('dist/server.js not found: run the build first');
  const [cmd, ...args] = opts.command ?? [process.execPath, serverPath!, '--stdio'];
  const child = spawn(cmd, args, { env: { ...(opts.env ?? process.env), NEEDLE_NO_CACHE: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => { err += d; });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const diagnostics = new Map<string, unknown[]>();
  connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: unknown[] }) => { diagnostics.set(p.uri, p.diagnostics); });
  const logs: string[] = [];
  connection.onNotification('window/logMessage', (p: { message: string }) => { logs.push(p.message); });
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('workspace/configuration', () => [{}]);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: capabilities ?? { window: { workDoneProgress: true }, workspace: { workspaceFolders: true } },
    workspaceFolders: roots.map((r, i) => ({ uri: pathToFileURL(r).toString(), name: `root${i}` })),
    initializationOptions,
  });
  await connection.sendNotification('initialized', {});
  return {
    connection, process: child, stderr: () => err, diagnostics, logs,
    async waitReady(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const s = await connection.sendRequest<StatusResult>('needle/status', {});
        if (s.state === 'ready') return s;
        if (Date.now() > until) throw new Error(`server not ready after ${timeoutMs} ms: ${JSON.stringify(s)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      try {
        await Promise.race([connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
        await connection.sendNotification('exit');
      } catch { /* already gone */ }
      connection.dispose();
      child.kill();
    },
  };
}
