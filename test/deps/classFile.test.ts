// The class-file reader and the stub writer against javac's output.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ACC, ClassFileError, readClassFile } from '../../server/src/deps/classFile';
import { stubSource } from '../../server/src/deps/stubs';
import { factsOfText } from '../../server/src/index/parseFile';
import { compile, jdkMissing } from '../helpers/jdk';

const SOURCES = {
  'com/acme/ledger/AuditLedger.java': `package com.acme.ledger;
import java.util.List;
import java.util.Map;
import java.io.IOException;
/** The platform ledger. */
@Deprecated
public class AuditLedger<E extends Comparable<E>> implements Iterable<E> {
  public static final int MAX_ENTRIES = 1000;
  public static final String CHANNEL = "ledger\\u00e9";
  public static final long LIMIT = 5L;
  protected List<? extends E> entries;
  private int secret;
  public AuditLedger(String name) {}
  public <K> Map<K, List<E>> group(java.util.function.Function<E, K> key) { return null; }
  public void record(String account, long amountCents, String... tags) throws IOException {}
  public java.util.Iterator<E> iterator() { return null; }
  private void hidden() {}
  public static class Entry { public final String id = "x"; public Entry(int n) {} }
  public class Cursor { public Cursor(int at) {} public E current() { return null; } }
  public enum Kind { CHARGE, CHARGEBACK; public boolean reversal() { return this == CHARGEBACK; } }
  public interface Listener { void onRecord(Entry e); default int priority() { return 0; } static Listener none() { return null; } }
}
`,
};

test('reads types, members, generic signatures, constants and inner classes from javac output', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const out = compile(SOURCES, ['-parameters']);
  const load = (name: string) => readClassFile(readFileSync(join(out, name + '.class')));
  const c = load('com/acme/ledger/AuditLedger');
  assert.equal(c.name, 'com/acme/ledger/AuditLedger');
  assert.equal(c.major, 61);
  assert.deepEqual(c.interfaces, ['java/lang/Iterable']);
  assert.equal(c.signature, '<E::Ljava/lang/Comparable<TE;>;>Ljava/lang/Object;Ljava/lang/Iterable<TE;>;');
  assert.deepEqual(c.annotations, ['java/lang/Deprecated']);
  const max = c.fields.find((f) => f.name === 'MAX_ENTRIES')!;
  assert.deepEqual(max.constant, { k: 'int', value: 1000 });
  assert.ok(max.access & ACC.STATIC && max.access & ACC.FINAL);
  assert.deepEqual(c.fields.find((f) => f.name === 'CHANNEL')!.constant, { k: 'string', value: 'ledger\u00e9' });
  const record = c.methods.find((m) => m.name === 'record')!;
  assert.equal(record.descriptor, '(Ljava/lang/String;J[Ljava/lang/String;)V');
  assert.deepEqual(record.exceptions, ['java/io/IOException']);
  assert.deepEqual(record.paramNames, ['account', 'amountCents', 'tags']);
  assert.ok(record.access & ACC.VARARGS);
  assert.deepEqual(c.innerClasses.filter((i) => i.outer === c.name).map((i) => i.simpleName).sort(), ['Cursor', 'Entry', 'Kind', 'Listener']);

  const stub = stubSource(c, (n) => load(n), 'ledger.jar');
  assert.match(stub, /public class AuditLedger<E extends Comparable<E>> implements Iterable<E> \{/);
  assert.match(stub, /public static final int MAX_ENTRIES = 1000;/);
  assert.match(stub, /public <K> Map<K, List<E>> group\(Function<E, K> key\);/);
  assert.match(stub, /public void record\(String account, long amountCents, String\.\.\. tags\) throws IOException;/);
  assert.match(stub, /protected List<\? extends E> entries;/);
  assert.doesNotMatch(stub, /secret|hidden/);
  assert.match(stub, /public Cursor\(int at\) \{\}/, 'the outer instance of an inner-class constructor is not a parameter');
  assert.match(stub, /public static enum Kind \{\s*CHARGE, CHARGEBACK;/);
  assert.match(stub, /default int priority\(\);/);

  // The stub is Java the index reads like workspace code.
  const facts = await factsOfText(stub);
  assert.equal(facts.hasErrors, false, stub);
  assert.equal(facts.package, 'com.acme.ledger');
  const ids = facts.symbols.map((s) => s.id);
  for (const id of ['com.acme.ledger.AuditLedger', 'com.acme.ledger.AuditLedger.Entry', 'com.acme.ledger.AuditLedger.Kind#CHARGEBACK', 'com.acme.ledger.AuditLedger.Listener#onRecord(Entry)']) {
    assert.ok(ids.includes(id), `${id} in ${ids.join(' ')}`);
  }
  const rec = facts.symbols.find((s) => s.name === 'record')!;
  assert.equal(rec.varargs, true);
  assert.deepEqual(rec.params?.map((p) => p.type), ['String', 'long', 'String[]'], 'as extraction reads a varargs parameter in source');
});

test('an unknown class-file version, a bad magic and a truncated file are refused with a reason', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const out = compile({ 'a/A.java': 'package a; public class A { public int x; }' });
  const bytes = readFileSync(join(out, 'a/A.class'));
  const future = Buffer.from(bytes);
  future.writeUInt16BE(99, 6);
  assert.throws(() => readClassFile(future), (e: Error) => e instanceof ClassFileError && /unknown class-file major version 99/.test(e.message));
  const bad = Buffer.from(bytes);
  bad.writeUInt32BE(0xdeadbeef, 0);
  assert.throws(() => readClassFile(bad), /bad magic/);
  assert.throws(() => readClassFile(bytes.subarray(0, bytes.length - 7)), ClassFileError);
  assert.equal(readClassFile(bytes).fields[0].name, 'x');
});
