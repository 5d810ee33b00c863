// The universal fallback: an extension folder whose package carries no ripgrep (the universal
// package, or one built for another platform) activates against the `vscode` stand-in with an
// appRoot that holds VS Code's own ripgrep where VS Code ships it; the client says so in the
// Needle log, hands it to the server, and the server reports running it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, ROOT } from './helpers';
import { createVscode, recorded, Uri } from './vscodeMock';
import { findRipgrepHere } from '../../server/src/platform/ripgrep';
import { tempDir } from '../helpers/tempDir';

async function waitFor<T>(what: string, f: () => T | undefined | false, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; log: ${JSON.stringify(recorded.output.slice(-10))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("vscode extension without a fitting ripgrep: VS Code's own, from appRoot, and the log says so", { timeout: 120_000 }, async () => {
  const rg = findRipgrepHere();
  assert.ok(rg, 'no ripgrep on this machine (Debian package ripgrep)');
  const tmp = tempDir('needle-rg-fallback-');
  // The extension as the universal package installs it: bundles, wasm and data, no dist/bin.
  const ext = join(tmp, 'extension');
  mkdirSync(join(ext, 'dist'), { recursive: true });
  for (const f of readdirSync(join(ROOT, 'dist'))) if (/\.(js|wasm)$/.test(f)) copyFileSync(join(ROOT, 'dist', f), join(ext, 'dist', f));
  cpSync(join(ROOT, 'dist', 'data'), join(ext, 'dist', 'data'), { recursive: true });
  // VS Code's installation: its ripgrep unpacked beside node_modules.asar.
  const appRoot = join(tmp, 'vscode', 'resources', 'app');
  const own = join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', 'rg');
  mkdirSync(join(own, '..'), { recursive: true });
  copyFileSync(rg.path, own);
  chmodSync(own, 0o755);

  const ws = copyExample('rg-fallback');
  const { vscode } = createVscode(ws.root, { file: ws.file, ...ws.cursor }, { appRoot });
  const load = (Module as unknown as { _load: Function })._load;
  (Module as unknown as { _load: Function })._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  process.env.NEEDLE_NO_CACHE = '1';
  delete process.env.NEEDLE_RIPGREP;
  const extension = require(join(ext, 'dist', 'extension.js'));
  const context = { subscriptions: [] as { dispose(): unknown }[], asAbsolutePath: (p: string) => join(ext, p), extensionPath: ext, extensionUri: Uri.file(ext) };
  try {
    await extension.activate(context);
    assert.ok(recorded.output.some((l) => l.includes(`carries no ripgrep for ${process.platform}-${process.arch}; using VS Code's own ripgrep ${own}`)), JSON.stringify(recorded.output.slice(0, 3)));
    await waitFor('the server to report its ripgrep', () => recorded.output.some((l) => l.includes(`[needle] ripgrep ${own} (NEEDLE_RIPGREP)`)));
    await recorded.commands.get('needle.retrieveContextForCursor')!();
    await waitFor('the context view', () => recorded.shown.at(-1)?.getText().includes('settleOrder'));
  } finally {
    await extension.deactivate();
    for (const d of context.subscriptions) d.dispose();
    (Module as unknown as { _load: Function })._load = load;
    ws.cleanup();
    rmSync(tmp, { recursive: true, force: true });
  }
});
