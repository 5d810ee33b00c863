// The surface's routes to collaborators' APIs that no member of the class reaches (issue #13,
// new bodies): types named like the method (named-type), what the other subclasses of the class's
// supertypes use besides their API (sibling-class-use), and the types nested in the enclosing
// class (nested-type).
// Each is checked on a fixture where it must fire and on one where it must not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { surfaceCandidates, typesNamedWith, type Route } from '../../server/src/gate/surface';
import { factsOfText } from '../../server/src/index/parseFile';
import { buildIndex, targetAt } from './helpers';

function routesOf(cands: ReturnType<typeof surfaceCandidates>, id: string): Route[] {
  return (cands.find((c) => c.symbol === id)?.reasons ?? []).map((r) => r.route);
}

const EVALUATOR = `package com.acme.sel;

public abstract class Evaluator {
  public static final class IndexLessThan extends Evaluator {
    public IndexLessThan(int index) { }
  }
  public static final class AttributeWithValueContaining extends Evaluator {
    public AttributeWithValueContaining(String key, String value) { }
  }
  public static final class Tag extends Evaluator {
    public Tag(String name) { }
  }
}
`;
const PARSER = `package com.acme.sel;

public class QueryParser {
  Evaluator indexLessThan() {
  }

  Evaluator byAttributeValueContaining(String key, String value) {
  }

  void consume() {
  }
}
`;

test('named-type: a type whose name is words of the method name enters with its constructors; a method naming no type gets none', async () => {
  const index = await buildIndex({ '/ws/src/com/acme/sel/Evaluator.java': EVALUATOR, '/ws/src/com/acme/sel/QueryParser.java': PARSER });
  const path = '/ws/src/com/acme/sel/QueryParser.java';
  const less = surfaceCandidates(index, targetAt(index, path, 3, 4));
  assert.ok(routesOf(less, 'com.acme.sel.Evaluator.IndexLessThan').includes('named-type'));
  assert.ok(routesOf(less, 'com.acme.sel.Evaluator.IndexLessThan#<init>(int)').includes('named-type'), 'its constructor');
  assert.ok(!routesOf(less, 'com.acme.sel.Evaluator.Tag').includes('named-type'), 'Tag shares no word with indexLessThan');
  // byAttributeValueContaining: AttributeWithValueContaining's strong words (attribute, value, containing) are all in the method name.
  const contains = surfaceCandidates(index, targetAt(index, path, 6, 4));
  assert.ok(routesOf(contains, 'com.acme.sel.Evaluator.AttributeWithValueContaining#<init>(String,String)').includes('named-type'));
  assert.ok(!routesOf(contains, 'com.acme.sel.Evaluator.IndexLessThan').includes('named-type'));
  const consume = surfaceCandidates(index, targetAt(index, path, 9, 4));
  assert.ok(consume.every((c) => !c.reasons.some((r) => r.route === 'named-type')), 'consume names no type');
});

test('named-type: the word table follows edits (a renamed type leaves it, a new one enters)', async () => {
  // Enough other files that one edit is applied as an update, not a rebuild (REBUILD_SHARE).
  const fillers = Object.fromEntries(['Alpha', 'Beta', 'Gamma', 'Delta', 'Omega'].map((n) => [`/ws/src/com/acme/sel/${n}.java`, `package com.acme.sel;\n\npublic class ${n} { }\n`]));
  const index = await buildIndex({ '/ws/src/com/acme/sel/Evaluator.java': EVALUATOR, '/ws/src/com/acme/sel/QueryParser.java': PARSER, ...fillers });
  assert.deepEqual(typesNamedWith(index, 'gamma'), ['com.acme.sel.Gamma']);
  assert.ok(typesNamedWith(index, 'less').includes('com.acme.sel.Evaluator.IndexLessThan'));
  index.put('/ws/src/com/acme/sel/Evaluator.java', '/ws', 'h2', await factsOfText(EVALUATOR.replace(/IndexLessThan/g, 'IndexBelow')));
  index.resolveAll();
  assert.deepEqual(typesNamedWith(index, 'less'), []);
  assert.deepEqual(typesNamedWith(index, 'below'), ['com.acme.sel.Evaluator.IndexBelow']);
});

test('sibling-class-use: what the other subclasses of the supertype use besides its API enters, by their share; a class with no supertype gets none', async () => {
  const index = await buildIndex({
    '/ws/src/com/acme/task/Task.java': 'package com.acme.task;\n\npublic abstract class Task {\n  protected void log(String m) { }\n}\n',
    '/ws/src/com/acme/task/Files.java': 'package com.acme.task;\n\npublic class Files {\n  public static void close(Object o) { }\n  public static void touch(Object o) { }\n}\n',
    '/ws/src/com/acme/task/Copy.java': 'package com.acme.task;\n\npublic class Copy extends Task {\n  void run() { Files.close(null); log(""); }\n}\n',
    '/ws/src/com/acme/task/Move.java': 'package com.acme.task;\n\npublic class Move extends Task {\n  void go() { Files.close(null); }\n}\n',
    '/ws/src/com/acme/task/Zip.java': 'package com.acme.task;\n\npublic class Zip extends Task {\n  void pack() {\n  }\n}\n',
    '/ws/src/com/acme/task/Plain.java': 'package com.acme.task;\n\npublic class Plain {\n  void pack() {\n  }\n}\n',
  });
  const cands = surfaceCandidates(index, targetAt(index, '/ws/src/com/acme/task/Zip.java', 3, 4));
  const hint = cands.find((c) => c.symbol === 'com.acme.task.Files#close(Object)')?.reasons.find((r) => r.route === 'sibling-class-use');
  assert.ok(hint, 'Copy and Move both call Files.close');
  assert.ok(Math.abs(hint.w - 0.6 * 2 / 3) < 1e-9, `2 of 2 other subclasses: 0.6 × 2 / (2 + 1), got ${hint.w}`);
  assert.ok(!routesOf(cands, 'com.acme.task.Files#touch(Object)').includes('sibling-class-use'), 'no subclass uses touch');
  assert.ok(!routesOf(cands, 'com.acme.task.Task#log(String)').includes('sibling-class-use'), 'the supertype\'s own API is super-member-use\'s');
  const plain = surfaceCandidates(index, targetAt(index, '/ws/src/com/acme/task/Plain.java', 3, 4));
  assert.ok(plain.every((c) => !c.reasons.some((r) => r.route === 'sibling-class-use')));
});

test('nested-type: types declared in the enclosing class enter with their constructors and API; a class with none gets no such entry', async () => {
  const index = await buildIndex({
    '/ws/src/com/acme/net/Get.java': `package com.acme.net;

public class Get {
  boolean doGet(int tries) {
  }

  private static class Fetcher {
    Fetcher(int tries) { }
    boolean succeeded() { return true; }
  }
}
`,
    '/ws/src/com/acme/net/Put.java': 'package com.acme.net;\n\npublic class Put {\n  boolean doPut() {\n  }\n}\n',
  });
  const cands = surfaceCandidates(index, targetAt(index, '/ws/src/com/acme/net/Get.java', 3, 4));
  for (const id of ['com.acme.net.Get.Fetcher', 'com.acme.net.Get.Fetcher#<init>(int)', 'com.acme.net.Get.Fetcher#succeeded()']) {
    assert.ok(routesOf(cands, id).includes('nested-type'), id);
  }
  const put = surfaceCandidates(index, targetAt(index, '/ws/src/com/acme/net/Put.java', 3, 4));
  assert.ok(put.every((c) => !c.reasons.some((r) => r.route === 'nested-type')));
});
