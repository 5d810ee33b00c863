// Entry of the spawn helper (dist/spawn-helper.js): a small process that starts programs for the
// server (platform/spawner.ts). Starting a program forks the process that starts it, and fork
// copies the page tables of the whole process: node's spawn blocked the server's one thread for
// 4–8 ms per ripgrep search once the server held 1–1.6 GB (the whole JDK), and a request runs two
// or three. Forked from this process of a few tens of MB, the copy is small, and it happens here,
// not on the server's thread. It runs only what the server sends it, and ends with the server.

import { spawn, type ChildProcess } from 'node:child_process';
import type { HelperReply, HelperRequest } from './spawner';

const running = new Map<number, ChildProcess>();
const send = (reply: HelperReply) => { process.send?.(reply); };

process.on('message', (m: HelperRequest) => {
  if (m.type === 'kill') { running.get(m.id)?.kill(); return; }
  let child: ChildProcess;
  try {
    child = spawn(m.command, m.args, { stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
  } catch (e) {
    send({ type: 'error', id: m.id, message: (e as Error).message });
    return;
  }
  running.set(m.id, child);
  // Decoded here as a stream, so a character split between two chunks stays whole.
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => send({ type: 'data', id: m.id, chunk }));
  child.on('error', (e) => { running.delete(m.id); send({ type: 'error', id: m.id, message: e.message }); });
  child.on('close', () => { if (running.delete(m.id)) send({ type: 'close', id: m.id }); });
});

// The server went away (or closed the channel): nothing is left to serve.
process.on('disconnect', () => {
  for (const child of running.values()) child.kill();
  process.exit(0);
});
