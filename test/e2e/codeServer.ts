// Harness of the end-to-end test: VS Code itself (code-server, installed by
// test/e2e/install-code-server.sh into .cache/code-server) with needle.vsix installed, serving a
// copy of examples/acme-shop to Debian's chromium driven by playwright-core.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executable, file, type Prerequisite } from '../helpers/prerequisites';

export const root = process.cwd();
export const CODE_SERVER_ENTRY = join(root, '.cache/code-server/node_modules/code-server/out/node/entry.js');
export const CHROMIUM = process.env.NEEDLE_E2E_CHROMIUM ?? '/usr/bin/chromium';

/** What the e2e test needs: code-server, Debian's chromium, playwright-core, the built extension, ps. */
export const E2E_PREREQUISITES: Prerequisite[] = [
  file('chromium', 'apt-get install chromium', CHROMIUM),
  file('code-server', 'test/e2e/install-code-server.sh (needs Debian package libkrb5-dev)', CODE_SERVER_ENTRY),
  { what: 'playwright-core', install: 'npm ci (devDependency)', problem: () => { try { require.resolve('playwright-core'); return undefined; } catch { return 'not installed'; } } },
  file('the built extension', 'npm run build', join(root, 'dist/extension.js')),
  executable('ps', 'procps'),
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Workbench {
  url: string;
  workspace: string;
  tmp: string;
  log: string;
  extensionsDir: string;
  /**
   * Whether the installed .vsix can find ripgrep by itself. When it cannot, the harness copies the
   * project's @vscode/ripgrep platform package beside the installed extension (see below).
   */
  vsixShipsRipgrep: boolean;
  stop(): Promise<void>;
}

/** Packages the already-built extension (no rebuild) into a .vsix. */
function packageVsix(out: string): void {
  const r = spawnSync('npx', ['--yes', '@vscode/vsce@2', 'package', '--no-dependencies', '-o', out], {
    cwd: root, encoding: 'utf8', timeout: 180_000,
  });
  if (r.status !== 0 || !existsSync(out)) throw new Error(`vsce package failed (${r.status ?? r.signal}): ${r.stderr}\n${r.stdout}`);
}

/**
 * Copies the example workspace, installs the extension into a fresh extensions dir and starts
 * code-server on 127.0.0.1 without auth. `stop()` kills its whole process group (the server,
 * its extension host and Needle's language server) and removes the temp dir.
 */
export async function startWorkbench(opts: { workspaceSettings?: Record<string, unknown> } = {}): Promise<Workbench> {
  const tmp = mkdtempSync(join(tmpdir(), 'needle-e2e-'));
  const workspace = join(tmp, 'acme-shop');
  cpSync(join(root, 'examples/acme-shop'), workspace, { recursive: true });
  if (opts.workspaceSettings) {
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode/settings.json'), JSON.stringify(opts.workspaceSettings, null, 2));
  }
  const userData = join(tmp, 'user-data');
  const extensionsDir = join(tmp, 'extensions');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(extensionsDir);
  writeFileSync(join(userData, 'User/settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'update.mode': 'none',
    'editor.codeLens': true,
    'editor.minimap.enabled': false,
    'editor.hover.delay': 100,
    'window.commandCenter': false,
    'chat.commandCenter.enabled': false,
    'workbench.colorTheme': 'Default Dark Modern',
  }, null, 2));
  const port = await freePort();
  const config = join(tmp, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const common = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensionsDir];

  const vsix = join(tmp, 'needle.vsix');
  packageVsix(vsix);
  const inst = spawnSync(process.execPath, [CODE_SERVER_ENTRY, ...common, '--install-extension', vsix], { encoding: 'utf8', timeout: 120_000 });
  if (inst.status !== 0) throw new Error(`code-server --install-extension failed (${inst.status ?? inst.signal}): ${inst.stderr}\n${inst.stdout}`);

  // The .vsix carries ripgrep as dist/bin/rg (it has no node_modules); the test checks it is there.
  const installed = readdirSync(extensionsDir).find((d) => d.startsWith('needle.needle-'));
  if (!installed) throw new Error(`needle not found in ${extensionsDir} after --install-extension`);
  const extDir = join(extensionsDir, installed);
  const vsixShipsRipgrep = existsSync(join(extDir, 'dist', 'bin', process.platform === 'win32' ? 'rg.exe' : 'rg'));

  const log = join(tmp, 'code-server.log');
  const fd = openSync(log, 'a');
  const child: ChildProcess = spawn(process.execPath, [
    CODE_SERVER_ENTRY, ...common,
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--ignore-last-opened', workspace,
  ], { detached: true, stdio: ['ignore', fd, fd], env: { ...process.env, NEEDLE_NO_CACHE: '1' } });
  closeSync(fd);
  let exited = false;
  child.once('exit', () => { exited = true; });

  const stop = async () => {
    if (child.pid && !exited) {
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
      const deadline = Date.now() + 5000;
      while (!exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }
    if (!process.env.NEEDLE_E2E_KEEP) rmSync(tmp, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) { const text = readFileSync(log, 'utf8'); await stop(); throw new Error(`code-server exited:\n${text}`); }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { const text = readFileSync(log, 'utf8'); await stop(); throw new Error(`code-server did not answer in 60 s:\n${text}`); }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url: `${url}/?folder=${encodeURIComponent(workspace)}`, workspace, tmp, log, extensionsDir, vsixShipsRipgrep, stop };
}

/** Pids of Needle's language servers started from the given extensions dir. */
export function languageServerPids(extensionsDir: string): number[] {
  const r = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return r.stdout.split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => !!m && m[2].includes(extensionsDir) && /dist\/server\.js/.test(m[2]))
    .map((m) => Number(m[1]));
}
