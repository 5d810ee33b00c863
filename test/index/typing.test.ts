// A method being typed (unclosed blocks, the cursor below them) costs what a complete one costs:
// the members below keep their place in the class (java/braceRepair.ts), so the class keeps its
// shape, the update re-resolves one file, and the index still equals a fresh build.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repairUnclosedBodies } from '../../server/src/java/braceRepair';
import { hashText } from '../../server/src/index/files';
import { Indexer } from '../../server/src/index/indexer';
import { factsOfText, refsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { tempDir } from '../helpers/tempDir';

const ACCOUNT = [
  'package p;',
  '',
  'public class Account {',
  '    private long balance;',
  '',
  '    public void settle(Ledger ledger) {',
  '        for (Entry e : ledger.entries()) {',
  '            if (e.amount() > 0) {',
  '                balance += e.amount();',
  '            }',
  '        }',
  '    }',
  '',
  '    /** The balance. */',
  '    public long balance() {',
  '        return balance;',
  '    }',
  '',
  '    public void close() { balance = 0; }',
  '}',
  '',
].join('\n');

/** settle() typed down to the `if` line: two blocks and the method left open. */
const HALF = ACCOUNT.split('\n').slice(0, 8).concat('                ').concat(ACCOUNT.split('\n').slice(12)).join('\n');

const LEDGER = 'package p;\nimport java.util.List;\npublic class Ledger { public List<Entry> entries() { return null; } }\n';
const ENTRY = 'package p;\npublic class Entry { public long amount() { return 0; } }\n';
const USER = (i: number) => `package p;\npublic class User${i} { long m(Account a) { a.close(); return a.balance(); } }\n`;

test('brace repair: the unclosed blocks close before the next member, at line ends only', () => {
  const fixed = repairUnclosedBodies(HALF);
  assert.ok(fixed, 'a half-written body is repaired');
  const before = HALF.split('\n');
  const after = fixed.split('\n');
  assert.equal(after.length, before.length, 'no line added');
  const changed = after.flatMap((l, i) => (l === before[i] ? [] : [i]));
  // The three open blocks (if, for, the method) close on the blank line above the Javadoc of balance().
  assert.deepEqual(changed, [9]);
  assert.equal(after[9], '}}}');
});

test('brace repair: balanced text, braces in strings, chars and comments are left alone', () => {
  assert.equal(repairUnclosedBodies(ACCOUNT), undefined);
  const tricky = 'class T {\n  String s = "{";\n  char c = \'{\';\n  // {\n  /* { */\n  String t = """\n    {\n    """;\n}\n';
  assert.equal(repairUnclosedBodies(tricky), undefined);
});

test('brace repair: never inside a line comment; after the last code line when no blank line precedes the member', () => {
  const text = 'class T {\n  void a() {\n    if (x) {\n      go();\n    foo(); // a comment\n  void b() {}\n}\n';
  const fixed = repairUnclosedBodies(text)!;
  // The `if` closes before `foo();` (at its indentation), the method before b(); line 4 ends in a comment, so both go after `go();`.
  assert.equal(fixed.split('\n')[4], '    foo(); // a comment', 'nothing appended inside the comment');
  assert.equal(fixed.split('\n')[3], '      go();}}');
});

test('brace repair: switch labels at the switch\'s indentation stay inside it', () => {
  const text = 'class T {\n  int a(int k) {\n    switch (k) {\n    case 1:\n      return 1;\n    default:\n      return 0;\n\n  int b() { return 2; }\n}\n';
  const fixed = repairUnclosedBodies(text)!;
  assert.equal(fixed.split('\n')[7], '}}');
  assert.equal(fixed.split('\n')[3], '    case 1:');
});

async function build(files: Map<string, string>): Promise<WorkspaceIndex> {
  const index = new WorkspaceIndex();
  index.releaseRefs = true;
  index.refsLoader = (path, hash) => refsOfText(files.get(path), hash);
  for (const [p, t] of [...files].sort()) index.put(p, '/ws', hashText(t), await factsOfText(t));
  index.resolveAll();
  return index;
}

test('a half-written body keeps the class shape: one file re-resolved, the callers of members below still resolved, = fresh build', async () => {
  const files = new Map<string, string>([['/ws/p/Account.java', ACCOUNT], ['/ws/p/Ledger.java', LEDGER], ['/ws/p/Entry.java', ENTRY]]);
  for (let i = 0; i < 5; i++) files.set(`/ws/p/User${i}.java`, USER(i));
  const index = await build(files);
  files.set('/ws/p/Account.java', HALF);
  const reresolved = index.update('/ws/p/Account.java', '/ws', hashText(HALF), await factsOfText(HALF));
  assert.equal(reresolved, 1, 'only the edited file');
  const names = index.file('/ws/p/Account.java')!.facts.symbols.map((s) => s.name);
  assert.ok(names.includes('balance') && names.includes('close'), `members below the broken body kept: ${names}`);
  assert.ok(index.edgesTo('p.Account#close()').some((e) => e.path === '/ws/p/User0.java'), 'callers of close() still resolve');
  assert.equal(index.canonical(), (await build(files)).canonical());
  // And back to the complete body: the shape never changed, so again one file.
  files.set('/ws/p/Account.java', ACCOUNT);
  assert.equal(index.update('/ws/p/Account.java', '/ws', hashText(ACCOUNT), await factsOfText(ACCOUNT)), 1);
});

test('an open document being typed (incremental re-parse) gets the facts a fresh parse gets', async () => {
  const dir = tempDir('needle-typing-');
  mkdirSync(join(dir, 'p'));
  writeFileSync(join(dir, 'p', 'Account.java'), ACCOUNT);
  writeFileSync(join(dir, 'p', 'User0.java'), USER(0));
  const ix = new Indexer({ cacheDir: join(dir, '.cache') });
  await ix.addFolder(dir);
  const path = join(dir, 'p', 'Account.java');
  await ix.setDocument(path, ACCOUNT);
  // Typing the body again line by line, from the `for` line to the `if` line and on: each state re-parsed incrementally.
  const lines = ACCOUNT.split('\n');
  for (let cut = 7; cut <= 9; cut++) {
    const text = lines.slice(0, cut).concat('                ').concat(lines.slice(12)).join('\n');
    const resolutions = ix.index.resolutions;
    await ix.setDocument(path, text);
    assert.equal(ix.index.resolutions - resolutions, 1, `cut at line ${cut}: one file re-resolved`);
    const fresh = await factsOfText(text);
    assert.deepEqual(ix.index.file(path)!.facts.symbols, fresh.symbols, `cut at line ${cut}: incremental = fresh parse`);
  }
  await ix.closeDocument(path);
});

test('brace repair: an anonymous class or lambda left open inside a call closes the call too', async () => {
  const text = [
    'class T {',
    '  void a() {',
    '    run(new Visitor() {',
    '      public void head(Node n) {',
    '        if (n.ok()) {',
    '          go(n,',
    '',
    '  void b() {}',
    '}',
    '',
  ].join('\n');
  assert.equal(repairUnclosedBodies(text)!.split('\n')[6], ');}}});}');
  const facts = await factsOfText(text);
  const t = facts.symbols.findIndex((x) => x.name === 'T');
  assert.ok(facts.symbols.some((x) => x.name === 'b' && x.parent === t), 'b() is still a member of T');
});
