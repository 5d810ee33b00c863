// The heap growing factor Needle sets at start: the user's own choice (NEEDLE_HEAP_GROWING_PERCENT,
// or the V8 flag on the command line or in NODE_OPTIONS) wins over the default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from '../../server/src/platform/heapGrowth';

test('the default factor, the environment override, and a flag the user passed', () => {
  assert.equal(boundHeapGrowth({}), HEAP_GROWING_PERCENT);
  assert.equal(boundHeapGrowth({ NEEDLE_HEAP_GROWING_PERCENT: '40' }), 40);
  assert.equal(boundHeapGrowth({ NEEDLE_HEAP_GROWING_PERCENT: '0' }), 0, "0 leaves V8's own heuristics");
  assert.equal(boundHeapGrowth({ NEEDLE_HEAP_GROWING_PERCENT: 'lots' }), HEAP_GROWING_PERCENT, 'a malformed value is ignored');
  assert.ok(Number.isNaN(boundHeapGrowth({ NODE_OPTIONS: '--max-old-space-size=4096 --heap-growing-percent=50' })), 'NODE_OPTIONS names the flag: not overridden');
});
