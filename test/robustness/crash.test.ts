// Crash safety with real processes: `needle index` and the language server are SIGKILLed during
// cold indexing, during the cache save and during a burst of edits; the next start must give the
// index a fresh build gives (from a consistent cache, or by a rebuild it reports). A truncated or
// cache file is detected and discarded (flipped bits: test/index/persist.test.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers/repoRoot';
import { startServer } from '../helpers/lspClient';
import { tempDir } from '../helpers/tempDir';

const CLI = join(repoRoot(), 'dist', 'cli.js');

/** A workspace big enough that indexing and saving take a while: classes calling into each other. */
function workspace(files = 200): string {
  const root = tempDir('needle-crash-');
  for (let i = 0; i < files; i++) {
    const pkg = `p${i % 20}`;
    const dir = join(root, 'src', pkg);
    mkdirSync(dir, { recursive: true });
    const prev = `p${(i + 19) % 20}.C${(i + files - 1) % files}`;
    const methods = Array.from({ length: 12 }, (_, k) =>
      `  /** Step ${k} of ${i}. */\n  public int m${k}(int x) {\n    ${prev} other = new ${prev}();\n    return other.m${(k + 1) % 12}(x + ${k}) * ${i};\n  }`);
    writeFileSync(join(dir, `C${i}.java`), `package ${pkg};\n\npublic class C${i} {\n${methods.join('\n\n')}\n}\n`);
  }
  return root;
}

interface Report { files: number; symbols: number; edges: number; unresolved: number; external: number }

/** Runs `needle index --json` to the end. */
function index(root: string, cacheDir: string | null): { report: Report; stderr: string } {
  const args = [CLI, 'index', root, '--json', ...(cacheDir ? ['--cache-dir', cacheDir] : ['--no-cache'])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 180_000 });
  assert.equal(r.status, 0, `needle index failed: ${r.stderr}`);
  const j = JSON.parse(r.stdout) as Report;
  return { report: { files: j.files, symbols: j.symbols, edges: j.edges, unresolved: j.unresolved, external: j.external }, stderr: r.stderr };
}

/** Starts `needle index` and SIGKILLs it as soon as `when()` holds (polled every 2 ms), or at `maxMs`. */
async function killIndexWhen(root: string, cacheDir: string, when: () => boolean, maxMs: number): Promise<{ killedBy: 'condition' | 'time' | 'exit' }> {
  const child = spawn(process.execPath, [CLI, 'index', root, '--json', '--cache-dir', cacheDir], { stdio: 'ignore' });
  const started = Date.now();
  return new Promise((resolve) => {
    let done = false;
    child.on('exit', () => { if (!done) { done = true; clearInterval(timer); resolve({ killedBy: 'exit' }); } });
    const timer = setInterval(() => {
      const byCondition = when();
      if (!byCondition && Date.now() - started < maxMs) return;
      done = true;
      clearInterval(timer);
      child.kill('SIGKILL');
      child.on('exit', () => resolve({ killedBy: byCondition ? 'condition' : 'time' }));
    }, 2);
  });
}

const tmpFiles = (cacheDir: string) => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((n) => n.endsWith('.tmp')) : []);
const cacheFiles = (cacheDir: string) => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((n) => n.endsWith('.cache')) : []);

test('crash: needle index SIGKILLed during cold indexing, then during the cache save: the next start equals a fresh build', { timeout: 600_000 }, async (t) => {
  const root = workspace();
  const fresh = index(root, null).report;
  assert.ok(fresh.edges > 3_000, `a real workload: ${JSON.stringify(fresh)}`);

  // During cold indexing: killed at several points before any cache exists.
  const t0 = Date.now();
  index(root, tempDir('needle-crash-cache-'));
  const coldMs = Date.now() - t0;
  for (const share of [0.5]) {
    const cacheDir = tempDir('needle-crash-cache-');
    await killIndexWhen(root, cacheDir, () => false, coldMs * share);
    assert.deepEqual(index(root, cacheDir).report, fresh, `killed at ${Math.round(share * 100)} % of a cold index`);
  }

  // During the cache save: killed the moment the temporary file appears (a cold save, then a save over an old cache).
  let duringSave = 0;
  let edits = 0;
  /** A cache folder whose next `needle index` saves: empty, or holding a cache older than the files. */
  const prepare = (overOld: boolean): { cacheDir: string; expected: Report } => {
    const cacheDir = tempDir('needle-crash-cache-');
    if (!overOld) return { cacheDir, expected: fresh };
    index(root, cacheDir);
    // Files changed since that cache: the next run saves a new one over it.
    edits++;
    for (const i of [3, 77, 150]) {
      const file = join(root, 'src', `p${i % 20}`, `C${i}.java`);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/Step 0\b|Edit \d+ step/, `Edit ${edits} step`));
    }
    return { cacheDir, expected: index(root, null).report };
  };
  for (const overOld of [false, true]) {
    // The kill is sent when the temporary file appears, but a fast save can finish (rename the file
    // into place) before SIGKILL lands. Only a kill that leaves the temporary file behind provably
    // hit the save; try again until one does. Every attempt's next start must be correct.
    for (let attempt = 0; attempt < 5; attempt++) {
      const { cacheDir, expected } = prepare(overOld);
      const r = await killIndexWhen(root, cacheDir, () => tmpFiles(cacheDir).length > 0, 120_000);
      const hitTheSave = r.killedBy === 'condition' && tmpFiles(cacheDir).length > 0;
      const next = index(root, cacheDir);
      assert.deepEqual(next.report, expected, `killed during a save${overOld ? ' over an old cache' : ''}`);
      assert.deepEqual(tmpFiles(cacheDir), [], 'the dead writer\'s temporary file is removed by the next save');
      assert.equal(cacheFiles(cacheDir).length, 1);
      if (hitTheSave) { duringSave++; break; }
    }
  }
  assert.ok(duringSave >= 1, 'at least one kill landed while the cache was being written (its temporary file left behind)');
  t.diagnostic(`cold index ${coldMs} ms; ${duringSave}/2 kills during the save`);
});

test('crash: a truncated cache is reported and rebuilt by the next needle index', { timeout: 300_000 }, async () => {
  // Every bit of the file is covered in-process by test/index/persist.test.ts; here, the real command.
  const root = workspace(60);
  const cacheDir = tempDir('needle-crash-cache-');
  const fresh = index(root, cacheDir).report;
  const file = join(cacheDir, cacheFiles(cacheDir)[0]);
  truncateSync(file, Math.floor(statSync(file).size * 0.6));
  const next = index(root, cacheDir);
  assert.deepEqual(next.report, fresh);
  assert.match(next.stderr, /digest mismatch: truncated or damaged\); rebuilding/);
  const warm = index(root, cacheDir);
  assert.deepEqual(warm.report, fresh);
  assert.match(warm.stderr, /from cache, edges restored/, 'the rebuilt cache is sound again');
});

test('crash: the language server SIGKILLed during a burst of edits and saves restarts to a correct index', { timeout: 600_000 }, async () => {
  const files = 120;
  const root = workspace(files);
  const cacheDir = tempDir('needle-crash-cache-');
  const env = { NEEDLE_NO_CACHE: '', NEEDLE_CACHE_DIR: cacheDir };
  const s = await startServer([root], {}, undefined, { extraEnv: env });
  try {
    await s.waitReady(120_000);
    const path = join(root, 'src', 'p7', 'C7.java');
    const uri = pathToFileURL(path).toString();
    let text = readFileSync(path, 'utf8');
    await s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'java', version: 1, text } });
    // Keystrokes into an open file, and files saved to disk under the watcher; killed mid-burst.
    for (let v = 2; v < 200; v++) {
      text = text.replace(/return other/, `int y${v} = x;\n    return other`);
      await s.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ text }] });
      if (v % 20 === 0) {
        const i = (v * 7) % files;
        const other = join(root, 'src', `p${i % 20}`, `C${i}.java`);
        writeFileSync(other, readFileSync(other, 'utf8').replace(/public int m0\(/, `public int m0x${v}(int a) { return a; }\n  public int m0(`));
      }
      // Killed while it still has edits to apply (they arrive faster than it re-resolves).
      if (v === 150) break;
    }
  } finally {
    const exited = new Promise((r) => s.process.once('exit', r));
    s.process.stdin!.on('error', () => undefined);
    s.process.kill('SIGKILL');
    await exited;
    s.connection.dispose();
  }
  // The edits to the open document were never saved: the next start must reflect the disk.
  const next = index(root, cacheDir);
  assert.match(next.stderr, /from cache/, 'the cache the server saved was used');
  assert.deepEqual(next.report, index(root, null).report);
});
