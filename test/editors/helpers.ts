// Shared set-up of the editor tests: a temporary copy of examples/acme-shop, the demo cursor
// (the TODO line of OrderService.settleOrder, found by searching the text), and the editor binary.

import { spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { tempDir } from '../helpers/tempDir';

export const ROOT = join(__dirname, '..', '..', '..');
export const SERVER = join(ROOT, 'dist', 'server.js');
export const ORDER_SERVICE = 'src/main/java/com/acme/shop/order/OrderService.java';

export interface Workspace {
  dir: string;
  root: string;
  file: string;
  /** 0-based: the `// TODO` inside settleOrder (cursor at the comment's first character). */
  cursor: { line: number; character: number };
  /** 0-based line of the `settleOrder` name (where its code lens sits). */
  methodLine: number;
  cleanup(): void;
}

export function copyExample(prefix: string): Workspace {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
  const dir = tempDir(`needle-${prefix}-`);
  const root = join(dir, 'acme-shop');
  cpSync(join(ROOT, 'examples', 'acme-shop'), root, { recursive: true });
  const file = join(root, ORDER_SERVICE);
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const methodLine = lines.findIndex((l) => /\bsettleOrder\s*\(/.test(l) && !l.trim().startsWith('*'));
  if (methodLine < 0) throw new Error(`no settleOrder declaration in ${ORDER_SERVICE}`);
  let todo = -1;
  for (let i = methodLine; i < lines.length; i++) if (lines[i].includes('TODO')) { todo = i; break; }
  if (todo < 0) throw new Error(`no TODO line after settleOrder in ${ORDER_SERVICE}`);
  return {
    dir, root, file, methodLine,
    cursor: { line: todo, character: lines[todo].indexOf('//') >= 0 ? lines[todo].indexOf('//') : lines[todo].search(/\S/) },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The environment for an editor run: no persistent cache, no user configuration. */
export function editorEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEEDLE_NO_CACHE: '1',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
    ...extra,
  };
}

/** Runs an editor to completion, collecting stdout and stderr together; killed after `timeoutMs`. */
export function runProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b) => { output += b; });
    child.stderr.on('data', (b) => { output += b; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${cmd} timed out after ${timeoutMs} ms: ${output.slice(-2000)}`)); }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, output }); });
  });
}
