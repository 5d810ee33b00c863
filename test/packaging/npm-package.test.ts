// The npm package, as Neovim and Emacs users (and agents, through `needle mcp`) install it on any
// platform: `npm pack` holds the bundles, wasm and data but no ripgrep binary of the build machine;
// installed (unpacked into node_modules with its bins linked, as npm does), `needle-lsp --stdio`
// serves a workspace and finds ripgrep in @vscode/ripgrep's platform package, else on the PATH,
// else runs without lexical recall and says so; `needle mcp` the same.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RetrievalResult } from '../../shared/protocol';
import { startServer } from '../helpers/lspClient';
import { copyExample, ROOT } from '../editors/helpers';
import { findRipgrepHere } from '../../server/src/platform/ripgrep';
import { tempDir } from '../helpers/tempDir';

const PLATFORM_PKG = `@vscode/ripgrep-${process.platform}-${process.arch}`;

function npm(args: string[], cwd: string): string {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', shell: process.platform === 'win32' });
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test('npm package: needle-lsp and needle mcp run from it, with ripgrep from @vscode/ripgrep, the PATH, or none', { timeout: 180_000 }, async (t) => {
  const rg = findRipgrepHere();
  assert.ok(rg, 'no ripgrep on this machine (Debian package ripgrep)');
  const tmp = tempDir('needle-npm-');
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], ROOT)) as { filename: string; files: { path: string }[] }[];
  const files = packed.files.map((f) => f.path);
  for (const f of ['package.json', 'dist/server.js', 'dist/cli.js', 'dist/worker.js', 'dist/spawn-helper.js', 'dist/tree-sitter.wasm', 'dist/tree-sitter-java.wasm', 'dist/data/lexicon.json']) assert.ok(files.includes(f), `${f} in the package: ${files}`);
  assert.deepEqual(files.filter((f) => /^dist\/(bin|test|bench|packages)\/|\.map$|\.vsix$/.test(f)), [], 'no build-machine ripgrep, tests, benches or maps');

  // Installed: node_modules/needle with its bins linked into node_modules/.bin, its dependency beside it.
  const modules = join(tmp, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  const r = spawnSync('tar', ['-xzf', join(tmp, packed.filename), '-C', modules], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const pkg = join(modules, 'needle');
  renameSync(join(modules, 'package'), pkg);
  const bins = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).bin as Record<string, string>;
  assert.deepEqual(Object.keys(bins).sort(), ['needle', 'needle-lsp']);
  for (const [name, rel] of Object.entries(bins)) {
    assert.ok(readFileSync(join(pkg, rel), 'utf8').startsWith('#!/usr/bin/env node\n'), `${rel} starts with a shebang`);
    chmodSync(join(pkg, rel), 0o755);
    symlinkSync(join('..', 'needle', rel), join(modules, '.bin', name));
  }
  const ws = copyExample('npm');
  t.after(() => ws.cleanup());
  const nodeDir = dirname(process.execPath);
  const retrieve = async (env: NodeJS.ProcessEnv, command: string[]) => {
    const s = await startServer([ws.root], {}, undefined, { command, env });
    try {
      await s.waitReady();
      const result = await s.connection.sendRequest<RetrievalResult>('needle/retrieveContext', { textDocument: { uri: `file://${ws.file}` }, position: ws.cursor, query: 'settle the order payment ledger' });
      return { logs: s.logs, result };
    } finally {
      await s.close();
    }
  };
  const lexical = (x: RetrievalResult) => x.items.some((i) => i.sources.includes('lexical'));

  // 1. From @vscode/ripgrep's platform package (what `npm install` puts beside the package), started as `needle-lsp --stdio`.
  const platformPkg = join(ROOT, 'node_modules', PLATFORM_PKG);
  if (existsSync(platformPkg)) {
    mkdirSync(join(modules, '@vscode'));
    symlinkSync(realpathSync(platformPkg), join(modules, PLATFORM_PKG));
    const a = await retrieve({ ...process.env, NEEDLE_RIPGREP: '', PATH: [join(modules, '.bin'), nodeDir].join(delimiter) }, ['needle-lsp', '--stdio']);
    assert.ok(a.logs.some((l) => /\[needle\] ripgrep \S+ \(@vscode\/ripgrep\)$/.test(l)), a.logs.join('\n'));
    assert.ok(lexical(a.result), 'lexical recall ran');
    rmSync(join(modules, '@vscode'), { recursive: true });
  } else t.diagnostic(`${PLATFORM_PKG} is not installed here: the @vscode/ripgrep case is not run`);

  // 2. Not there: rg on the PATH.
  const pathBin = join(tmp, 'path-bin');
  mkdirSync(pathBin);
  symlinkSync(rg.path, join(pathBin, 'rg'));
  const server = [process.execPath, join(pkg, bins['needle-lsp']), '--stdio'];
  const b = await retrieve({ ...process.env, NEEDLE_RIPGREP: '', PATH: pathBin }, server);
  assert.ok(b.logs.includes(`[needle] ripgrep ${join(pathBin, 'rg')} (found on the PATH)`), b.logs.join('\n'));
  assert.ok(lexical(b.result), 'lexical recall ran');

  // 3. None at all: the server says so and still answers from its other sources.
  const c = await retrieve({ ...process.env, NEEDLE_RIPGREP: '', PATH: join(tmp, 'empty') }, server);
  assert.ok(c.logs.some((l) => l.includes('no ripgrep found')), c.logs.join('\n'));
  assert.ok(c.result.items.length > 0 && !lexical(c.result));

  // needle mcp from the package, ripgrep from the PATH.
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(pkg, bins.needle), 'mcp', ws.root, '--no-cache'], env: { PATH: pathBin, HOME: tmp }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'needle-npm-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    const out = await client.callTool({ name: 'retrieve_context', arguments: { file: 'src/main/java/com/acme/shop/order/OrderService.java', line: ws.cursor.line + 1, column: ws.cursor.character + 1 } }) as { isError?: boolean; content: { text: string }[] };
    assert.ok(!out.isError, out.content.map((x) => x.text).join('\n'));
    assert.match(stderr, new RegExp(`ripgrep ${join(pathBin, 'rg').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(found on the PATH\\)`));
  } finally {
    await client.close();
  }
});
