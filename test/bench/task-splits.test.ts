import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPORTED_TEST_SPLIT, testSplitOverlap } from '../../bench/retrieval/tasks';

test('task splits: a run whose validation tasks fall inside the reported test split says so, naming them', () => {
  assert.equal(REPORTED_TEST_SPLIT, 40);
  assert.match(testSplitOverlap({ test: 0, validation: 40 }) ?? '', /validation tasks 1-40 are tasks of the 40-task test split/);
  assert.match(testSplitOverlap({ test: 20, validation: 10 }) ?? '', /validation tasks 21-30 /);
  assert.match(testSplitOverlap({ test: 30, validation: 100 }) ?? '', /validation tasks 31-40 /, 'only the overlapping part is named');
  assert.equal(testSplitOverlap({ test: 40, validation: 320 }), undefined, 'validation after the test split');
  assert.equal(testSplitOverlap({ test: 10, validation: 0 }), undefined, 'no validation tasks');
});
