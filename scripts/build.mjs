// Bundles the entry points of docs/protocol.md (dist/server.js, dist/cli.js, dist/extension.js), the
// index worker, and every test file (test/**/*.test.ts -> dist/test/), then copies the
// tree-sitter wasm files and shipped data beside the bundles.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, existsSync, cpSync, readdirSync, statSync, rmSync, readFileSync, chmodSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

// The persisted index is only valid for the code that derived it: the cache key includes a hash
// of every source file of extraction and resolution.
function sourceHash(dirs) {
  const h = createHash('sha1');
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) h.update(name).update(readFileSync(full));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return h.digest('hex').slice(0, 16);
}
const indexerVersion = sourceHash(['server/src/java', 'server/src/index', 'server/src/deps']);
// Rows published to the organisation index are re-derived when the code that derives them changes.
// Retrieval's saved structures (server/src/retrieval/preparedCache.ts): everything that derives them.
const preparedVersion = sourceHash(['server/src/java', 'server/src/index', 'server/src/deps', 'server/src/retrieval', 'server/src/text']);
const orgRowsVersion = sourceHash(['server/src/java', 'server/src/index', 'server/src/deps', 'server/src/retrieval', 'server/src/vetting', 'server/src/text', 'server/src/org']);

const common = {
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true,
  logLevel: 'warning', absWorkingDir: root,
  // ESM dependencies (web-tree-sitter, @vscode/ripgrep) read import.meta.url; in a CJS bundle
  // that is empty, so we provide the bundle's own file URL.
  define: { 'import.meta.url': '__bundleUrl', __NEEDLE_INDEXER_VERSION__: JSON.stringify(indexerVersion), __NEEDLE_ORG_ROWS_VERSION__: JSON.stringify(orgRowsVersion), __NEEDLE_PREPARED_VERSION__: JSON.stringify(preparedVersion) },
  banner: { js: "const __bundleUrl = require('url').pathToFileURL(__filename).href;" },
  // The organisation index's clients load their own wasm and data files: required from node_modules at run time.
  external: ['pg', 'pg-native', '@electric-sql/pglite', '@electric-sql/pglite/*'],
};

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...testFiles(full));
    else if (name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

rmSync(join(dist, 'test'), { recursive: true, force: true });
const tests = testFiles(join(root, 'test'));
const bundles = [
  // server.js and cli.js are the npm package's bins (needle-lsp, needle): they start with a shebang.
  { ...common, entryPoints: ['server/src/lsp/main.ts'], outfile: 'dist/server.js', banner: { js: '#!/usr/bin/env node\n' + common.banner.js } },
  { ...common, entryPoints: ['server/src/index/worker.ts'], outfile: 'dist/worker.js' },
  { ...common, entryPoints: ['server/src/platform/spawnHelper.ts'], outfile: 'dist/spawn-helper.js' },
  { ...common, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node\n' + common.banner.js } },
  { ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: [...common.external, 'vscode'] },
].filter((b) => existsSync(join(root, b.entryPoints[0])));
const benches = existsSync(join(root, 'bench')) ? readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.bench.ts')).map((f) => `bench/${f}`) : [];
if (benches.length) bundles.push({ ...common, entryPoints: benches, outdir: 'dist/bench', outbase: 'bench', packages: 'external' });
if (tests.length) bundles.push({ ...common, entryPoints: tests, outdir: 'dist/test', outbase: 'test', packages: 'external' });
await Promise.all(bundles.map((b) => build(b)));
copyFileSync(join(root, 'node_modules/web-tree-sitter/tree-sitter.wasm'), join(dist, 'tree-sitter.wasm'));
copyFileSync(join(root, 'node_modules/tree-sitter-java/tree-sitter-java.wasm'), join(dist, 'tree-sitter-java.wasm'));
// ripgrep travels with the bundle (the .vsix carries no node_modules): the platform binary of @vscode/ripgrep.
const rgExe = process.platform === 'win32' ? 'rg.exe' : 'rg';
const rgSource = join(root, 'node_modules', '@vscode', `ripgrep-${process.platform}-${process.arch}`, 'bin', rgExe);
if (existsSync(rgSource)) {
  mkdirSync(join(dist, 'bin'), { recursive: true });
  copyFileSync(rgSource, join(dist, 'bin', rgExe));
  chmodSync(join(dist, 'bin', rgExe), 0o755);
}
if (existsSync(join(root, 'server/data'))) cpSync(join(root, 'server/data'), join(dist, 'data'), { recursive: true });
