// The heap growing factor Needle sets at start: the user's own choice (NEEDLE_HEAP_GROWING_PERCENT,
// or the V8 flag on the command line or in NODE_OPTIONS) wins over the default. Building a folder's
// index (cold, or warm from the cache) runs under V8's own heuristics and gives the bound back
// when its resolution is done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundHeapGrowth, HEAP_GROWING_PERCENT, observeHeapFlags, relaxHeapGrowth } from '../../server/src/platform/heapGrowth';
import { Indexer } from '../../server/src/index/indexer';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

const flagsSet: string[] = [];
observeHeapFlags((f) => flagsSet.push(f));
const setSince = (n: number) => flagsSet.slice(n);

test('the default factor, the environment override, and a flag the user passed', () => {
  assert.equal(boundHeapGrowth({}), HEAP_GROWING_PERCENT);
  assert.equal(boundHeapGrowth({ NEEDLE_HEAP_GROWING_PERCENT: '40' }), 40);
  assert.equal(boundHeapGrowth({ NEEDLE_HEAP_GROWING_PERCENT: '0' }), 0, "0 leaves V8's own heuristics");
  assert.equal(boundHeapGrowth({ NEEDLE_HEAP_GROWING_PERCENT: 'lots' }), HEAP_GROWING_PERCENT, 'a malformed value is ignored');
  assert.ok(Number.isNaN(boundHeapGrowth({ NODE_OPTIONS: '--max-old-space-size=4096 --heap-growing-percent=50' })), 'NODE_OPTIONS names the flag: not overridden');
});

test("relaxing gives V8 its own heuristics until the last relaxation ends, and never touches a user's flag", () => {
  boundHeapGrowth({ NEEDLE_HEAP_GROWING_PERCENT: '30' });
  let n = flagsSet.length;
  const outer = relaxHeapGrowth();
  const inner = relaxHeapGrowth();
  assert.deepEqual(setSince(n), ['--heap-growing-percent=0']);
  n = flagsSet.length;
  inner();
  inner();
  assert.deepEqual(setSince(n), [], 'an outer relaxation is still under way');
  outer();
  assert.deepEqual(setSince(n), ['--heap-growing-percent=30'], 'the bound is back');

  n = flagsSet.length;
  boundHeapGrowth({ NEEDLE_HEAP_GROWING_PERCENT: '0' });
  relaxHeapGrowth()();
  boundHeapGrowth({ NODE_OPTIONS: '--heap-growing-percent=50' });
  relaxHeapGrowth()();
  assert.deepEqual(setSince(n), [], 'no bound of ours to relax');
});

test('building a folder\'s index, cold or from the cache, runs under V8\'s heuristics; retrieval is prepared under the bound again', async () => {
  boundHeapGrowth({});
  const fx = writeFixture({
    'src/a/Util.java': 'package a;\npublic class Util {\n  public static int twice(int x) { return 2 * x; }\n}\n',
    'src/a/User.java': 'package a;\npublic class User {\n  int f() { return Util.twice(1); }\n}\n',
  });
  const cacheDir = tempDir('needle-cache-');
  const relaxed = ['--heap-growing-percent=0', `--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
  for (const start of ['cold', 'warm']) {
    const n = flagsSet.length;
    let atPrepare: string[] = [];
    await new Indexer({ cacheDir, prepare: async () => { atPrepare = setSince(n); } }).addFolder(fx.root);
    assert.deepEqual(setSince(n), relaxed, start);
    assert.deepEqual(atPrepare, relaxed, `${start}: the bound is back before retrieval is prepared`);
  }
});
