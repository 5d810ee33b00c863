// Packing renders a group again at every candidate, reusing what its last render made (items.ts
// RenderMemo, outline.ts OutlineMemo: each hidden stretch's marker, shown-instead lines, folds,
// header lines and run counts). Reuse must change nothing: every delta a packer offers its
// `accept` and every item it returns equal what a packer with nothing to reuse gives.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Indexer } from '../../server/src/index/indexer';
import { entryFor, Packer, type Entry } from '../../server/src/retrieval/items';
import type { PipelineRequest } from '../../server/src/retrieval/request';
import type { IndexedFile } from '../../server/src/index/workspaceIndex';
import { fixture } from './fixture';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples', 'acme-shop');

/** Deterministic pseudo-random numbers (a failure must replay). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

// Enum constants and members, nested types, one-line and short bodies (shown instead of their
// marker), long bodies (folded), Javadoc, fields sharing a line, blank lines.
const SHAPES = `package p;

/** Shapes and their kinds. */
public class Shapes {
  /** The kind of a shape. */
  public enum Kind {
    CIRCLE, SQUARE,
    TRIANGLE,
    /** Many sides. */
    POLYGON;

    /** Whether it has corners. */
    boolean cornered() { return this != CIRCLE; }

    int sides() {
      switch (this) {
        case SQUARE: return 4;
        case TRIANGLE: return 3;
        default: return 0;
      }
    }
  }

  private int a, b;
  private final String name;

  /** A shape's outline. */
  static final class Outline {
    final int[] xs;
    Outline(int[] xs) { this.xs = xs; }

    /** Its length. */
    int length() {
      int n = 0;
      for (int x : xs) n += x;
      return n;
    }
    interface Visitor { void visit(int x); }
  }

  Shapes(String name) {
    this.name = name;
  }

  /** Its name. */
  String name() { return name; }

  int area() {
    return a * b;
  }

  void grow(int by) {
    a += by;
    b += by;
    if (a > 100) a = 100;
    if (b > 100) b = 100;
  }
  $0
}
`;

/** Every declaration of a file, with and without its Javadoc's first sentence, in a random order. */
function shuffledEntries(req: PipelineRequest, file: IndexedFile, next: () => number): Entry[] {
  const out: Entry[] = [];
  file.facts.symbols.forEach((sym, index) => {
    if (sym.local || sym.anonymous) return;
    out.push(entryFor(req, { file, index, sym }, next(), ['lexical'], next() < 0.5));
  });
  for (let i = out.length - 1; i > 0; i--) { const j = Math.floor(next() * (i + 1)); [out[i], out[j]] = [out[j], out[i]]; }
  return out;
}

/** What a packer with nothing to reuse offers for `e` after `accepted`, and its items after it. */
function fresh(req: PipelineRequest, accepted: Entry[], e: Entry): { delta: number; items: ReturnType<Packer['items']> } {
  const p = new Packer(req, Number.MAX_SAFE_INTEGER, 0);
  p.addAll(accepted);
  let delta = NaN;
  p.tryAdd(e, (d) => { delta = d; return true; });
  return { delta, items: p.items() };
}

/** One packer offered every entry in turn, refusing some at random; each step against a fresh packer. */
function checkFile(req: PipelineRequest, file: IndexedFile, seed: number): number {
  const next = lcg(seed);
  const packer = new Packer(req, Number.MAX_SAFE_INTEGER, 0);
  const accepted: Entry[] = [];
  let steps = 0;
  for (const e of shuffledEntries(req, file, next)) {
    if (packer.has(e.id)) continue;
    const take = next() < 0.6;
    let delta = NaN;
    packer.tryAdd(e, (d) => { delta = d; return take; });
    const want = fresh(req, accepted, e);
    assert.equal(delta, want.delta, `${file.path} seed ${seed}: the delta offered for ${e.id} (doc ${e.doc})`);
    if (take) {
      accepted.push(e);
      assert.deepEqual(packer.items(), want.items, `${file.path} seed ${seed}: the items after ${e.id}`);
    }
    steps++;
  }
  return steps;
}

test('a packer reusing its renders offers the deltas and returns the items of one with nothing to reuse', async () => {
  const f = await fixture({ 'p/Shapes.java': SHAPES });
  const shapes = f.index.file(f.req.path)!;
  let steps = 0;
  for (let seed = 1; seed <= 12; seed++) steps += checkFile(f.req, shapes, seed);
  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(EXAMPLES);
  const req = { index: ix.index, textOf: (p: string) => ix.textOf(p) } as PipelineRequest;
  for (const file of ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1))) steps += checkFile(req, file, file.path.length);
  assert.ok(steps > 500, `steps checked: ${steps}`);
});

// The gate prices follow-up entries against the groups packing rendered (pipeline.ts
// followupTokens, itemsForSymbols): a packer adopting a rendered group, or cloned, must offer the
// deltas and return the items of one that renders the same entries itself, and leave the packer
// it came from as it was.
test('an adopted group and a cloned packer price and pack as a packer rendering the same entries', async () => {
  const f = await fixture({ 'p/Shapes.java': SHAPES });
  const file = f.index.file(f.req.path)!;
  for (let seed = 1; seed <= 6; seed++) {
    const next = lcg(seed);
    const all = shuffledEntries(f.req, file, next);
    const shown = all.slice(0, 4), rest = all.slice(4);
    const packed = new Packer(f.req, Number.MAX_SAFE_INTEGER, 0);
    packed.addAll(shown);
    const before = packed.items();
    const [group] = [...packed.renderedGroups().values()];
    const listed = before[0].entries!;
    // Entries that differ in one Javadoc flag, or one entry short, are not that group.
    assert.equal(new Packer(f.req, Number.MAX_SAFE_INTEGER, 0).adopt(group, listed.slice(1)), false);
    assert.equal(new Packer(f.req, Number.MAX_SAFE_INTEGER, 0).adopt(group, listed.map((e, i) => (i ? e : { ...e, doc: !e.doc }))), false);
    const adopted = new Packer(f.req, Number.MAX_SAFE_INTEGER, 0);
    assert.equal(adopted.adopt(group, listed), true);
    assert.equal(adopted.total, packed.total);
    const clone = packed.clone();
    const accepted = [...shown];
    for (const e of rest.slice(0, 6)) {
      if (adopted.has(e.id)) continue;
      const want = fresh(f.req, accepted, e);
      let viaAdopted = NaN, viaClone = NaN;
      adopted.tryAdd(e, (d) => { viaAdopted = d; return true; });
      clone.tryAdd(e, (d) => { viaClone = d; return true; });
      assert.equal(viaAdopted, want.delta, `seed ${seed}: ${e.id} against the adopted group`);
      assert.equal(viaClone, want.delta, `seed ${seed}: ${e.id} against the clone`);
      accepted.push(e);
      assert.deepEqual(clone.items(), want.items);
      assert.deepEqual(adopted.items().map((i) => i.text), want.items.map((i) => i.text));
    }
    assert.deepEqual(packed.items(), before, `seed ${seed}: the packer cloned and adopted from is unchanged`);
  }
});
