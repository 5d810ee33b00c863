// Surface routes through what a partial body has written: what its callees use, members of the
// types it works with, and what the other users of its references also use; the bound keeps every
// written entry; each scenario prices its entries with its own table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundSurface, calibratedProbability, dependencySurface, ROUTE_TABLES, surfaceCandidates } from '../../server/src/gate/surface';
import { bodyOf } from '../../server/src/gate/sufficiency';
import { buildIndex, targetAt } from './helpers';

const ORDERS = '/ws/src/com/acme/flow/Orders.java';
const FILES: Record<string, string> = {
  [ORDERS]: `package com.acme.flow;

public class Orders {
    public static int total(Ledger ledger) {
        Sheet sheet = ledger.open();
        $0
    }

    public static int none(Ledger ledger) {
        $1
    }

    @Marker(Tally.LEVEL)
    public static int tagged(Ledger ledger) {
        $2
    }
}
`,
  '/ws/src/com/acme/flow/Marker.java': `package com.acme.flow;

public @interface Marker {
    int value();
}
`,
  '/ws/src/com/acme/flow/Ledger.java': `package com.acme.flow;

public class Ledger {
    public Sheet open() { return Audit.stamp(new Sheet()); }
}
`,
  '/ws/src/com/acme/flow/Sheet.java': `package com.acme.flow;

public class Sheet {
    public int sum() { return 0; }
    public void close() { }
}
`,
  '/ws/src/com/acme/flow/Audit.java': `package com.acme.flow;

public class Audit {
    public static Sheet stamp(Sheet s) { return s; }
}
`,
  '/ws/src/com/acme/flow/Reports.java': `package com.acme.flow;

public class Reports {
    static int report(Ledger l) { Sheet s = l.open(); return Tally.count(); }
}
`,
  '/ws/src/com/acme/flow/Tally.java': `package com.acme.flow;

public class Tally {
    public static final int LEVEL = 1;
    public static int count() { return 1; }
}
`,
};

async function fixtureAt(marker: string) {
  const text = FILES[ORDERS];
  const line = text.split('\n').findIndex((l) => l.includes(marker));
  const index = await buildIndex({ ...FILES, [ORDERS]: text.replace(/\$\d/g, '') });
  return { index, target: targetAt(index, ORDERS, line, 8) };
}

const routes = (cands: { symbol: string; reasons: { route: string }[] }[], id: string) => (cands.find((c) => c.symbol === id)?.reasons ?? []).map((r) => r.route);
const WRITTEN_BODY = '\n        Sheet sheet = ledger.open();\n        \n    }';

test('a partial body leads to what its callees use, members of the types it works with, and what its references are used with', async () => {
  const { index, target } = await fixtureAt('$0');
  assert.equal(target.ref.sym.id, 'com.acme.flow.Orders#total(Ledger)');
  const cands = surfaceCandidates(index, target, WRITTEN_BODY);
  assert.ok(routes(cands, 'com.acme.flow.Ledger#open()').includes('body-ref'));
  // Ledger#open, which the body calls, uses Audit#stamp.
  assert.ok(routes(cands, 'com.acme.flow.Audit#stamp(Sheet)').includes('callee-use'), routes(cands, 'com.acme.flow.Audit#stamp(Sheet)').join());
  // Sheet is written (a local's type and open()'s return type): its members are candidates.
  assert.ok(routes(cands, 'com.acme.flow.Sheet#sum()').includes('written-type-member'));
  assert.ok(routes(cands, 'com.acme.flow.Sheet#close()').includes('written-type-member'));
  // Reports#report, the other user of Ledger#open, also uses Tally#count.
  assert.ok(routes(cands, 'com.acme.flow.Tally#count()').includes('co-use'));
});

test('the routes through the written half do not fire for an empty body', async () => {
  const { index, target } = await fixtureAt('$1');
  assert.equal(target.ref.sym.id, 'com.acme.flow.Orders#none(Ledger)');
  const cands = surfaceCandidates(index, target, '\n        \n    }');
  const fired = new Set(cands.flatMap((c) => c.reasons.map((r) => r.route)));
  for (const r of ['body-ref', 'callee-use', 'written-type-member', 'co-use']) assert.ok(!fired.has(r as never), r);
});

test('references before the body brace (an annotation and its argument) belong to the declaration, not written evidence: no written-half route starts there', async () => {
  const { index, target } = await fixtureAt('$2');
  assert.equal(target.ref.sym.id, 'com.acme.flow.Orders#tagged(Ledger)');
  const body = bodyOf(FILES[ORDERS].replace(/\$\d/g, ''), target.ref.sym.span)!;
  assert.ok(body.text.trim() === '}' && body.brace.line === target.ref.sym.nameSpan.sl, JSON.stringify(body));
  const cands = surfaceCandidates(index, target, body.text, body.brace);
  const fired = new Set(cands.flatMap((c) => c.reasons.map((r) => r.route)));
  for (const r of ['body-ref', 'callee-use', 'written-type-member', 'co-use']) assert.ok(!fired.has(r as never), r);
  assert.ok(routes(cands, 'com.acme.flow.Marker').includes('signature-type'), routes(cands, 'com.acme.flow.Marker').join());
  assert.ok(routes(cands, 'com.acme.flow.Tally#LEVEL').includes('signature-type'));
  const surface = dependencySurface(index, target, body.text, { bodyStart: body.brace });
  assert.ok(!surface.some((e) => e.written), 'an emptied body has written nothing');
  // Without the brace's position every reference of the method counts as written (the old reading).
  assert.ok(routes(surfaceCandidates(index, target, body.text), 'com.acme.flow.Marker').includes('body-ref'));
});

test('the bound keeps every written entry and the heaviest estimated ones', async () => {
  assert.deepEqual(boundSurface(['w1', 'e1', 'w2', 'e2', 'e3'], (x) => x.startsWith('w'), 1), ['w1', 'e1', 'w2']);
  const { index, target } = await fixtureAt('$0');
  const all = dependencySurface(index, target, WRITTEN_BODY, { max: Infinity });
  const one = dependencySurface(index, target, WRITTEN_BODY, { max: 1 });
  assert.equal(one.filter((e) => !e.written).length, 1);
  assert.deepEqual(one.filter((e) => e.written).map((e) => e.symbol), all.filter((e) => e.written).map((e) => e.symbol));
  assert.ok(one.some((e) => e.written));
});

test('each scenario prices its entries with its own table; a body with written references defaults to the partial one', async () => {
  const { index, target } = await fixtureAt('$0');
  const hints = [{ w: 0.6, route: 'sibling-use' as const, reason: 'used by other members of the class' }];
  const z = (sc: 'new-body' | 'partial-body') => ROUTE_TABLES[sc].bias + (ROUTE_TABLES[sc].logit['sibling-use'] ?? [0, 0])[0] * 0.6 + (ROUTE_TABLES[sc].logit['sibling-use'] ?? [0, 0])[1];
  for (const sc of ['new-body', 'partial-body'] as const) assert.ok(Math.abs(calibratedProbability(hints, sc) - 1 / (1 + Math.exp(-z(sc)))) < 1e-12);
  const byDefault = dependencySurface(index, target, WRITTEN_BODY);
  const partial = dependencySurface(index, target, WRITTEN_BODY, { scenario: 'partial-body' });
  const asNew = dependencySurface(index, target, WRITTEN_BODY, { scenario: 'new-body' });
  assert.deepEqual(byDefault, partial);
  if (JSON.stringify(ROUTE_TABLES['new-body']) !== JSON.stringify(ROUTE_TABLES['partial-body'])) assert.notDeepEqual(asNew.map((e) => e.weight), partial.map((e) => e.weight));
});

test('what an anonymous or local class inside the body references is written too, and its own members are not needed', async () => {
  const path = '/ws/src/com/acme/diff/Builder.java';
  const files: Record<string, string> = {
    [path]: `package com.acme.diff;

public class Builder {
    private final java.util.List<Diff> diffs = new java.util.ArrayList<>();

    public Builder append(final String field, final byte[] lhs) {
        diffs.add(new Diff(field) {
            @Override
            public Object left() {
                return Boxes.box(lhs);
            }
            Object twice() { return left(); }
        });
        class Local { int size() { return Sizes.of(lhs); } }
        return this;
    }
}
`,
    '/ws/src/com/acme/diff/Diff.java': `package com.acme.diff;

public abstract class Diff {
    protected Diff(String field) { }
    public abstract Object left();
}
`,
    '/ws/src/com/acme/diff/Boxes.java': `package com.acme.diff;

public class Boxes {
    public static Object box(byte[] b) { return b; }
}
`,
    '/ws/src/com/acme/diff/Sizes.java': `package com.acme.diff;

public class Sizes {
    public static int of(byte[] b) { return b.length; }
}
`,
  };
  const index = await buildIndex(files);
  const line = files[path].split('\n').findIndex((l) => l.includes('diffs.add('));
  const target = targetAt(index, path, line, 8);
  assert.equal(target.ref.sym.id, 'com.acme.diff.Builder#append(String,byte[])');
  const written = dependencySurface(index, target, undefined, { writtenOnly: true }).filter((e) => e.written).map((e) => e.symbol);
  for (const id of ['com.acme.diff.Builder#diffs', 'com.acme.diff.Diff#<init>(String)', 'com.acme.diff.Boxes#box(byte[])', 'com.acme.diff.Sizes#of(byte[])']) {
    assert.ok(written.includes(id), `${id} missing from ${written.join(', ')}`);
  }
  // The anonymous class's own members are part of the body, not dependencies of it.
  assert.ok(!written.some((id) => id.startsWith('com.acme.diff.Builder$')), written.join(', '));
  assert.deepEqual(index.edgesWithin('com.acme.diff.Diff#left()'), index.edgesFrom('com.acme.diff.Diff#left()'));
  // A type's edges are its own: the classes inside its methods' bodies belong to those methods.
  assert.deepEqual(index.edgesWithin('com.acme.diff.Builder'), index.edgesFrom('com.acme.diff.Builder'));
});
