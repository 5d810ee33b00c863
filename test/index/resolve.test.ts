import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { edgesOf, fixture, indexFixture } from '../helpers/workspace';
import { memberLookupKey } from '../../server/src/java/resolve';

const LIB = {
  'src/com/acme/util/Texts.java': `package com.acme.util;
/** Text helpers. */
public final class Texts {
  public static final String EMPTY = "";
  public static boolean isBlank(CharSequence s) { return s == null; }
  public static String pad(String s, int n) { return s; }
  public static String pad(String s, int n, char c) { return s; }
  public static String join(String sep, String... parts) { return sep; }
}`,
  'src/com/acme/model/Base.java': `package com.acme.model;
public abstract class Base<T> {
  protected int version;
  public T value() { return null; }
  public abstract String describe();
  public Base<T> touch() { version++; return this; }
}`,
  'src/com/acme/model/Order.java': `package com.acme.model;
import java.util.List;
public class Order extends Base<Line> implements Comparable<Order> {
  public enum Status { OPEN, CLOSED }
  public static class Builder {
    private String id;
    public Builder id(String id) { this.id = id; return this; }
    public Order build() { return new Order(id); }
  }
  private final String id;
  private List<Line> lines;
  public Order(String id) { this.id = id; }
  public Order() { this(null); }
  public String describe() { return id; }
  public List<Line> lines() { return lines; }
  public int compareTo(Order o) { return 0; }
}`,
  'src/com/acme/model/Line.java': `package com.acme.model;
public record Line(String sku, int qty) {
  public int total() { return qty; }
}`,
};

test('static imports, overloads by arity and argument type, varargs', async () => {
  const f = fixture({
    ...LIB,
    'src/com/acme/app/Service.java': `package com.acme.app;
import com.acme.util.Texts;
import static com.acme.util.Texts.isBlank;
class Service {
  String run(String name) {
    if (isBlank(name)) return Texts.EMPTY;
    Texts.pad(name, 3);
    Texts.pad(name, 3, 'x');
    return Texts.join(",", "a", "b", "c");
  }
}`,
  });
  const edges = edgesOf(await indexFixture(f), 'com.acme.app.Service#run');
  assert.ok(edges.includes('call com.acme.util.Texts#isBlank(CharSequence)'));
  assert.ok(edges.includes('field com.acme.util.Texts#EMPTY'));
  assert.ok(edges.includes('call com.acme.util.Texts#pad(String,int)'));
  assert.ok(edges.includes('call com.acme.util.Texts#pad(String,int,char)'));
  assert.ok(edges.includes('call com.acme.util.Texts#join(String,String[])'));
  assert.ok(edges.includes('type com.acme.util.Texts'));
});

test('inheritance, generics substitution, builders, records, nested types, constructors', async () => {
  const f = fixture({
    ...LIB,
    'src/com/acme/app/Flow.java': `package com.acme.app;
import com.acme.model.*;
class Flow {
  int go() {
    Order o = new Order.Builder().id("1").build();
    o.touch().describe();
    int n = o.value().total();
    for (Line l : o.lines()) n += l.qty();
    var first = o.lines().get(0);
    Order.Status s = Order.Status.OPEN;
    return n + first.total();
  }
}`,
  });
  const edges = edgesOf(await indexFixture(f), 'com.acme.app.Flow#go');
  for (const e of [
    'new com.acme.model.Order.Builder',
    'call com.acme.model.Order.Builder#id(String)',
    'call com.acme.model.Order.Builder#build()',
    'call com.acme.model.Base#touch()',       // inherited declaration
    'call com.acme.model.Order#describe()',   // Base<T>.touch() returns Base<T>; describe is abstract there
    'call com.acme.model.Base#value()',
    'call com.acme.model.Line#total()',       // T substituted by Line through `extends Base<Line>`
    'call com.acme.model.Order#lines()',
    'call com.acme.model.Line#qty',           // record accessor -> component
    'field com.acme.model.Order.Status#OPEN',
    'type com.acme.model.Order.Status',
  ]) {
    if (e === 'call com.acme.model.Order#describe()') continue; // see below: static type is Base<T>
    assert.ok(edges.includes(e), `missing ${e}\n${edges.join('\n')}`);
  }
  assert.ok(edges.includes('call com.acme.model.Base#describe()'), 'describe() on Base<T> resolves to the abstract declaration');
  assert.equal(edges.filter((e) => e === 'call com.acme.model.Line#total()').length, 2, 'var inferred from List<Line>.get(0)');
});

test('this/super constructor calls, fields through this, unresolved names kept', async () => {
  const f = fixture({
    ...LIB,
    'src/com/acme/model/Special.java': `package com.acme.model;
class Special extends Order {
  Special() { super("s"); this.version = 2; }
  Special(int x) { this(); helper(); missing(); }
  private void helper() { version++; }
}`,
  });
  const index = await indexFixture(f);
  const edges = edgesOf(index, 'com.acme.model.Special#<init>');
  assert.ok(edges.includes('ctorCall com.acme.model.Order#<init>(String)'));
  assert.ok(edges.includes('field com.acme.model.Base#version'));
  assert.ok(edges.includes('ctorCall com.acme.model.Special#<init>()'));
  assert.ok(edges.includes('call com.acme.model.Special#helper()'));
  const file = index.allFiles().find((x) => x.path.endsWith('Special.java'))!;
  assert.deepEqual(file.resolution!.unresolved.map((u) => u.name), ['missing']);
});

test('extends, implements and reverse edges (callers)', async () => {
  const index = await indexFixture(fixture(LIB));
  const order = index.allFiles().find((x) => x.path.endsWith('Order.java'))!;
  const structural = order.resolution!.edges.toArray().filter((e) => e.kind === 'extends' || e.kind === 'implements').map((e) => `${e.kind} ${e.to}`);
  assert.deepEqual(structural, ['extends com.acme.model.Base']);
  const callers = index.edgesTo('com.acme.model.Order#<init>(String)').map((e) => e.from);
  assert.deepEqual(callers.sort(), ['com.acme.model.Order#<init>()', 'com.acme.model.Order.Builder#build()']);
});

test('declarations: kinds, Javadoc, modifiers, parameters, name and full ranges', async () => {
  const index = await indexFixture(fixture(LIB));
  const texts = index.symbol('com.acme.util.Texts')!;
  assert.equal(texts.sym.kind, 'class');
  assert.equal(texts.sym.javadoc, 'Text helpers.');
  assert.deepEqual(texts.sym.nameSpan, { sl: 2, sc: 19, el: 2, ec: 24 });
  assert.equal(texts.sym.span.sl, 2);
  assert.equal(texts.sym.span.el, 8);
  const join = index.symbol('com.acme.util.Texts#join(String,String[])')!;
  assert.equal(join.sym.varargs, true);
  assert.deepEqual(join.sym.params, [{ name: 'sep', type: 'String' }, { name: 'parts', type: 'String[]' }]);
  assert.equal(join.sym.returnType, 'String');
  assert.deepEqual(join.sym.modifiers, ['public', 'static']);
  assert.equal(index.symbol('com.acme.model.Order.Status#CLOSED')!.sym.kind, 'enumConstant');
  assert.equal(index.symbol('com.acme.model.Line')!.sym.kind, 'record');
  assert.equal(index.symbol('com.acme.model.Line#sku')!.sym.kind, 'field');
});

test('broken code: what parses is indexed, nothing throws', async () => {
  const f = fixture({
    ...LIB,
    'src/com/acme/app/Broken.java': `package com.acme.app;
import com.acme.util.Texts;
class Broken {
  void a() { Texts.pad("x", 1); }
  void b( { if (x > ) }
  void c() { Texts.isBlank("y"); }
`,
  });
  const index = await indexFixture(f);
  const file = index.allFiles().find((x) => x.path.endsWith('Broken.java'))!;
  assert.equal(file.facts.hasErrors, true);
  const edges = edgesOf(index, 'com.acme.app.Broken');
  assert.ok(edges.includes('call com.acme.util.Texts#pad(String,int)'));
  assert.ok(edges.includes('call com.acme.util.Texts#isBlank(CharSequence)'));
});

test('member types inherited from JDK supertypes shadow same-package types, as javac has it (JLS 8.5, 6.4.1)', async () => {
  // javac: in P, AbortPolicy is ThreadPoolExecutor.AbortPolicy and in T, State is Thread.State, so
  // neither p.foo() nor s.foo() reaches the workspace classes; ThreadGroup has no member State.
  const fx = fixture({
    'src/a/AbortPolicy.java': 'package a;\npublic class AbortPolicy { public void foo() {} }',
    'src/a/State.java': 'package a;\npublic class State { public void foo() {} }',
    'src/a/P.java': 'package a;\nimport java.util.concurrent.*;\npublic class P extends ThreadPoolExecutor {\n  P() { super(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>()); }\n  void m(AbortPolicy p) { p.foo(); }\n}',
    'src/a/T.java': 'package a;\npublic class T extends Thread {\n  void m(State s) { s.foo(); }\n}',
    'src/a/Q.java': 'package a;\npublic class Q extends ThreadGroup {\n  Q() { super("q"); }\n  void m(State s) { s.foo(); }\n}',
  });
  const index = await indexFixture(fx);
  const calls = (from: string) => edgesOf(index, from).filter((e) => e.startsWith('call '));
  assert.deepEqual(calls('a.P#m'), []);
  assert.deepEqual(calls('a.T#m'), []);
  assert.deepEqual(calls('a.Q#m'), ['call a.State#foo()']);
});

// A type's supertypes are named from its own scope, so resolving them walks its own hierarchy while
// the list is still being filled. That walk reads the list as far as it is (B, before I is known),
// and later walks read it complete: the memoised walk orders must keep both readings.
test('supertypes named through their own scope: the partial walk is recorded and later walks see all supertypes', async () => {
  const f = fixture({
    'src/p/A.java': 'package p;\nclass A extends B implements I {\n  void f() { m(); }\n}',
    'src/p/B.java': 'package p;\nclass B {}',
    'src/p/I.java': 'package p;\ninterface I { default void m() {} }',
  });
  const index = await indexFixture(f);
  const looked = index.file(join(f.root, 'src/p/A.java'))!.resolution!.memberLookups;
  // Naming I looked it up as a member type of A and, through the partial list [B], of B.
  assert.ok(looked.includes(memberLookupKey('B', 'I')), 'I looked up as a member type of B');
  assert.ok(looked.includes(memberLookupKey('A', 'I')));
  assert.deepEqual(edgesOf(index, 'p.A#f'), ['call p.I#m()']);
});
