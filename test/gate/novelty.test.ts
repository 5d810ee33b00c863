import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateNovelty,
  classifyPackage,
  noveltyOf,
  noveltySignals,
  type FamiliaritySignal,
  type NoveltyInput,
} from '../../server/src/gate/novelty';
import { identifierFamiliarity, lexiconStats, partFamiliarity } from '../../server/src/gate/lexicon';

const stringIsEmpty: NoveltyInput = {
  name: 'isEmpty', ownerName: 'String', packageName: 'java.lang', internal: false, documented: true, kind: 'method',
};
const zxIsBlankish: NoveltyInput = {
  name: 'zxIsBlankish', ownerName: 'ZxTextKit', packageName: 'com.acme.platform.text', internal: true, documented: false, kind: 'method',
};
const findById: NoveltyInput = {
  name: 'findById', ownerName: 'OrderRepository', packageName: 'com.acme.shop.order', internal: true, documented: false, kind: 'method',
};
const roundToCents: NoveltyInput = {
  name: 'roundHalfEvenToCents', ownerName: 'MoneyMath', packageName: 'com.acme.platform.money', internal: true, documented: false, kind: 'method',
};

const inUnit = (x: number) => x >= 0 && x <= 1 && Number.isFinite(x);

test('lexicon is loaded and non-trivial', () => {
  const s = lexiconStats();
  assert.equal(s.loaded, true);
  assert.ok(s.files > 1000, `files ${s.files}`);
  assert.ok(s.parts > 5000, `parts ${s.parts}`);
  assert.ok(s.identifiers > 10000, `identifiers ${s.identifiers}`);
  for (const p of ['get', 'string', 'is', 'empty', 'to', 'find', 'id']) assert.ok(partFamiliarity(p) > 0.8, p);
  for (const p of ['zx', 'blankish']) assert.equal(partFamiliarity(p), 0, p);
  assert.equal(partFamiliarity('GET'), partFamiliarity('get'));
  assert.ok(identifierFamiliarity('String') > 0.9);
  assert.ok(identifierFamiliarity('isEmpty') > 0.9);
  assert.ok(identifierFamiliarity('java.util.HashMap') > 0.9);
  assert.equal(identifierFamiliarity('zxIsBlankish'), 0);
});

test('curated library vocabulary is familiar', () => {
  for (const p of ['autowired', 'repository', 'mock', 'bean', 'immutable', 'assert']) {
    assert.ok(partFamiliarity(p) >= 0.85, `${p}: ${partFamiliarity(p)}`);
  }
  for (const id of ['assertThat', 'findById', 'Autowired', 'ImmutableList']) assert.ok(identifierFamiliarity(id) > 0.8, id);
});

test('JDK symbols are low, invented internal helpers high, conventional internal names in between', () => {
  const jdk = noveltyOf(stringIsEmpty);
  const invented = noveltyOf(zxIsBlankish);
  const conventional = noveltyOf(findById);
  assert.ok(jdk < 0.2, `String#isEmpty ${jdk}`);
  assert.ok(invented > 0.7, `ZxTextKit#zxIsBlankish ${invented}`);
  assert.ok(conventional > jdk && conventional < invented, `OrderRepository#findById ${conventional}`);
  assert.ok(conventional >= 0.3 && conventional <= 0.7, `OrderRepository#findById ${conventional}`);
  // Even without Javadoc (a binary dependency), a JDK name stays low.
  assert.ok(noveltyOf({ ...stringIsEmpty, documented: false }) < 0.2);
  for (const sym of [
    { ...stringIsEmpty, name: 'computeIfAbsent', ownerName: 'HashMap', packageName: 'java.util' },
    { ...stringIsEmpty, name: 'String', kind: 'class', ownerName: undefined },
    { ...stringIsEmpty, name: 'isBlank', ownerName: 'StringUtils', packageName: 'org.apache.commons.lang3', documented: false },
  ]) assert.ok(noveltyOf(sym) < 0.2, `${sym.ownerName}#${sym.name} ${noveltyOf(sym)}`);
});

test('signals point the right way', () => {
  const a = noveltySignals(stringIsEmpty);
  const b = noveltySignals(zxIsBlankish);
  const c = noveltySignals(findById);
  for (const s of [a, b, c]) for (const v of [s.lexical, s.naming, s.structure]) assert.ok(inUnit(v));
  assert.ok(a.lexical < 0.1 && b.lexical > 0.6, `lexical ${a.lexical} ${b.lexical}`);
  assert.ok(c.lexical < 0.2, `conventional lexical ${c.lexical}`);
  assert.ok(a.naming < 0.1 && b.naming > c.naming && c.naming > a.naming);
  assert.equal(a.structure, 0);
  assert.equal(b.structure, 1);
  // A whole-identifier JDK match lowers lexical distance relative to the same parts in another order.
  const whole = noveltySignals({ ...stringIsEmpty, ownerName: undefined, name: 'toString' }).lexical;
  const shuffled = noveltySignals({ ...stringIsEmpty, ownerName: undefined, name: 'stringTo' }).lexical;
  assert.ok(whole <= shuffled, `${whole} vs ${shuffled}`);
  // Unknown and rarer parts raise lexical distance.
  const known = noveltySignals({ ...zxIsBlankish, name: 'isBlank', ownerName: undefined }).lexical;
  const unknown = noveltySignals({ ...zxIsBlankish, name: 'isBlankish', ownerName: undefined }).lexical;
  assert.ok(unknown > known);
});

test('monotonicity: documented <= undocumented, external <= internal, public package <= organisation', () => {
  const samples = [stringIsEmpty, zxIsBlankish, findById, roundToCents];
  for (const s of samples) {
    assert.ok(noveltyOf({ ...s, documented: true }) <= noveltyOf({ ...s, documented: false }), s.name);
    assert.ok(noveltyOf({ ...s, internal: false }) <= noveltyOf({ ...s, internal: true }), s.name);
    for (const pkg of ['java.util', 'org.springframework.data', 'com.google.common.base']) {
      assert.ok(noveltyOf({ ...s, packageName: pkg }) <= noveltyOf({ ...s, packageName: 'com.acme.x' }), `${s.name} ${pkg}`);
    }
  }
});

test('orgPrefixes force organisation origin, even for a public-looking namespace', () => {
  assert.equal(classifyPackage('java.lang'), 'platform');
  assert.equal(classifyPackage('javax.swing'), 'platform');
  assert.equal(classifyPackage('org.apache.commons.lang3'), 'library');
  assert.equal(classifyPackage('com.acme.platform.money'), 'organisation');
  assert.equal(classifyPackage('javalike.foo'), 'organisation'); // prefix matching is by segment
  assert.equal(classifyPackage(undefined), 'unknownPackage');
  assert.equal(classifyPackage('com.google.common.base', ['com.google']), 'forced');
  assert.equal(classifyPackage('com.google.common.base', ['com.google.']), 'forced');
  const lib = { ...findById, internal: false, packageName: 'com.google.common.base' };
  assert.ok(noveltyOf(lib, { orgPrefixes: ['com.google'] }) > noveltyOf(lib));
  // An external dependency from the organisation is still novel.
  const ext = { ...roundToCents, internal: false, documented: false };
  assert.ok(noveltyOf(ext) > noveltyOf({ ...ext, packageName: 'java.math' }));
});

test('model familiarity seam: used when it answers, ignored when it abstains', () => {
  const knows: FamiliaritySignal = { familiarity: () => 1 };
  const clueless: FamiliaritySignal = { familiarity: () => 0 };
  const abstains: FamiliaritySignal = { familiarity: () => undefined };
  const base = noveltyOf(findById);
  assert.equal(noveltyOf(findById, { model: abstains }), base);
  assert.ok(noveltyOf(findById, { model: knows }) < base);
  assert.ok(noveltyOf(findById, { model: clueless }) > base);
  assert.ok(inUnit(noveltyOf(zxIsBlankish, { model: clueless })));
});

test('constructors are judged by their type name; degenerate names stay in range', () => {
  const ctor = noveltyOf({ ...stringIsEmpty, name: '<init>', kind: 'constructor' });
  assert.ok(ctor < 0.2, `String() ${ctor}`);
  for (const name of ['', '_', '$', 'A1', 'x']) assert.ok(inUnit(noveltyOf({ ...zxIsBlankish, name })), name);
});

test('deterministic', () => {
  for (const s of [stringIsEmpty, zxIsBlankish, findById, roundToCents]) {
    assert.equal(noveltyOf(s), noveltyOf({ ...s }));
    assert.deepEqual(noveltySignals(s), noveltySignals({ ...s }));
  }
});

test('aggregateNovelty: empty, single, equal, bounds, monotone, weight-scale and order invariant', () => {
  assert.equal(aggregateNovelty([]), 0);
  assert.equal(aggregateNovelty([{ novelty: 0.9, weight: 0 }]), 0);
  assert.equal(aggregateNovelty([{ novelty: 0.37, weight: 2 }]), 0.37);
  assert.ok(Math.abs(aggregateNovelty([{ novelty: 0.4, weight: 1 }, { novelty: 0.4, weight: 3 }]) - 0.4) < 1e-12);

  const vals = [
    { novelty: 0.05, weight: 1 },
    { novelty: 0.1, weight: 1 },
    { novelty: 0.9, weight: 1 },
    { novelty: 0.2, weight: 0.5 },
  ];
  const agg = aggregateNovelty(vals);
  const mean = vals.reduce((a, v) => a + v.novelty * v.weight, 0) / vals.reduce((a, v) => a + v.weight, 0);
  assert.ok(agg >= 0.05 && agg <= 0.9);
  // One novel symbol among familiar ones is not diluted away.
  assert.ok(agg > mean + 0.2, `agg ${agg} mean ${mean}`);
  // Order and weight scale do not matter.
  assert.ok(Math.abs(aggregateNovelty([...vals].reverse()) - agg) < 1e-12);
  assert.ok(Math.abs(aggregateNovelty(vals.map((v) => ({ ...v, weight: v.weight * 7 }))) - agg) < 1e-12);
  // Raising any novelty never lowers the aggregate.
  for (let i = 0; i < vals.length; i++) {
    const up = vals.map((v, j) => (j === i ? { ...v, novelty: Math.min(1, v.novelty + 0.3) } : v));
    assert.ok(aggregateNovelty(up) >= agg);
  }
  // A lightly weighted novel symbol counts less than a heavily weighted one.
  const light = aggregateNovelty([{ novelty: 0.1, weight: 1 }, { novelty: 0.9, weight: 0.1 }]);
  const heavy = aggregateNovelty([{ novelty: 0.1, weight: 0.1 }, { novelty: 0.9, weight: 1 }]);
  assert.ok(light < heavy);
  // Out-of-range inputs are clamped.
  assert.ok(inUnit(aggregateNovelty([{ novelty: 7, weight: 1 }, { novelty: -1, weight: 1 }, { novelty: NaN, weight: 1 }])));
});
