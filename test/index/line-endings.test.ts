// CRLF and mixed line endings give the same index and the same retrieval as LF: examples/acme-shop
// is checked out three times (LF, CRLF, and every other line CRLF), indexed, and asked the same
// questions; facts, edges and results must be byte-identical apart from the folder's path. An
// edit typed into an open CRLF document gives the facts of the same edit in LF.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../../server/src/service';
import type { RetrievalResult } from '../../shared/protocol';
import { ACME } from '../robustness/lib';
import { tempDir } from '../helpers/tempDir';

type Endings = 'lf' | 'crlf' | 'mixed';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

/** A copy of acme-shop at <tmp>/<endings>/acme-shop with its text files' line endings rewritten. */
function checkout(base: string, endings: Endings): string {
  const root = join(base, endings, 'acme-shop');
  mkdirSync(join(base, endings));
  cpSync(ACME(), root, { recursive: true });
  for (const f of filesUnder(root)) {
    const lf = readFileSync(f, 'utf8').replace(/\r\n/g, '\n');
    let i = 0;
    const text = endings === 'lf' ? lf : endings === 'crlf' ? lf.replace(/\n/g, '\r\n') : lf.replace(/\n/g, () => (i++ % 2 ? '\r\n' : '\n'));
    writeFileSync(f, text);
  }
  return root;
}

const ORDER = 'src/main/java/com/acme/shop/order/OrderService.java';

/** The index as data, the folder's path replaced, file by file in path order. */
function indexFacts(ix: Indexer, root: string): string {
  const files = ix.index.allFiles().slice().sort((a, b) => (a.path < b.path ? -1 : 1));
  const data = files.map((f) => ({ path: relative(root, f.path), facts: f.facts, resolution: f.resolution }));
  return JSON.stringify(data).split(root).join('<root>');
}

function normalized(r: RetrievalResult, root: string): string {
  const { timingsMs: _t, ...rest } = r;
  return JSON.stringify(rest).split(uriOfPath(root)).join('<root>').split(root).join('<root>');
}

/** Cursors: the first statement line of several methods in several files (from the LF text). */
function cursors(root: string): { file: string; line: number; character: number }[] {
  const out: { file: string; line: number; character: number }[] = [];
  const java = filesUnder(join(root, 'src/main/java')).filter((f) => f.endsWith('.java'));
  for (const f of java.filter((_, i) => i % 6 === 0)) {
    const lines = readFileSync(f, 'utf8').split('\n');
    const at = lines.findIndex((l) => /^ {8}\S/.test(l));
    if (at >= 0) out.push({ file: relative(root, f), line: at, character: 8 });
  }
  return out;
}

test('line endings: LF, CRLF and mixed checkouts give byte-identical index facts and retrieval results', { timeout: 180_000 }, async (t) => {
  const base = tempDir('needle-eol-');
  const roots = Object.fromEntries((['lf', 'crlf', 'mixed'] as Endings[]).map((e) => [e, checkout(base, e)])) as Record<Endings, string>;
  assert.ok(readFileSync(join(roots.crlf, ORDER), 'utf8').includes('\r\n'));
  const ix: Record<string, Indexer> = {};
  for (const e of Object.keys(roots) as Endings[]) {
    ix[e] = new Indexer({ cacheDir: null });
    await ix[e].addFolder(roots[e]);
  }
  const facts = indexFacts(ix.lf, roots.lf);
  assert.ok(ix.lf.index.allFiles().length >= 40);
  assert.equal(indexFacts(ix.crlf, roots.crlf), facts, 'CRLF index facts differ from LF');
  assert.equal(indexFacts(ix.mixed, roots.mixed), facts, 'mixed-ending index facts differ from LF');

  const asks = cursors(roots.lf);
  assert.ok(asks.length >= 5, `${asks.length} cursors`);
  let compared = 0;
  for (const c of asks) {
    for (const query of [undefined, 'settle the order and post the payment to the ledger']) {
      const answer = async (e: Endings) => normalized(await retrieveAt(ix[e], { textDocument: { uri: uriOfPath(join(roots[e], c.file)) }, position: { line: c.line, character: c.character }, query }, defaultSettings()), roots[e]);
      const lf = await answer('lf');
      assert.ok(!lf.includes('\\r'), `a carriage return in an LF result (${c.file}:${c.line})`);
      assert.equal(await answer('crlf'), lf, `CRLF result differs at ${c.file}:${c.line + 1}`);
      assert.equal(await answer('mixed'), lf, `mixed-ending result differs at ${c.file}:${c.line + 1}`);
      compared++;
    }
  }
  t.diagnostic(`${ix.lf.index.allFiles().length} files, ${compared} retrievals compared across LF, CRLF and mixed`);
});

test('line endings in edits: an open document edited with CRLF text indexes as the same edit in LF', { timeout: 120_000 }, async () => {
  const base = tempDir('needle-eol-edit-');
  const lfRoot = checkout(base, 'lf');
  const crlfRoot = checkout(base, 'crlf');
  const a = new Indexer({ cacheDir: null });
  const b = new Indexer({ cacheDir: null });
  await a.addFolder(lfRoot);
  await b.addFolder(crlfRoot);
  const lf = readFileSync(join(lfRoot, ORDER), 'utf8');
  const at = lf.indexOf('\n', lf.indexOf('public class OrderService')) + 1;
  const edited = lf.slice(0, at) + '\n    /** Added by an edit. */\n    public int addedByEdit(int x) {\n        return x + 1;\n    }\n' + lf.slice(at);
  await a.setDocument(join(lfRoot, ORDER), edited);
  // The editor's buffer keeps the file's CRLF; the typed lines may come in with either ending.
  let k = 0;
  await b.setDocument(join(crlfRoot, ORDER), edited.replace(/\n/g, () => (k++ % 3 ? '\r\n' : '\n')));
  assert.equal(indexFacts(b, crlfRoot), indexFacts(a, lfRoot));
  const line = edited.slice(0, edited.indexOf('return x + 1;')).split('\n').length - 1;
  const ask = async (ix: Indexer, root: string) => normalized(await retrieveAt(ix, { textDocument: { uri: uriOfPath(join(root, ORDER)) }, position: { line, character: 8 } }, defaultSettings()), root);
  assert.equal(await ask(b, crlfRoot), await ask(a, lfRoot));
});
