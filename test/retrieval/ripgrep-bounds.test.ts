// ripgrep searches are bounded by their output, never by a clock (recall/lexical.ts): the same
// search on the same files gives the same hits on an idle machine and on one too busy to read
// ripgrep's output for seconds, and a search cut by the output bound is cut at the same place.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ripgrep, ripgrepPath } from '../../server/src/retrieval/recall/lexical';
import { tempDir } from '../helpers/tempDir';

/** 300 files, each with lines naming the terms: far more output than a pipe buffer holds. */
function workspace(): string {
  const root = tempDir('needle-rg-');
  for (let i = 0; i < 300; i++) {
    const dir = join(root, `p${i % 10}`);
    mkdirSync(dir, { recursive: true });
    const lines = [`package p${i % 10};`, `class Widget${i} {`];
    for (let k = 0; k < 8; k++) lines.push(`  Gadget g${k} = Gadget.make("${'x'.repeat(120)}"); Sprocket s${k};`);
    lines.push('}');
    writeFileSync(join(dir, `Widget${i}.java`), lines.join('\n') + '\n');
  }
  return root;
}

const TERMS = ['Gadget', 'Sprocket', 'make'];

test('ripgrep: a busy machine (event loop blocked 5.5 s mid-search) gets the same hits as an idle one', { skip: ripgrepPath() ? false : 'no ripgrep binary (npm ci installs @vscode/ripgrep)' }, async () => {
  const root = workspace();
  const idle = await ripgrep(TERMS, [root]);
  assert.ok(idle.length > 1000, `enough hits to fill the pipe: ${idle.length}`);
  const search = ripgrep(TERMS, [root]);
  // Blocks this thread without spinning a core: ripgrep fills the pipe and waits for us meanwhile.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5500);
  const busy = await search;
  assert.equal(busy.length, idle.length);
  assert.deepEqual(busy, idle);
});

test('ripgrep: the output bound cuts a search at the same place every time, keeping a prefix of the full result', { skip: ripgrepPath() ? false : 'no ripgrep binary (npm ci installs @vscode/ripgrep)' }, async () => {
  const root = workspace();
  const full = await ripgrep(TERMS, [root]);
  const a = await ripgrep(TERMS, [root], [], undefined, 200_000);
  const b = await ripgrep(TERMS, [root], [], undefined, 200_000);
  assert.ok(a.length > 0 && a.length < full.length, `cut: ${a.length} of ${full.length}`);
  assert.deepEqual(a, b);
  assert.deepEqual(a, full.slice(0, a.length));
});
