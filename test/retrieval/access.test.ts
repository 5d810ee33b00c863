// Merging drops what the cursor's code cannot name: a private declaration of another file, and a
// package-private one (or one inside a package-private type) of another package. Interface
// members and enum constants are public without a modifier; the cursor's own package sees all.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeCandidates } from '../../server/src/retrieval/merge';
import { buildQuery } from '../../server/src/retrieval/query';
import type { Candidate } from '../../server/src/retrieval/types';
import { fixture } from './fixture';

const LIB = {
  'a/Money.java': [
    'package a;',
    'public class Money {',
    '    public Money plus(Money o) { return o; }',
    '    protected long cents() { return 0; }',
    '    long rawCents() { return 0; }',
    '    int scale;',
    '    static class Rounding {',
    '        public int mode() { return 0; }',
    '    }',
    '    public static class Format {',
    '        public String show() { return ""; }',
    '    }',
    '}',
    '',
  ].join('\n'),
  'a/Kind.java': 'package a;\npublic interface Kind {\n    String name();\n    enum Sign { PLUS, MINUS }\n}\n',
  'a/Helper.java': 'package a;\nclass Helper {\n    public static int help() { return 0; }\n}\n',
};

const ids = ['a.Money#plus(Money)', 'a.Money#cents()', 'a.Money#rawCents()', 'a.Money#scale', 'a.Money.Rounding#mode()', 'a.Money.Format#show()', 'a.Kind#name()', 'a.Kind.Sign#PLUS', 'a.Helper#help()', 'a.Helper'];

async function mergedFrom(use: Record<string, string>): Promise<string[]> {
  const { req } = await fixture({ ...LIB, ...use });
  const q = buildQuery(req);
  const known = ids.map((id) => req.index.symbol(id) ?? req.index.symbol(id.replace(/\.(Rounding|Format|Sign)/, '$$$1')));
  assert.ok(known.every(Boolean), 'every fixture declaration is indexed');
  const candidates = new Map<string, Candidate>(known.map((r) => [r!.sym.id, { id: r!.sym.id, score: 1, sources: ['lexical'], reasons: [] }]));
  return mergeCandidates(req.index, q, [candidates]).map((c) => c.id.replace(/\$/g, '.'));
}

test('merge: package-private declarations of another package are dropped, public ones and interface members kept', async () => {
  const merged = await mergedFrom({ 'b/Use.java': 'package b;\nimport a.Money;\nclass Use { Money f(Money m) { $0 } }\n' });
  assert.deepEqual(merged.sort(), ['a.Kind#name()', 'a.Kind.Sign#PLUS', 'a.Money#cents()', 'a.Money#plus(Money)', 'a.Money.Format#show()'].sort());
});

test('merge: the cursor\'s own package keeps its package-private declarations', async () => {
  const merged = await mergedFrom({ 'a/Use.java': 'package a;\nclass Use { Money f(Money m) { $0 } }\n' });
  assert.deepEqual(merged.sort(), [...ids].sort());
});
