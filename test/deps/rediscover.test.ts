// Dependencies are found again when a file discovery reads changes under the watcher (pom.xml,
// lib/*.jar, ...), not only when the folder is indexed again: the workspace's references to the
// jar resolve once the pom names it, and stop resolving when it goes.
import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultDependencySettings, isDependencyFile } from '../../server/src/deps/discover';
import { Indexer } from '../../server/src/index/indexer';
import { watchFolder } from '../../server/src/index/watcher';
import { compile, jarOf, jdkMissing } from '../helpers/jdk';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

const LIBRARY = {
  'com/acme/platform/audit/AuditTrail.java': `package com.acme.platform.audit;

/** The platform's audit trail. */
public interface AuditTrail {
  /** Appends an event for the account. */
  void append(String account, String event);
}
`,
};

const POM = `<project><groupId>com.acme.payments</groupId><artifactId>payments</artifactId><version>1</version>
  <dependencies><dependency><groupId>com.acme.platform</groupId><artifactId>audit</artifactId><version>1.0</version></dependency></dependencies></project>`;

const USER = `package com.acme.payments;

import com.acme.platform.audit.AuditTrail;

public class Refunds {
  private final AuditTrail trail;
  public Refunds(AuditTrail trail) { this.trail = trail; }
  public void refund(String account) { trail.append(account, "refund"); }
}
`;

async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('the files dependency discovery reads are the ones the watcher reports apart', () => {
  for (const p of ['pom.xml', 'api/pom.xml', 'a/b/pom.xml', '.classpath', 'needle-classpath.txt', 'build/needle-classpath.txt', 'lib/vendor.jar', 'lib/vendor-sources.jar']) {
    assert.equal(isDependencyFile(p.split('/')), true, p);
  }
  for (const p of ['src/Foo.java', 'lib/readme.txt', 'lib/sub/x.jar', 'sub/.classpath', 'build/other.txt', 'x.jar']) assert.equal(isDependencyFile(p.split('/')), false, p);
});

test('a pom.xml added, changed and deleted under the watcher re-discovers the dependencies', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const repo = tempDir('needle-m2-');
  const dir = join(repo, 'com', 'acme', 'platform', 'audit', '1.0');
  mkdirSync(dir, { recursive: true });
  jarOf(compile(LIBRARY), join(dir, 'audit-1.0.jar'));
  writeFileSync(join(dir, 'audit-1.0.pom'), '<project><groupId>com.acme.platform</groupId><artifactId>audit</artifactId><version>1.0</version></project>');

  const ws = writeFixture({ 'src/main/java/com/acme/payments/Refunds.java': USER });
  const ix = new Indexer({ cacheDir: tempDir('needle-cache-'), dependencies: { ...defaultDependencySettings(), mavenRepositories: [repo] } });
  const events: string[] = [];
  let work = Promise.resolve();
  const watcher = watchFolder(ws.root, {
    changed: () => undefined, deleted: () => undefined,
    dependencyFile: (p) => { events.push(p); work = work.then(() => ix.dependencyFileChanged(p)); },
  });
  t.after(() => watcher.close());
  await new Promise<void>((r) => { watcher.once('ready', () => r()); setTimeout(r, 10_000).unref(); });
  await ix.addFolder(ws.root);
  const refunds = join(ws.root, 'src/main/java/com/acme/payments/Refunds.java');
  const callResolved = () => (ix.index.file(refunds)?.resolution?.edges.toArray() ?? []).some((e) => e.kind === 'call' && e.to.startsWith('com.acme.platform.audit.AuditTrail#append'));
  assert.equal(callResolved(), false, 'no pom yet: the call reaches nothing');
  assert.deepEqual(ix.status().dependencies ?? [], []);

  writeFileSync(join(ws.root, 'pom.xml'), POM);
  await until('the pom event', () => events.length > 0);
  await until('the dependency to load', () => { void work; return ix.status().dependencies?.some((d) => d.name === 'com.acme.platform:audit:1.0' && d.typesLoaded > 0) === true; });
  await work;
  assert.ok(callResolved(), JSON.stringify(ix.index.file(refunds)?.resolution?.edges));

  // A version that is not in the repository: listed with what was looked for, the jar's types leave.
  writeFileSync(join(ws.root, 'pom.xml'), POM.replace('<version>1.0</version></dependency>', '<version>9.9</version></dependency>'));
  await until('the missing artifact', () => ix.status().dependencies?.some((d) => d.name === 'com.acme.platform:audit:9.9' && /missing artifact/.test(d.problem ?? '')) === true);
  await work;
  assert.equal(callResolved(), false);

  rmSync(join(ws.root, 'pom.xml'));
  await until('the dependencies to go', () => (ix.status().dependencies ?? []).length === 0);
  await work;
  assert.equal(callResolved(), false);
});
