// Maven discovery against a local repository written by the test: parents, properties,
// dependencyManagement, scopes, nearest-wins, exclusions, cycles and missing artifacts.
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { defaultDependencySettings, discoverDependencies, expandGlob } from '../../server/src/deps/discover';
import { coordinatesText } from '../../server/src/deps/types';
import { tempDir } from '../helpers/tempDir';

interface Art { g: string; a: string; v: string; deps?: string; parent?: string; extra?: string; jar?: boolean; sources?: boolean }

const dep = (g: string, a: string, v?: string, more = '') => `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId>${v ? `<version>${v}</version>` : ''}${more}</dependency>`;

function publish(repo: string, art: Art): void {
  const dir = join(repo, ...art.g.split('.'), art.a, art.v);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${art.a}-${art.v}.pom`), `<project>${art.parent ?? ''}<groupId>${art.g}</groupId><artifactId>${art.a}</artifactId><version>${art.v}</version>${art.extra ?? ''}<dependencies>${art.deps ?? ''}</dependencies></project>`);
  if (art.jar !== false) writeFileSync(join(dir, `${art.a}-${art.v}.jar`), 'PK');
  if (art.sources) writeFileSync(join(dir, `${art.a}-${art.v}-sources.jar`), 'PK');
}

function settingsFor(repo: string) {
  return { ...defaultDependencySettings(), mavenRepositories: [repo] };
}

test('resolves parents, properties, management, scopes and the transitive closure nearest-first', () => {
  const repo = tempDir('needle-deps-');
  const ws = tempDir('needle-deps-');
  // The corporate parent in the repository manages versions; the module parent sits at ../pom.xml.
  publish(repo, { g: 'com.acme', a: 'acme-parent', v: '7', jar: false, extra: `<properties><guava.version>31.1</guava.version></properties><dependencyManagement><dependencies>${dep('com.google.guava', 'guava', '${guava.version}')}${dep('com.acme.platform', 'ledger', '2.0.0')}</dependencies></dependencyManagement>` });
  publish(repo, { g: 'com.acme.platform', a: 'ledger', v: '2.0.0', sources: true, deps: dep('com.acme.platform', 'money', '1.0') + dep('org.slf4j', 'slf4j-api', '1.7.36') + dep('com.acme.platform', 'ledger-test-kit', '2.0.0', '<scope>test</scope>') + dep('com.acme.platform', 'opt', '1', '<optional>true</optional>') });
  publish(repo, { g: 'com.acme.platform', a: 'money', v: '1.0', deps: dep('com.acme.platform', 'ledger', '2.0.0') + dep('com.google.guava', 'guava', '20.0') });
  publish(repo, { g: 'com.acme.platform', a: 'money', v: '0.9' });
  publish(repo, { g: 'org.slf4j', a: 'slf4j-api', v: '1.7.36' });
  publish(repo, { g: 'com.google.guava', a: 'guava', v: '31.1', deps: dep('com.google.guava', 'failureaccess', '1.0.1') });
  publish(repo, { g: 'com.google.guava', a: 'failureaccess', v: '1.0.1' });
  publish(repo, { g: 'junit', a: 'junit', v: '4.13.2' });
  writeFileSync(join(ws, 'pom.xml'), `<project><parent><groupId>com.acme</groupId><artifactId>acme-parent</artifactId><version>7</version><relativePath/></parent>
    <artifactId>services</artifactId><version>3.1.0</version><packaging>pom</packaging><properties><money.version>0.9</money.version></properties></project>`);
  mkdirSync(join(ws, 'billing'));
  writeFileSync(join(ws, 'billing', 'pom.xml'), `<project><parent><groupId>com.acme</groupId><artifactId>services</artifactId><version>3.1.0</version></parent>
    <artifactId>billing</artifactId>
    <dependencies>
      ${dep('com.acme.platform', 'ledger', undefined, '<exclusions><exclusion><groupId>org.slf4j</groupId><artifactId>*</artifactId></exclusion></exclusions>')}
      ${dep('com.acme.platform', 'money', '${money.version}')}
      ${dep('com.google.guava', 'guava')}
      ${dep('com.acme', 'services-api', '${project.version}')}
      ${dep('junit', 'junit', '4.13.2', '<scope>test</scope>')}
    </dependencies></project>`);
  const d = discoverDependencies(join(ws, 'billing'), settingsFor(repo));
  const byArtifact = new Map(d.dependencies.map((x) => [x.coordinates!.artifactId, x]));
  assert.deepEqual(d.projectGroups, ['com.acme']);
  const ledger = byArtifact.get('ledger')!;
  assert.equal(coordinatesText(ledger.coordinates!), 'com.acme.platform:ledger:2.0.0', 'version from the grandparent\'s management');
  assert.ok(ledger.jar?.endsWith('ledger-2.0.0.jar') && ledger.sourcesJar?.endsWith('ledger-2.0.0-sources.jar'));
  assert.equal(ledger.internal, true, 'com.acme.platform shares the project\'s organisation prefix com.acme');
  assert.equal(byArtifact.get('money')!.coordinates!.version, '0.9', 'the direct declaration (a property of the parent) beats the transitive 1.0');
  assert.equal(byArtifact.get('guava')!.coordinates!.version, '31.1');
  assert.equal(byArtifact.get('guava')!.internal, false);
  assert.deepEqual(byArtifact.get('failureaccess')!.via, ['com.google.guava:guava:31.1']);
  assert.ok(!byArtifact.has('slf4j-api'), 'excluded below ledger');
  assert.ok(!byArtifact.has('ledger-test-kit') && !byArtifact.has('opt'), 'test-scoped and optional dependencies of dependencies are not followed');
  assert.match(byArtifact.get('junit')!.problem!, /test scope/);
  const api = byArtifact.get('services-api')!;
  assert.equal(api.coordinates!.version, '3.1.0', '${project.version} is the inherited version');
  assert.match(api.problem!, /missing artifact com\.acme:services-api:3\.1\.0: looked at .*services-api-3\.1\.0\.jar/);
  // money 0.9 has no dependencies; money 1.0's cycle back to ledger is never reached, nearest wins.
  assert.equal(d.dependencies.filter((x) => x.coordinates!.artifactId === 'money').length, 1);
});

test('a pom cycle, a missing parent and a dependency cycle are listed, and what can be resolved still is', () => {
  const repo = tempDir('needle-deps-');
  const ws = tempDir('needle-deps-');
  publish(repo, { g: 'x', a: 'a', v: '1', deps: dep('x', 'b', '1') });
  publish(repo, { g: 'x', a: 'b', v: '1', deps: dep('x', 'a', '1') });
  publish(repo, { g: 'loop', a: 'p', v: '1', parent: '<parent><groupId>loop</groupId><artifactId>q</artifactId><version>1</version></parent>' });
  publish(repo, { g: 'loop', a: 'q', v: '1', parent: '<parent><groupId>loop</groupId><artifactId>p</artifactId><version>1</version></parent>' });
  writeFileSync(join(ws, 'pom.xml'), `<project><parent><groupId>org.gone</groupId><artifactId>gone-parent</artifactId><version>1</version></parent>
    <groupId>org.app</groupId><artifactId>app</artifactId><version>1</version>
    <dependencies>${dep('x', 'a', '1')}${dep('loop', 'p', '1')}${dep('y', 'nover')}</dependencies></project>`);
  const d = discoverDependencies(ws, settingsFor(repo));
  const reasons = d.problems.map((p) => p.reason).join('\n');
  assert.match(reasons, /missing parent org\.gone:gone-parent:1: looked in \.\.\/pom\.xml and .*gone-parent-1\.pom/);
  assert.match(reasons, /parent cycle: .*p-1\.pom -> .*q-1\.pom -> .*p-1\.pom/);
  assert.match(reasons, /dependency cycle org\.app:app -> x:a -> x:b -> x:a/);
  const names = d.dependencies.map((x) => `${x.coordinates!.artifactId}${x.jar ? '' : ' (' + x.problem + ')'}`);
  assert.deepEqual(names.slice(0, 2), ['a', 'p']);
  assert.ok(names.includes('b'));
  assert.match(d.dependencies.find((x) => x.coordinates!.artifactId === 'nover')!.problem!, /no version for y:nover/);
});

test('lib/, .classpath, a Gradle classpath file and needle.dependencies globs; an unreadable folder is listed', (t) => {
  const ws = tempDir('needle-deps-');
  const gradle = tempDir('needle-deps-');
  const g = join(gradle, 'caches', 'modules-2', 'files-2.1', 'com.acme.platform', 'audit', '1.2');
  mkdirSync(join(g, 'aaa'), { recursive: true });
  mkdirSync(join(g, 'bbb'), { recursive: true });
  writeFileSync(join(g, 'aaa', 'audit-1.2.jar'), 'PK');
  writeFileSync(join(g, 'bbb', 'audit-1.2-sources.jar'), 'PK');
  mkdirSync(join(ws, 'lib'));
  writeFileSync(join(ws, 'lib', 'vendor.jar'), 'PK');
  writeFileSync(join(ws, 'lib', 'vendor-sources.jar'), 'PK');
  mkdirSync(join(ws, 'eclipse'));
  writeFileSync(join(ws, 'eclipse', 'e.jar'), 'PK');
  writeFileSync(join(ws, '.classpath'), '<classpath><classpathentry kind="src" path="src"/><classpathentry kind="lib" path="eclipse/e.jar"/><classpathentry kind="lib" path="eclipse/missing.jar"/></classpath>');
  writeFileSync(join(ws, 'needle-classpath.txt'), join(g, 'aaa', 'audit-1.2.jar') + '\n');
  mkdirSync(join(ws, 'third', 'x', 'y'), { recursive: true });
  writeFileSync(join(ws, 'third', 'x', 'y', 'deep.jar'), 'PK');
  const locked = join(ws, 'third', 'locked');
  mkdirSync(locked);
  chmodSync(locked, 0);
  t.after(() => chmodSync(locked, 0o755));
  const d = discoverDependencies(ws, { ...defaultDependencySettings(), dependencies: ['third/**/*.jar', 'nothing/*.jar'], internalGroups: ['com.acme'] });
  const row = (x: typeof d.dependencies[number]) => `${x.source} ${x.jar ?? x.problem}${x.sourcesJar ? ' +sources' : ''}${x.internal ? ' internal' : ''}`;
  const rows = d.dependencies.map(row);
  assert.ok(rows.includes(`gradle ${join(g, 'aaa', 'audit-1.2.jar')} +sources internal`), rows.join('\n'));
  assert.equal(d.dependencies.find((x) => x.source === 'gradle')!.coordinates!.artifactId, 'audit');
  assert.ok(rows.includes(`lib ${join(ws, 'lib', 'vendor.jar')} +sources internal`));
  assert.ok(rows.includes(`eclipse ${join(ws, 'eclipse', 'e.jar')} internal`));
  assert.ok(rows.some((r) => r.startsWith('eclipse missing jar') && r.includes('missing.jar')));
  assert.ok(rows.includes(`setting ${join(ws, 'third', 'x', 'y', 'deep.jar')} internal`));
  const reasons = d.problems.map((p) => `${p.path}: ${p.reason}`);
  assert.ok(reasons.some((r) => r.startsWith('nothing/*.jar') && r.includes('matches no jar')));
  if (process.getuid?.() !== 0) assert.ok(reasons.some((r) => r.startsWith(locked) && r.includes('unreadable folder')), reasons.join('\n'));
  assert.deepEqual(expandGlob(join(ws, 'lib'), []), [join(ws, 'lib', 'vendor.jar')]);
});

test('an unreadable repository folder is listed as skipped with its reason', () => {
  const ws = tempDir('needle-deps-');
  writeFileSync(join(ws, 'pom.xml'), `<project><groupId>a</groupId><artifactId>b</artifactId><version>1</version></project>`);
  // A repository setting that names a file, and (when permissions bind us: not as root) a folder we may not read.
  const notFolder = join(ws, 'pom.xml');
  const locked = tempDir('needle-deps-');
  chmodSync(locked, 0);
  try {
    const d = discoverDependencies(ws, { ...defaultDependencySettings(), mavenRepositories: [notFolder, locked] });
    assert.ok(d.problems.some((p) => p.path === notFolder && p.reason === 'not a folder'));
    if (process.getuid?.() !== 0) assert.ok(d.problems.some((p) => p.path === locked && /unreadable repository folder \(EACCES\)/.test(p.reason)));
  } finally {
    chmodSync(locked, 0o755);
  }
});

test('with the mvn setting, `mvn -o dependency:build-classpath` is asked; when it cannot answer offline the poms are read and that is listed', (t) => {
  const mvn = (process.env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, 'mvn')));
  if (!mvn) {
    if (process.env.CI) assert.fail('mvn is needed (Debian package maven)');
    return t.skip('mvn is not on PATH (Debian package maven)');
  }
  const repo = tempDir('needle-deps-');
  const ws = tempDir('needle-deps-');
  publish(repo, { g: 'com.acme.platform', a: 'ledger', v: '1.0' });
  writeFileSync(join(ws, 'pom.xml'), `<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>svc</artifactId><version>1</version><dependencies>${dep('com.acme.platform', 'ledger', '1.0')}</dependencies></project>`);
  const d = discoverDependencies(ws, { ...settingsFor(repo), useMavenCommand: true });
  const ledger = d.dependencies.find((x) => x.coordinates?.artifactId === 'ledger');
  assert.ok(ledger, JSON.stringify(d));
  assert.ok(ledger.jar?.endsWith('ledger-1.0.jar'), JSON.stringify(d));
  // An empty local repository has no dependency plugin, so offline Maven fails and says so; else it answered.
  if (ledger.source === 'maven') assert.ok(d.problems.some((p) => /mvn -o dependency:build-classpath failed .*the poms were read instead/.test(p.reason)), JSON.stringify(d.problems));
  else assert.equal(ledger.source, 'mvn');
});
