// The benchmark's ground-truth oracle (bench/oracle/RefOracle.java via bench/oracle/oracle.mjs) on
// the fixture test/fixtures/oracle: every reference kind, with exact 0-based positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers/repoRoot';
import { JDK, requires } from '../helpers/prerequisites';

const NEEDS_JDK = requires(JDK);

interface Body { startLine: number; startCol: number; endLine: number; endCol: number; startOffset: number; endOffset: number }
interface Decl { kind: string; name: string; owner: string; qualified: string; file: string; line: number; col: number; modifiers: string[]; body?: Body }
interface Ref { kind: string; name: string; file: string; line: number; col: number; from: string; target: string }
interface Import { kind: string; name: string; file: string; line: number; col: number; target: string }
interface Pkg { name: string; file: string; line: number; col: number; endLine: number; endCol: number }
interface OracleOutput {
  sourceRoot: string; errors: number; files: string[]; declarations: Decl[]; references: Ref[]; imports: Import[]; packages: Pkg[];
}


const root = repoRoot();
const fixture = join(root, 'test', 'fixtures', 'oracle');

let cached: Promise<OracleOutput> | undefined;
function oracle(): Promise<OracleOutput> {
  cached ??= (async () => {
    NEEDS_JDK.assertPresent();
    const mod = await import(pathToFileURL(join(root, 'bench', 'oracle', 'oracle.mjs')).href);
    const out: string = await mod.runOracle(fixture, { cacheDir: join(root, '.cache'), quiet: true });
    return JSON.parse(readFileSync(out, 'utf8')) as OracleOutput;
  })();
  return cached;
}

function decl(o: OracleOutput, qualified: string): Decl {
  const found = o.declarations.filter((d) => d.qualified === qualified);
  assert.equal(found.length, 1, `one declaration ${qualified}`);
  return found[0];
}

function refsAt(o: OracleOutput, file: string, line: number, col: number): Ref[] {
  return o.references.filter((r) => r.file === `fx/${file}` && r.line === line && r.col === col);
}

/** The single reference at file:line:col, checked against the expected fields. */
function assertRef(o: OracleOutput, file: string, line: number, col: number, expected: Partial<Ref>) {
  const found = refsAt(o, file, line, col);
  assert.equal(found.length, 1, `one reference at ${file}:${line}:${col}, got ${JSON.stringify(found)}`);
  assert.deepEqual({ ...found[0], ...expected }, found[0]);
}

test('oracle: files, error tolerance, sorted output', { skip: NEEDS_JDK.skip }, async () => {
  const o = await oracle();
  assert.deepEqual(o.files, [
    'fx/Base.java', 'fx/Broken.java', 'fx/Color.java', 'fx/Impl.java', 'fx/Marker.java',
    'fx/Outer.java', 'fx/Pair.java', 'fx/Point.java', 'fx/Problem.java', 'fx/Shape.java',
  ]);
  // Broken.java imports a missing package: 2 errors, yet its code is attributed.
  assert.equal(o.errors, 2);
  assertRef(o, 'Broken.java', 9, 25, { kind: 'field', name: 'RED', from: 'fx.Broken#go()', target: 'fx.Color#RED' });
  // sorted by file then position
  const key = (x: { file: string; line: number; col: number }) => [x.file, x.line, x.col] as const;
  for (const list of [o.declarations, o.references] as { file: string; line: number; col: number }[][]) {
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [key(list[i - 1]), key(list[i])];
      assert.ok(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] <= b[2]))), `sorted at ${i}`);
    }
  }
});

test('oracle: declarations at the name identifier', { skip: NEEDS_JDK.skip }, async () => {
  const o = await oracle();
  // javadoc, annotation and a line break before `extends`
  assert.deepEqual(decl(o, 'fx.Impl'), {
    kind: 'class', name: 'Impl', owner: '', qualified: 'fx.Impl', file: 'fx/Impl.java', line: 10, col: 13, modifiers: ['public'],
  });
  // two annotations and modifiers on their own lines before the name
  assert.deepEqual(decl(o, 'fx.Impl#area()'), {
    kind: 'method', name: 'area', owner: 'fx.Impl', qualified: 'fx.Impl#area()', file: 'fx/Impl.java', line: 33, col: 11, modifiers: ['public'],
    body: { startLine: 33, startCol: 18, endLine: 35, endCol: 5, startOffset: 582, endOffset: 611 },
  });
  const text = readFileSync(join(fixture, 'fx', 'Impl.java'), 'utf8');
  const area = decl(o, 'fx.Impl#area()').body!;
  assert.equal(text.slice(area.startOffset, area.endOffset), '{\n        return count;\n    }');
  // erased simple parameter types, varargs as arrays, type variables as their bound
  assert.equal(decl(o, 'fx.Base#util(String,int[])').line, 12);
  assert.equal(decl(o, 'fx.Base#pick(Comparable,Comparable[],List)').col, 39);
  assert.equal(decl(o, 'fx.Base#first(Object[])').col, 17);
  // several declarators share a type
  assert.deepEqual([decl(o, 'fx.Impl#a').col, decl(o, 'fx.Impl#b').col], [8, 11]);
  assert.deepEqual(decl(o, 'fx.Outer.Inner'), {
    kind: 'class', name: 'Inner', owner: 'fx.Outer', qualified: 'fx.Outer.Inner', file: 'fx/Outer.java', line: 3, col: 24, modifiers: ['public', 'static'],
  });
  assert.deepEqual(decl(o, 'fx.Base#util(String,int[])').modifiers, ['public', 'static']);
  assert.deepEqual(decl(o, 'fx.Shape#area()').modifiers, ['public', 'abstract']);
  assert.equal(decl(o, 'fx.Marker').kind, 'annotation');
  assert.equal(decl(o, 'fx.Shape').kind, 'interface');
  assert.equal(decl(o, 'fx.Shape#area()').body, undefined);
  assert.deepEqual([decl(o, 'fx.Color').kind, decl(o, 'fx.Color#GREEN').kind, decl(o, 'fx.Color#GREEN').line], ['enum', 'enumConstant', 4]);
  assert.deepEqual([decl(o, 'fx.Point').kind, decl(o, 'fx.Point#x').kind, decl(o, 'fx.Point#x').col], ['record', 'recordComponent', 24]);
  // the compact canonical constructor is in source; Pair's implicit one is not
  assert.deepEqual([decl(o, 'fx.Point#Point(int,int)').line, decl(o, 'fx.Point#Point(int,int)').col], [3, 11]);
  assert.equal(o.declarations.filter((d) => d.qualified.startsWith('fx.Pair#Pair')).length, 0);
  // no declarations for implicit members, anonymous or local classes
  assert.equal(o.declarations.filter((d) => /values|valueOf|Local|toString|hashCode/.test(d.qualified)).length, 0);
  assert.equal(o.declarations.filter((d) => d.qualified === 'fx.Outer#Outer()').length, 0);
  assert.equal(o.declarations.filter((d) => d.qualified.startsWith('fx.Point#x(')).length, 0);
});

test('oracle: calls, constructor calls, method references', { skip: NEEDS_JDK.skip }, async () => {
  const o = await oracle();
  const from = 'fx.Impl#points(Point)';
  assertRef(o, 'Impl.java', 18, 8, { kind: 'call', name: 'util', from: 'fx.Impl', target: 'fx.Base#util(String,int[])' }); // static initializer
  assertRef(o, 'Broken.java', 10, 15, { kind: 'call', name: 'util', target: 'fx.Base#util(String,int[])' }); // static import
  assertRef(o, 'Broken.java', 10, 32, { kind: 'call', name: 'util', target: 'fx.Base#util(String,int[])' });
  assertRef(o, 'Impl.java', 22, 8, { kind: 'ctorCall', name: 'this', from: 'fx.Impl#Impl()', target: 'fx.Impl#Impl(int)' });
  assertRef(o, 'Impl.java', 26, 8, { kind: 'ctorCall', name: 'super', from: 'fx.Impl#Impl(int)', target: 'fx.Base#Base(int)' });
  assertRef(o, 'Color.java', 15, 8, { kind: 'ctorCall', name: 'this', from: 'fx.Color#Color()', target: 'fx.Color#Color(int)' });
  assert.equal(o.references.filter((r) => r.kind === 'ctorCall').length, 3, 'implicit super() calls are not references');
  assertRef(o, 'Impl.java', 39, 18, { kind: 'call', name: 'x', from, target: 'fx.Point#x' }); // implicit accessor
  assertRef(o, 'Impl.java', 39, 26, { kind: 'call', name: 'y', from, target: 'fx.Point#y()' }); // explicit accessor
  assertRef(o, 'Impl.java', 42, 18, { kind: 'call', name: 'hook', from, target: 'fx.Base#hook()' }); // super.hook()
  assertRef(o, 'Impl.java', 63, 12, { kind: 'call', name: 'name', from, target: 'fx.Impl#name()' }); // select split over lines
  assertRef(o, 'Impl.java', 49, 16, { kind: 'call', name: 'util', from, target: 'fx.Base#util(String,int[])' }); // in an anonymous class
  assertRef(o, 'Impl.java', 64, 27, { kind: 'call', name: 'util', from }); // in a lambda
  assertRef(o, 'Impl.java', 67, 16, { kind: 'call', name: 'hook', from }); // in a local class
  assertRef(o, 'Impl.java', 70, 1, { kind: 'call', name: 'util', from }); // after a tab: columns count chars
  assertRef(o, 'Impl.java', 71, 25, { kind: 'call', name: 'util', from }); // after a surrogate pair: UTF-16 columns
  assertRef(o, 'Impl.java', 73, 31, { kind: 'call', name: 'pick', target: 'fx.Base#pick(Comparable,Comparable[],List)' });
  assertRef(o, 'Impl.java', 74, 29, { kind: 'call', name: 'right', target: 'fx.Pair#right' });
  assertRef(o, 'Color.java', 7, 19, { kind: 'call', name: 'helper', from: 'fx.Color#GREEN', target: 'fx.Color#helper()' });
  assertRef(o, 'Shape.java', 6, 15, { kind: 'call', name: 'area', from: 'fx.Shape#big()', target: 'fx.Shape#area()' });
  assertRef(o, 'Impl.java', 45, 33, { kind: 'methodRef', name: 'new', from, target: 'fx.Impl#Impl()' });
  assertRef(o, 'Impl.java', 46, 44, { kind: 'methodRef', name: 'len', from, target: 'fx.Base#len(String)' });
});

test('oracle: instance creation', { skip: NEEDS_JDK.skip }, async () => {
  const o = await oracle();
  const from = 'fx.Impl#points(Point)';
  assertRef(o, 'Impl.java', 38, 22, { kind: 'new', name: 'Point', from, target: 'fx.Point#Point(int,int)' });
  assertRef(o, 'Impl.java', 72, 22, { kind: 'new', name: 'Pair', from, target: 'fx.Pair' }); // implicit canonical ctor
  assertRef(o, 'Impl.java', 13, 48, { kind: 'new', name: 'Inner', from: 'fx.Impl#inner', target: 'fx.Outer.Inner' });
  assertRef(o, 'Impl.java', 13, 42, { kind: 'type', name: 'Outer', from: 'fx.Impl#inner', target: 'fx.Outer' });
  assertRef(o, 'Impl.java', 52, 22, { kind: 'new', name: 'Base', from, target: 'fx.Base#Base(int)' }); // anonymous subclass
  assertRef(o, 'Impl.java', 54, 26, { kind: 'new', name: 'Outer', from, target: 'fx.Outer' }); // anonymous, implicit ctor
  assertRef(o, 'Impl.java', 55, 23, { kind: 'new', name: 'Shape', from, target: 'fx.Shape' }); // anonymous interface impl
  assertRef(o, 'Impl.java', 60, 27, { kind: 'new', name: 'Outer', from, target: 'fx.Outer' }); // default ctor
  assertRef(o, 'Impl.java', 60, 39, { kind: 'new', name: 'Deep', from, target: 'fx.Outer.Deep' }); // outer.new Deep()
  assertRef(o, 'Point.java', 12, 19, { kind: 'new', name: 'Point', from: 'fx.Point#origin()', target: 'fx.Point#Point(int,int)' });
  // enum constants with arguments are not written `new`: no reference
  assert.equal(refsAt(o, 'Color.java', 4, 4).length, 0);
  assert.equal(refsAt(o, 'Color.java', 10, 4).length, 0);
});

test('oracle: fields and types', { skip: NEEDS_JDK.skip }, async () => {
  const o = await oracle();
  const from = 'fx.Impl#points(Point)';
  assertRef(o, 'Impl.java', 9, 1, { kind: 'type', name: 'Marker', from: 'fx.Impl', target: 'fx.Marker' });
  assertRef(o, 'Impl.java', 11, 16, { kind: 'type', name: 'Base', from: 'fx.Impl', target: 'fx.Base' });
  assertRef(o, 'Impl.java', 11, 32, { kind: 'type', name: 'Shape', from: 'fx.Impl', target: 'fx.Shape' });
  assertRef(o, 'Impl.java', 12, 17, { kind: 'type', name: 'Color', from: 'fx.Impl#DEFAULT', target: 'fx.Color' });
  assertRef(o, 'Impl.java', 12, 33, { kind: 'type', name: 'Color', from: 'fx.Impl#DEFAULT', target: 'fx.Color' });
  assertRef(o, 'Impl.java', 12, 39, { kind: 'field', name: 'RED', from: 'fx.Impl#DEFAULT', target: 'fx.Color#RED' });
  assertRef(o, 'Impl.java', 15, 7, { kind: 'type', name: 'Outer', from: 'fx.Impl#full', target: 'fx.Outer' }); // fx.Outer.Inner
  assertRef(o, 'Impl.java', 15, 13, { kind: 'type', name: 'Inner', from: 'fx.Impl#full', target: 'fx.Outer.Inner' });
  assertRef(o, 'Impl.java', 27, 13, { kind: 'field', name: 'count', from: 'fx.Impl#Impl(int)', target: 'fx.Base#count' });
  assertRef(o, 'Impl.java', 31, 5, { kind: 'type', name: 'Marker', from: 'fx.Impl#area()', target: 'fx.Marker' });
  assertRef(o, 'Impl.java', 34, 15, { kind: 'field', name: 'count', from: 'fx.Impl#area()', target: 'fx.Base#count' });
  assertRef(o, 'Impl.java', 37, 9, { kind: 'type', name: 'Point', from, target: 'fx.Point' }); // generic argument
  assertRef(o, 'Impl.java', 37, 23, { kind: 'type', name: 'Point', from, target: 'fx.Point' }); // parameter
  assertRef(o, 'Impl.java', 37, 39, { kind: 'type', name: 'Problem', from, target: 'fx.Problem' }); // throws
  assertRef(o, 'Impl.java', 40, 20, { kind: 'type', name: 'Shape', from, target: 'fx.Shape' }); // cast
  assertRef(o, 'Impl.java', 41, 25, { kind: 'type', name: 'Impl', from, target: 'fx.Impl' }); // instanceof
  assertRef(o, 'Impl.java', 44, 21, { kind: 'type', name: 'Impl', from, target: 'fx.Impl' }); // class literal
  assertRef(o, 'Impl.java', 45, 27, { kind: 'type', name: 'Impl', from, target: 'fx.Impl' }); // Impl::new qualifier
  assertRef(o, 'Impl.java', 60, 8, { kind: 'type', name: 'Outer', from, target: 'fx.Outer' });
  assertRef(o, 'Impl.java', 60, 14, { kind: 'type', name: 'Deep', from, target: 'fx.Outer.Deep' });
  assertRef(o, 'Color.java', 32, 17, { kind: 'field', name: 'RED', from: 'fx.Color#describe(Color)', target: 'fx.Color#RED' }); // case label
  assertRef(o, 'Point.java', 8, 15, { kind: 'field', name: 'y', from: 'fx.Point#y()', target: 'fx.Point#y' }); // record field
  assertRef(o, 'Pair.java', 2, 25, { kind: 'type', name: 'Point', from: 'fx.Pair#right', target: 'fx.Point' }); // component type
  assertRef(o, 'Shape.java', 6, 24, { kind: 'type', name: 'Limits', from: 'fx.Shape#big()', target: 'fx.Shape.Limits' });
  assertRef(o, 'Shape.java', 6, 31, { kind: 'field', name: 'MAX', target: 'fx.Shape.Limits#MAX' });
  // one reference per `new` site, none in imports, none for the implicit enum-constant type
  assert.equal(refsAt(o, 'Impl.java', 38, 22).length, 1);
  assert.equal(o.references.filter((r) => r.file === 'fx/Broken.java' && r.line < 5).length, 0);
  assert.equal(o.references.filter((r) => r.file === 'fx/Color.java' && r.line < 11).length, 1); // helper() only
});

test('oracle: import declarations and package names', { skip: NEEDS_JDK.skip }, async () => {
  const o = await oracle();
  assert.deepEqual(o.imports, [
    { kind: 'type', name: 'Base', file: 'fx/Broken.java', line: 3, col: 17, target: 'fx.Base' },
    { kind: 'member', name: 'util', file: 'fx/Broken.java', line: 3, col: 22, target: 'fx.Base#util' },
  ]);
  // every package declaration, plus `import static fx.Base.util` and the qualified type `fx.Outer.Inner`;
  // not org.missing (no sources) nor java.util
  assert.equal(o.packages.length, 12);
  assert.deepEqual(o.packages.find((p) => p.file === 'fx/Impl.java' && p.line === 15),
    { name: 'fx', file: 'fx/Impl.java', line: 15, col: 4, endLine: 15, endCol: 6 });
  assert.deepEqual(o.packages.find((p) => p.file === 'fx/Broken.java' && p.line === 3),
    { name: 'fx', file: 'fx/Broken.java', line: 3, col: 14, endLine: 3, endCol: 16 });
  assert.deepEqual(o.packages.find((p) => p.file === 'fx/Pair.java'),
    { name: 'fx', file: 'fx/Pair.java', line: 0, col: 8, endLine: 0, endCol: 10 });
});
