// After edits, the workspace-wide structures kept file by file (the description index and its
// remembered term scores, word -> files, the popular declarations) answer exactly as a fresh
// build of the same files does, and a body edit keeps every remembered term score.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { factsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { descriptionRecall, rememberedTerms } from '../../server/src/retrieval/recall/descriptions';
import { globalPopular } from '../../server/src/retrieval/recall/graph';
import { filesWithWord } from '../../server/src/retrieval/recall/wordFiles';
import type { Query } from '../../server/src/retrieval/query';

const ROOT = '/ws';
const VOCAB = ['order', 'line', 'total', 'discount', 'loyalty', 'price', 'money', 'apply', 'tax', 'cart', 'bonus'];

function source(i: number): string {
  const w = (k: number) => VOCAB[(i * 7 + k * 3) % VOCAB.length];
  const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
  return `package p;\n/** The ${w(0)} ${w(1)} of a ${w(2)}. */\npublic class C${i} {\n` +
    `  /** Gets the ${w(3)} ${w(1)}. */\n  public static int ${w(4)}${cap(w(0))}(int ${w(5)}) { return ${i}; }\n` +
    `  int ${w(6)}(String ${w(2)}) { return C${(i + 1) % 12}.${VOCAB[((i + 1) * 7 + 12) % VOCAB.length]}${cap(VOCAB[((i + 1) * 7) % VOCAB.length])}(1) + C0.${VOCAB[12 % VOCAB.length]}${cap(VOCAB[0])}(2); }\n}\n`;
}

async function indexOf(texts: Map<string, string>, into = new WorkspaceIndex()): Promise<WorkspaceIndex> {
  for (const [path, text] of [...texts].sort()) into.put(path, ROOT, String(text.length), await factsOfText(text));
  into.resolveAll();
  return into;
}

const QUERIES = [['loyalty'], ['order', 'total', 'price'], ['apply', 'discount', 'apply', 'money'], ['bonus', 'cart', 'line', 'tax'], ['edited', 'count', 'name']];

/** Every query's candidates with their scores, as compared bit for bit. */
function answers(index: WorkspaceIndex): [string, number][][] {
  return QUERIES.map((words) => [...descriptionRecall(index, { words } as unknown as Query)].map(([id, c]) => [id, c.score]));
}

function wordLists(index: WorkspaceIndex, texts: Map<string, string>): Record<string, readonly string[]> {
  const lookup = filesWithWord({ index, textOf: (p) => texts.get(p) });
  return Object.fromEntries([...VOCAB, 'edited', 'Edited', 'C3', 'C12', 'return'].map((w) => [w, lookup(w)]));
}

test('incremental edits: descriptions, word -> files and popular declarations equal a fresh build; a body edit keeps the term scores', async () => {
  const texts = new Map(Array.from({ length: 12 }, (_, i) => [`${ROOT}/p/C${i}.java`, source(i)]));
  const index = await indexOf(texts);
  const same = async (label: string) => {
    const fresh = await indexOf(texts);
    assert.deepEqual(answers(index), answers(fresh), `${label}: descriptions`);
    assert.deepEqual(wordLists(index, texts), wordLists(fresh, texts), `${label}: word -> files`);
    assert.deepEqual(globalPopular(index), globalPopular(fresh), `${label}: popular declarations`);
  };
  const edit = async (path: string, text: string | undefined) => {
    if (text === undefined) { texts.delete(path); index.remove(path); return; }
    texts.set(path, text);
    index.update(path, ROOT, String(text.length), await factsOfText(text));
  };
  await same('built');
  assert.ok(globalPopular(index).length > 0, 'the fixture has popular declarations');
  const remembered = rememberedTerms(index);
  assert.ok(remembered >= 10, 'the searches above remembered their terms');

  const c3 = `${ROOT}/p/C3.java`;
  // A comment and a changed body: no description changes, every remembered score stays.
  await edit(c3, texts.get(c3)!.replace('return 3;', 'return 3 + 0; /* edited */'));
  assert.equal(rememberedTerms(index), remembered, 'a body edit keeps every term\'s scores');
  await same('body edited');

  // A method renamed to a name of as many words: the document count and every field's total stay,
  // so only the terms of the renamed method's documents may be forgotten, and they must be.
  const before = texts.get(c3)!;
  const renamed = before.replace(/int (\w+)\(String/, (_, n: string) => `int ${n === 'bonus' ? 'loyalty' : 'bonus'}(String`);
  assert.notEqual(renamed, before);
  await edit(c3, renamed);
  const kept = rememberedTerms(index); // before the searches below remember the forgotten ones again
  await same('method renamed');
  assert.ok(kept < remembered && kept > 0, `only the renamed method's terms are forgotten (${kept} of ${remembered})`);

  // A method added: the document count moves, and with it every score.
  await edit(c3, texts.get(c3)!.replace(/\}\s*$/, '  /** Edited count. */ int editedCount(String name) { return 0; }\n}\n'));
  await same('method added');
  await edit(`${ROOT}/p/C5.java`, undefined);
  await same('file removed');
  await edit(`${ROOT}/p/C12.java`, source(12).replace('public class C12', 'public class C12 extends C3'));
  await same('file added');
});
