// Retrieval's saved structures (preparedCache.ts): a warm start that loads them answers exactly as
// a fresh build does, a damaged or truncated file is detected and rebuilt, and an edit after a
// warm load is reflected.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, prepareIndexer, retrieveAt, uriOfPath } from '../../server/src/service';
import { ACME } from '../robustness/lib';
import { fileWords, filesWithWord } from '../../server/src/retrieval/recall/wordFiles';
import { corpusDump } from '../../server/src/retrieval/recall/similar';
import { describe, descriptionRecall, SAVED_DESCRIPTION_TABLE } from '../../server/src/retrieval/recall/descriptions';
import { loadSaved, saveSaved, STALE_SHARE, worthSaving } from '../../server/src/retrieval/preparedCache';
import { SAVED_WORDS } from '../../server/src/retrieval/recall/wordFiles';
import { SAVED_CHUNKS } from '../../server/src/retrieval/recall/similar';
import type { PipelineRequest } from '../../server/src/retrieval/request';
import type { Query } from '../../server/src/retrieval/query';
import { workspaceTablesStarted } from '../../server/src/retrieval/symbols';
import { tempDir } from '../helpers/tempDir';

function acmeCopy(): string {
  const root = tempDir('needle-acme-');
  cpSync(ACME(), root, { recursive: true });
  return root;
}

async function started(root: string, cacheDir: string | null, logs: string[] = []): Promise<Indexer> {
  const ix = new Indexer({ cacheDir, prepare: prepareIndexer(), log: (m) => logs.push(m) });
  await ix.addFolder(root);
  return ix;
}

/** Every word's files, as lexical recall reads them, in one canonical text. */
function wordDump(ix: Indexer): string {
  const req = { index: ix.index, textOf: (p: string) => ix.textOf(p) } as PipelineRequest;
  const words = new Set<string>();
  for (const f of fileWords(req).values()) for (const w of f.words) words.add(w);
  const lookup = filesWithWord(req);
  return [...words].sort().map((w) => `${w}: ${lookup(w).join(' ')}`).join('\n');
}

/** Retrievals at the first statement of the first method of several files (lexical recall consults the words). */
async function answers(ix: Indexer, root: string): Promise<string> {
  const out: string[] = [];
  const files = ix.index.allFiles().map((f) => f.path).filter((p) => p.startsWith(root)).sort();
  for (const path of files.filter((_, i) => i % 8 === 0)) {
    const line = readFileSync(path, 'utf8').split('\n').findIndex((l) => /^ {8}\S/.test(l));
    if (line < 0) continue;
    const { timingsMs: _t, ...rest } = await retrieveAt(ix, { textDocument: { uri: uriOfPath(path) }, position: { line, character: 8 } }, defaultSettings());
    out.push(JSON.stringify(rest));
  }
  assert.ok(out.length >= 3, 'several retrievals');
  return out.join('\n');
}

/** Two dumps equal, or the first line where they differ. */
function sameDump(actual: string, expected: string, what: string): void {
  if (actual === expected) return;
  const a = actual.split('\n'), b = expected.split('\n');
  const i = a.findIndex((l, k) => l !== b[k]);
  assert.fail(`${what}: line ${i} of ${a.length}/${b.length}:\n  ${a[i]?.slice(0, 400)}\n  expected ${b[i]?.slice(0, 400)}`);
}

function savedFile(cacheDir: string, suffix: string): string {
  const name = readdirSync(cacheDir).find((n) => n.endsWith(suffix));
  assert.ok(name, `${suffix} saved beside the index cache`);
  return join(cacheDir, name);
}
const wordsFile = (cacheDir: string) => savedFile(cacheDir, '.words');

/** Every file's words, files in path order (the map's own order follows its history). */
function workspaceWords(ix: Indexer): string[] {
  return [...fileWords({ index: ix.index, textOf: (p: string) => ix.textOf(p) })].sort((a, b) => (a[0] < b[0] ? -1 : 1)).flatMap(([, f]) => f.words);
}

/** The similar-code corpus as one canonical text, with searches for some of its terms. */
function chunkDump(ix: Indexer): string {
  const words = workspaceWords(ix).filter((_, i) => i % 97 === 0);
  return corpusDump(ix.index, (p) => ix.textOf(p), [words.slice(0, 4), words.slice(4, 12).map((w) => '~' + w.toLowerCase()), words.slice(12, 30)]);
}

/** Description searches for some of the workspace's words, with their scores, as one canonical text. */
function descriptionDump(ix: Indexer): string {
  const words = workspaceWords(ix).filter((_, i) => i % 53 === 0);
  const queries = [words.slice(0, 3), words.slice(3, 10), words.slice(10, 24), ['order', 'total', 'price']];
  return queries.map((q) => JSON.stringify([...descriptionRecall(ix.index, { words: q } as unknown as Query)])).join('\n');
}

test('after the prepare phase a request starts no workspace-wide table: ready means the usual latency', async () => {
  const root = acmeCopy();
  const ix = await started(root, null);
  const before = workspaceTablesStarted();
  await answers(ix, root);
  assert.equal(workspaceTablesStarted(), before, 'a table was first built by a request, not by prepare (retrieval/prepare.ts PREPARE_STEPS)');
});

test('a warm start from saved words and chunks answers as a fresh build, and an edit afterwards is reflected', async () => {
  const root = acmeCopy();
  const cacheDir = tempDir('needle-cache-');
  const cold = await started(root, cacheDir);
  const fresh = wordDump(await started(root, null));
  assert.equal(wordDump(cold), fresh);
  const freshChunks = chunkDump(await started(root, null));
  assert.equal(chunkDump(cold), freshChunks);
  const freshDescriptions = descriptionDump(await started(root, null));
  assert.equal(descriptionDump(cold), freshDescriptions);
  assert.ok(freshDescriptions.split('\n').filter((l) => l.length > 2).length >= 3, 'the searches find descriptions');
  const saved = readFileSync(wordsFile(cacheDir));
  const savedChunks = readFileSync(savedFile(cacheDir, '.chunks'));
  const savedDescriptions = readFileSync(savedFile(cacheDir, '.descriptions'));
  assert.ok(fresh.split('\n').length > 100, 'a real vocabulary');

  const logs: string[] = [];
  const warm = await started(root, cacheDir, logs);
  assert.equal(wordDump(warm), fresh);
  assert.equal(chunkDump(warm), freshChunks, 'the corpus from saved chunks equals a fresh build');
  assert.equal(descriptionDump(warm), freshDescriptions, 'the description index loaded equals a fresh build');
  assert.equal(await answers(warm, root), await answers(cold, root), 'retrieval after a warm start equals a fresh build\'s');
  assert.ok(!logs.some((m) => /saved/.test(m)), logs.join('\n'));
  assert.ok(readFileSync(wordsFile(cacheDir)).equals(saved), 'an unchanged workspace leaves the file as it was');
  assert.ok(readFileSync(savedFile(cacheDir, '.chunks')).equals(savedChunks));
  assert.ok(readFileSync(savedFile(cacheDir, '.descriptions')).equals(savedDescriptions));

  // The saved words are what a warm start uses: words that no file holds, under the real hashes, show up.
  const path = warm.index.allFiles()[0].path;
  const edited = (await readFileSync(path, 'utf8')) + '\n// zzzsavedneverwritten\n';
  await warm.setDocument(path, edited);
  const req = { index: warm.index, textOf: (p: string) => warm.textOf(p) } as PipelineRequest;
  assert.deepEqual(filesWithWord(req)('zzzsavedneverwritten'), [path], 'an edit after a warm load is reflected');
  const freshEdited = await started(root, null);
  await freshEdited.setDocument(path, edited);
  assert.equal(chunkDump(warm), chunkDump(freshEdited), 'the corpus follows an edit after a warm load as a fresh build does');
  assert.equal(wordDump(warm), wordDump(freshEdited));
  // A declaration added after a warm load: its description is found, as in a fresh build.
  const end = edited.lastIndexOf('}');
  const declared = edited.slice(0, end) + '  /** Zzz saved never described. */ int zzzNeverDescribed() { return 0; }\n' + edited.slice(end);
  await warm.setDocument(path, declared);
  await freshEdited.setDocument(path, declared);
  const zzz = (ix: Indexer) => JSON.stringify([...descriptionRecall(ix.index, { words: ['zzz', 'described', 'order'] } as unknown as Query)]);
  assert.ok(zzz(warm).includes('zzzNeverDescribed'), 'the added declaration is described');
  assert.equal(zzz(warm), zzz(freshEdited));
  assert.equal(descriptionDump(warm), descriptionDump(freshEdited));

  // A file changed on disk while stopped is read again, not taken from the saved words.
  writeFileSync(path, edited);
  const after = await started(root, cacheDir);
  const reqAfter = { index: after.index, textOf: (p: string) => after.textOf(p) } as PipelineRequest;
  assert.deepEqual(filesWithWord(reqAfter)('zzzsavedneverwritten'), [path]);
  const freshAfter = await started(root, null);
  assert.equal(wordDump(after), wordDump(freshAfter));
  assert.equal(chunkDump(after), chunkDump(freshAfter));
  assert.equal(descriptionDump(after), descriptionDump(freshAfter));
  rmSync(root, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

test('a warm start loads the description index in its finished form while a file\'s hash is the indexed one', async () => {
  const root = acmeCopy();
  const cacheDir = tempDir('needle-cache-');
  const cold = await started(root, cacheDir);
  const file = savedFile(cacheDir, '.descriptions');
  const { saved, problem } = loadSaved(SAVED_DESCRIPTION_TABLE, file, cold.folders);
  assert.equal(problem, undefined);
  assert.equal(saved!.files.size, cold.index.allFiles().length, 'every file\'s documents saved');
  // A token planted in one file's first document (taken out and added again with it): found after
  // a warm start, so the saved table was used, not rebuilt.
  const [path, part] = [...saved!.files].find(([, v]) => v.docs.length > 0)!;
  const facts = cold.index.file(path)!.facts;
  const sym = facts.symbols.find((s) => !s.local && !s.anonymous)!;
  const d = describe(sym, sym.parent >= 0 ? facts.symbols[sym.parent] : undefined);
  const fields = [d.name, d.signature, d.owner, d.doc];
  saved!.table.remove(part.docs[0], fields);
  const tokens = saved!.table.tokens(fields);
  tokens[0].push('zzzplanted');
  part.docs[0] = saved!.table.addTokens(sym.id, path, tokens);
  assert.equal(saveSaved(SAVED_DESCRIPTION_TABLE, file, cold.folders, saved!), undefined);
  const planted = (ix: Indexer) => [...descriptionRecall(ix.index, { words: ['zzzplanted'] } as unknown as Query).keys()];
  const warm = await started(root, cacheDir);
  assert.deepEqual(planted(warm), [sym.id], 'the saved table was loaded, its document named from the facts');
  // Once the file changes on disk, its documents are not the indexed text's: taken out, described again.
  writeFileSync(path, readFileSync(path, 'utf8') + '\n// changed\n');
  const after = await started(root, cacheDir);
  assert.deepEqual(planted(after), []);
  assert.equal(descriptionDump(after), descriptionDump(await started(root, null)));
  rmSync(root, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

test('a warm start loads word -> files and the similar-code corpus in their finished form, and redoes exactly the files whose text changed', async () => {
  const root = acmeCopy();
  const cacheDir = tempDir('needle-cache-');
  const cold = await started(root, cacheDir);
  // Plant a word and a chunk symbol no source holds into one file's part of each saved structure.
  const path = cold.index.allFiles().map((f) => f.path).sort()[3];
  const wordsAt = savedFile(cacheDir, '.words'), chunksAt = savedFile(cacheDir, '.chunks');
  const words = loadSaved(SAVED_WORDS, wordsAt, cold.folders).saved!;
  const entry = words.files.get(path)!;
  const plantedSlot = words.words.add('zzzplantedword');
  words.editing.set(plantedSlot, [entry.id]);
  entry.words = Int32Array.from([...entry.words, plantedSlot]);
  assert.equal(saveSaved(SAVED_WORDS, wordsAt, cold.folders, words), undefined);
  const corpus = loadSaved(SAVED_CHUNKS, chunksAt, cold.folders).saved!;
  const chunk = corpus.ids.get(path)![0];
  assert.ok(chunk !== undefined, 'the file has chunks');
  corpus.at.symbol[chunk] = 'zzzPlantedSymbol';
  assert.equal(saveSaved(SAVED_CHUNKS, chunksAt, cold.folders, corpus), undefined);
  const planted = (ix: Indexer) => ({
    word: filesWithWord({ index: ix.index, textOf: (p: string) => ix.textOf(p) } as PipelineRequest)('zzzplantedword'),
    symbol: chunkDump(ix).includes('zzzPlantedSymbol'),
  });
  // Loaded, not rebuilt: what was planted is there.
  assert.deepEqual(planted(await started(root, cacheDir)), { word: [path], symbol: true });
  // The file changed on disk while stopped: its part is stale, taken out and made again, and the
  // structures equal a fresh build's (the planted parts are gone with it); so do later edits.
  const edited = readFileSync(path, 'utf8') + '\n// zzzchangedwhilestopped\n';
  writeFileSync(path, edited);
  const warm = await started(root, cacheDir);
  assert.deepEqual(planted(warm), { word: [], symbol: false });
  const fresh = await started(root, null);
  sameDump(wordDump(warm), wordDump(fresh), 'wordDump warm');
  sameDump(chunkDump(warm), chunkDump(fresh), 'chunkDump warm');
  sameDump(descriptionDump(warm), descriptionDump(fresh), 'descriptionDump warm');
  assert.equal(await answers(warm, root), await answers(fresh, root));
  // A file deleted and one added while stopped, then an edit after the load.
  const others = fresh.index.allFiles().map((f) => f.path).filter((p) => p !== path).sort();
  rmSync(others[0]);
  writeFileSync(join(root, 'ZzzAdded.java'), 'class ZzzAdded { int zzzAddedField; void zzzAdded() { zzzAddedField++; } }\n');
  const warm2 = await started(root, cacheDir), fresh2 = await started(root, null);
  sameDump(wordDump(warm2), wordDump(fresh2), 'wordDump warm2');
  sameDump(chunkDump(warm2), chunkDump(fresh2), 'chunkDump warm2');
  sameDump(descriptionDump(warm2), descriptionDump(fresh2), 'descriptionDump warm2');
  const body = readFileSync(others[1], 'utf8').replace(/\}\s*$/, '  void zzzAfterLoad() { int zzzLocal = 1; }\n}\n');
  await warm2.setDocument(others[1], body);
  await fresh2.setDocument(others[1], body);
  sameDump(wordDump(warm2), wordDump(fresh2), 'wordDump warm2');
  sameDump(chunkDump(warm2), chunkDump(fresh2), 'chunkDump warm2');
  sameDump(descriptionDump(warm2), descriptionDump(fresh2), 'descriptionDump warm2 after an edit');
  assert.equal(await answers(warm2, root), await answers(fresh2, root));
  rmSync(root, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

test('damaged, truncated or foreign saved words, chunks and descriptions are detected, reported and rebuilt', async () => {
  const root = acmeCopy();
  const cacheDir = tempDir('needle-cache-');
  await started(root, cacheDir);
  const fresh = wordDump(await started(root, null));
  const freshChunks = chunkDump(await started(root, null));
  const freshDescriptions = descriptionDump(await started(root, null));
  for (const [suffix, name] of [['.words', 'saved words'], ['.chunks', 'saved similar-code corpus'], ['.descriptions', 'saved description index']]) {
  const file = savedFile(cacheDir, suffix);
  const good = readFileSync(file);
  const damage: [string, () => void][] = [
    ['truncated', () => truncateSync(file, Math.floor(good.length / 2))],
    ['bit flipped in the data', () => { const b = Buffer.from(good); b[b.length - 3] ^= 0x20; writeFileSync(file, b); }],
    ['bit flipped in the header', () => { const b = Buffer.from(good); b[40] ^= 0x01; writeFileSync(file, b); }],
    ['not a cache', () => writeFileSync(file, 'not a cache at all')],
  ];
  for (const [what, spoil] of damage) {
    spoil();
    const logs: string[] = [];
    const ix = await started(root, cacheDir, logs);
    assert.equal(wordDump(ix), fresh, what);
    assert.equal(chunkDump(ix), freshChunks, what);
    assert.equal(descriptionDump(ix), freshDescriptions, what);
    assert.ok(logs.some((m) => m.startsWith(name) && /rebuilding/.test(m)), `${suffix} ${what}: not reported: ${logs.join('\n')}`);
    assert.ok(readFileSync(file).equals(good), `${suffix} ${what}: rewritten`);
  }
  }
  rmSync(root, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

test('saved shares are rewritten when missing or stale beyond STALE_SHARE, not for every change', () => {
  const of = (entries: [string, string][]) => new Map(entries.map(([p, hash]) => [p, { hash }]));
  const now = of(Array.from({ length: 20 }, (_, i): [string, string] => [`f${i}`, 'h']));
  assert.equal(worthSaving(new Map(), now), true, 'nothing saved yet');
  assert.equal(worthSaving(now, now), false, 'unchanged');
  const twoChanged = of([...now.entries()].map(([p], i): [string, string] => [p, i < 2 ? 'old' : 'h']));
  assert.equal(worthSaving(twoChanged, now), false, `2 of 20 stale: within ${STALE_SHARE}`);
  const threeChanged = of([...now.entries()].map(([p], i): [string, string] => [p, i < 3 ? 'old' : 'h']));
  assert.equal(worthSaving(threeChanged, now), true, '3 of 20 stale');
  const withGone = of([...now.entries()].map(([p, v]): [string, string] => [p, v.hash]).concat([['g1', 'h'], ['g2', 'h'], ['g3', 'h']]));
  assert.equal(worthSaving(withGone, now), true, 'files gone count as stale');
});
