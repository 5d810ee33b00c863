// Starting programs (ripgrep) without blocking the server's thread on fork: runs go through a
// small helper process (spawnHelper.ts, dist/spawn-helper.js) forked once, whose own forks are
// cheap. Where the helper cannot run (its script is missing, it keeps dying, or
// NEEDLE_SPAWN_HELPER=0), programs are started directly, as before; a run the helper was serving
// when it died is started again directly, so a result never depends on the helper.

import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** What the server sends the helper. */
export type HelperRequest = { type: 'run'; id: number; command: string; args: string[] } | { type: 'kill'; id: number };
/** What the helper answers, per run. */
export type HelperReply = { type: 'data'; id: number; chunk: string } | { type: 'close'; id: number } | { type: 'error'; id: number; message: string };

/** Where a run's output goes. Exactly one of close and error ends it. */
export interface ProgramOutput {
  /** A piece of standard output, decoded as UTF-8 (a character never split between pieces). */
  data(chunk: string): void;
  /** The program ended, or was killed; its output is complete. */
  close(): void;
  /** It could not be started. */
  error(message: string): void;
  /** The helper died while serving the run: the output so far is void, and it starts again. */
  restart(): void;
}

export interface RunningProgram { kill(): void }

/** After this many helper deaths, programs are started directly for the rest of the process. */
const MAX_HELPER_DEATHS = 3;

interface Run { command: string; args: string[]; out: ProgramOutput; kill: () => void }

let helper: ChildProcess | undefined;
let helperDeaths = 0;
let nextId = 0;
const served = new Map<number, Run>();

function helperScript(): string | undefined {
  // Beside this bundle (dist/), one or two folders above it (dist/bench/, dist/test/<area>/), or from the repository root.
  for (const c of [join(__dirname, 'spawn-helper.js'), join(__dirname, '..', 'spawn-helper.js'), join(__dirname, '..', '..', 'spawn-helper.js'), join(__dirname, '..', '..', 'dist', 'spawn-helper.js')]) {
    if (existsSync(c)) return c;
  }
  return undefined;
}

/** The helper, started on first use; undefined where programs are started directly. */
function helperProcess(): ChildProcess | undefined {
  if (helper) return helper;
  if (helperDeaths >= MAX_HELPER_DEATHS || process.env.NEEDLE_SPAWN_HELPER === '0') return undefined;
  const script = helperScript();
  if (!script) return undefined;
  try {
    const h = fork(script, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], execArgv: [], serialization: 'advanced' });
    h.on('message', (m: HelperReply) => onReply(m));
    // 'disconnect' comes first, while the channel still keeps the event loop alive: the
    // process handle is unreferenced, so 'exit' alone could come after a CLI run has ended.
    h.on('disconnect', () => helperGone(h));
    h.on('exit', () => helperGone(h));
    h.on('error', () => helperGone(h));
    // The helper never keeps the server alive; the channel does only while a run is served.
    h.unref();
    h.channel?.unref();
    helper = h;
    return h;
  } catch {
    helperDeaths++;
    return undefined;
  }
}

function onReply(m: HelperReply): void {
  const run = served.get(m.id);
  if (!run) return;
  if (m.type === 'data') { run.out.data(m.chunk); return; }
  served.delete(m.id);
  if (!served.size) helper?.channel?.unref();
  if (m.type === 'close') run.out.close();
  else run.out.error(m.message);
}

/** The helper died: the runs it served start again directly, and the next run forks a new one. */
function helperGone(h: ChildProcess): void {
  if (helper !== h) return;
  helper = undefined;
  helperDeaths++;
  const runs = [...served.values()];
  served.clear();
  for (const run of runs) {
    run.out.restart();
    run.kill = spawnDirectly(run.command, run.args, run.out).kill;
  }
}

/** The program started by this process itself (the helper starts the programs it is sent with this too). */
export function spawnDirectly(command: string, args: string[], out: ProgramOutput): RunningProgram {
  let child: ChildProcess;
  try {
    child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
  } catch (e) {
    out.error((e as Error).message);
    return { kill: () => {} };
  }
  let ended = false;
  const end = (f: () => void) => { if (!ended) { ended = true; f(); } };
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => { if (!ended) out.data(chunk); });
  child.on('error', (e) => end(() => out.error(e.message)));
  child.on('close', () => end(() => out.close()));
  return { kill: () => { child.kill(); } };
}

/** Starts a program (standard input closed, standard error dropped) and streams its output to `out`. */
export function runProgram(command: string, args: string[], out: ProgramOutput): RunningProgram {
  const h = helperProcess();
  if (!h) return spawnDirectly(command, args, out);
  const id = ++nextId;
  const run: Run = { command, args, out, kill: () => { if (served.has(id)) h.send({ type: 'kill', id } satisfies HelperRequest); } };
  served.set(id, run);
  h.channel?.ref();
  try {
    h.send({ type: 'run', id, command, args } satisfies HelperRequest);
  } catch {
    // The channel closed under us: the exit handler will restart it, or do it now.
    helperGone(h);
  }
  return { kill: () => run.kill() };
}

/** The helper's process id, if one runs (tests kill it to check that runs survive). */
export function spawnHelperPid(): number | undefined {
  return helper?.pid;
}
