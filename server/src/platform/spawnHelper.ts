// Entry of the spawn helper (dist/spawn-helper.js): a small process that starts programs for the
// server (platform/spawner.ts). Starting a program forks the process that starts it, and fork
// copies the page tables of the whole process: node's spawn blocked the server's one thread for
// 4–8 ms per ripgrep search once the server held 1–1.6 GB (the whole JDK), and a request runs two
// or three. Forked from this process of a few tens of MB, the copy is small, and it happens here,
// not on the server's thread. It runs only what the server sends it, and ends with the server.

import { spawnDirectly, type HelperReply, type HelperRequest, type RunningProgram } from './spawner';

const running = new Map<number, RunningProgram>();
const send = (reply: HelperReply) => { process.send?.(reply); };

process.on('message', (m: HelperRequest) => {
  if (m.type === 'kill') { running.get(m.id)?.kill(); return; }
  const id = m.id;
  let ended = false; // an error can come before spawnDirectly returns
  const end = (reply: HelperReply) => { ended = true; running.delete(id); send(reply); };
  const program = spawnDirectly(m.command, m.args, {
    data: (chunk) => send({ type: 'data', id, chunk }),
    close: () => end({ type: 'close', id }),
    error: (message) => end({ type: 'error', id, message }),
    restart: () => {}, // only the server's side restarts
  });
  if (!ended) running.set(id, program);
});

// The server went away (or closed the channel): nothing is left to serve.
process.on('disconnect', () => {
  for (const program of running.values()) program.kill();
  process.exit(0);
});
