// The similar-code corpus after many edits of one file: the dead chunks pile up past the
// compaction threshold (1000 and the live count), the corpus rebuilds itself from its own BM25
// statistics (chunk terms are not kept elsewhere), and must still equal a fresh corpus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Indexer } from '../../server/src/index/indexer';
import { corpusDump } from '../../server/src/retrieval/recall/similar';
import { tempDir } from '../helpers/tempDir';

const METHODS = 60;
const EDITS = 24; // 24 × 60 dead chunks: past the threshold, so the corpus compacts at least once

function source(version: number): string {
  const methods = Array.from({ length: METHODS }, (_, i) =>
    `  int m${i}v${version % 5}(int count${i % 7}) {\n    return helper${(i + version) % 11}(count${i % 7}) + ${i};\n  }`);
  return `package p;\n\npublic class Big {\n  int helper0(int x) { return x; }\n${methods.join('\n')}\n}\n`;
}

const QUERIES = [['helper3', '~count'], ['~m', '~v2', 'count4'], ['helper10', 'Big', '~helper']];

test('similar-code corpus: after edits that make it compact itself, equals a fresh corpus', async () => {
  const root = tempDir('needle-compact-');
  const path = join(root, 'Big.java');
  writeFileSync(path, source(0));
  writeFileSync(join(root, 'Small.java'), 'package p;\n\nclass Small {\n  int helper3(int count) { return count; }\n}\n');
  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(root);
  corpusDump(ix.index, (p) => ix.textOf(p), []);
  for (let v = 1; v <= EDITS; v++) {
    await ix.setDocument(path, source(v));
    corpusDump(ix.index, (p) => ix.textOf(p), []); // each edit applied on its own
  }
  writeFileSync(path, source(EDITS));
  const fresh = new Indexer({ cacheDir: null });
  await fresh.addFolder(root);
  const expected = corpusDump(fresh.index, (p) => fresh.textOf(p), QUERIES);
  assert.match(expected, /^chunks 6[12]\n/);
  assert.equal(corpusDump(ix.index, (p) => ix.textOf(p), QUERIES), expected);
});
