// Maven beyond one pom: a multi-module reactor (test/fixtures/maven/reactor), profiles active by
// default and by property, ~/.m2/settings.xml (localRepository, activeProfiles, profile
// properties), version ranges against the versions the local repository holds, and SNAPSHOTs
// present only under timestamped file names.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultDependencySettings, discoverDependencies, mavenUserSettings, repositoryCandidates } from '../../server/src/deps/discover';
import { compareVersions, parseVersionRange, pickVersion } from '../../server/src/deps/repository';
import { coordinatesText } from '../../server/src/deps/types';
import { repoRoot } from '../helpers/repoRoot';
import { tempDir } from '../helpers/tempDir';

const FIXTURES = join(repoRoot(), 'test', 'fixtures', 'maven');

/** A pom (and by default a jar) for g:a:v in the repository; `files` overrides the file base names. */
function publish(repo: string, g: string, a: string, v: string, files = [`${a}-${v}`], deps = ''): void {
  const dir = join(repo, ...g.split('.'), a, v);
  mkdirSync(dir, { recursive: true });
  for (const base of files) {
    writeFileSync(join(dir, `${base}.pom`), `<project><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version><dependencies>${deps}</dependencies></project>`);
    writeFileSync(join(dir, `${base}.jar`), 'PK');
  }
}

function fixtureRepository(): string {
  const repo = tempDir('needle-deps-');
  for (const v of ['0.9', '1.0', '1.5', '1.9-SNAPSHOT', '2.0']) publish(repo, 'com.acme.platform', 'ledger', v);
  for (const v of ['1.1', '1.2', '1.3']) publish(repo, 'com.acme.platform', 'money', v);
  // A SNAPSHOT fetched from a remote repository: only timestamped files.
  publish(repo, 'com.acme.platform', 'audit', '0.4-SNAPSHOT', ['audit-0.4-20240105.101500-3', 'audit-0.4-20240210.090000-1', 'audit-0.4-20240210.090000-2']);
  writeFileSync(join(repo, 'com', 'acme', 'platform', 'audit', '0.4-SNAPSHOT', 'audit-0.4-20240210.090000-2-sources.jar'), 'PK');
  for (const v of ['2.9', '3.0', '3.9', '3.10']) publish(repo, 'org.example', 'charts', v);
  for (const [a, v] of [['tools', '1.0'], ['jdbc-store', '5.1'], ['memory-store', '1.0'], ['fallback', '1.0']]) publish(repo, 'org.example', a, v);
  return repo;
}

test('Maven version order and ranges', () => {
  const sorted = ['1.0-alpha-1', '1.0-beta', '1.0-rc1', '1.0-SNAPSHOT', '1.0', '1.0-sp1', '1.0.1', '1.2', '1.10', '2'];
  assert.deepEqual([...sorted].reverse().sort(compareVersions), sorted);
  assert.equal(compareVersions('1.0', '1'), 0);
  assert.equal(compareVersions('1.0.0', '1-final'), 0);
  assert.deepEqual(parseVersionRange('[1.0,2.0)'), [{ lower: '1.0', lowerInclusive: true, upper: '2.0', upperInclusive: false }]);
  assert.deepEqual(parseVersionRange('[1.2]'), [{ lower: '1.2', lowerInclusive: true, upper: '1.2', upperInclusive: true }]);
  assert.equal(parseVersionRange('1.2'), undefined, 'a plain version is a soft requirement, not a range');
  assert.equal(parseVersionRange('[1.0,2.0'), undefined, 'malformed');
  const available = ['0.9', '1.0', '1.5', '1.9-SNAPSHOT', '2.0', '3.1', '3.4'];
  assert.equal(pickVersion(available, parseVersionRange('[1.0,2.0)')!), '1.5', 'the highest inside, SNAPSHOTs left out');
  assert.equal(pickVersion(available, parseVersionRange('(,1.0]')!), '1.0');
  assert.equal(pickVersion(available, parseVersionRange('(1.0,1.5)')!), undefined);
  assert.equal(pickVersion(available, parseVersionRange('[1.0,1.2),[3.0,3.2)')!), '3.1', 'a union of ranges');
  assert.equal(pickVersion(available, parseVersionRange('[1.9-SNAPSHOT,2.0)')!), '1.9-SNAPSHOT', 'a range that names a SNAPSHOT admits them');
});

test('settings.xml: localRepository with ${env.X}, activeProfiles and their properties; a malformed file is listed', () => {
  const repo = tempDir('needle-deps-');
  const user = mavenUserSettings(join(FIXTURES, 'home'), { NEEDLE_FIXTURE_REPO: repo });
  assert.equal(user.localRepository, repo);
  assert.deepEqual(user.activeProfiles, ['storage']);
  assert.equal(user.properties.get('shop.storage'), 'jdbc');
  assert.equal(repositoryCandidates(defaultDependencySettings(), user)[0], repo, 'localRepository replaces ~/.m2/repository');
  const none = mavenUserSettings(tempDir('needle-deps-'));
  assert.equal(none.localRepository, undefined);
  assert.equal(none.problem, undefined, 'no settings.xml is the normal case');
  const bad = tempDir('needle-deps-');
  mkdirSync(join(bad, '.m2'));
  writeFileSync(join(bad, '.m2', 'settings.xml'), '<notsettings/>');
  assert.match(mavenUserSettings(bad).problem!.reason, /no <settings> element/);
});

test('a reactor: sibling modules are workspace code, profiles by default and by property, ranges and timestamped SNAPSHOTs', () => {
  const ws = tempDir('needle-deps-');
  cpSync(join(FIXTURES, 'reactor'), ws, { recursive: true });
  const repo = fixtureRepository();
  const user = mavenUserSettings(join(FIXTURES, 'home'), { NEEDLE_FIXTURE_REPO: repo });
  const d = discoverDependencies(ws, defaultDependencySettings(), user);
  const by = new Map(d.dependencies.map((x) => [x.coordinates!.artifactId, x]));
  assert.deepEqual(d.projectGroups, ['com.acme.shop']);
  const api = by.get('shop-api')!;
  assert.equal(api.module, join(ws, 'api'), 'a dependency on a sibling module is the module\'s folder');
  assert.equal(api.problem, undefined, 'not a missing artifact');
  assert.equal(api.jar, undefined);
  assert.equal(api.coordinates!.version, '2.3.0');
  // The module's own dependencies come with it (money, declared by api, a [1.2] range).
  assert.equal(coordinatesText(by.get('money')!.coordinates!), 'com.acme.platform:money:1.2');
  assert.equal(by.get('ledger')!.coordinates!.version, '1.5', 'the managed range [1.0,2.0) picks the highest release the repository holds');
  assert.ok(by.get('ledger')!.jar!.startsWith(repo), 'from settings.xml\'s localRepository');
  assert.equal(by.get('charts')!.coordinates!.version, '3.10', '3.10 > 3.9');
  const audit = by.get('audit')!;
  assert.equal(audit.coordinates!.version, '0.4-SNAPSHOT');
  assert.ok(audit.jar!.endsWith('audit-0.4-20240210.090000-2.jar'), `newest timestamp and build: ${audit.jar}`);
  assert.ok(audit.sourcesJar!.endsWith('audit-0.4-20240210.090000-2-sources.jar'));
  assert.ok(by.get('tools')?.jar, 'the parent\'s activeByDefault profile is inherited by the modules');
  assert.ok(by.get('jdbc-store')?.jar, 'activated by the property settings.xml sets');
  assert.ok(!by.has('memory-store'), '!shop.storage does not hold');
  assert.ok(!by.has('fallback'), 'activeByDefault is off when another profile of the same pom is active');
  // Without the settings the property is absent: the negated profile turns on instead.
  const plain = discoverDependencies(ws, { ...defaultDependencySettings(), mavenRepositories: [repo] }, mavenUserSettings(tempDir('needle-deps-')));
  const names = new Set(plain.dependencies.map((x) => x.coordinates!.artifactId));
  assert.ok(names.has('memory-store') && !names.has('jdbc-store') && !names.has('fallback'));
});

test('a range nothing satisfies and a module that is not there are listed, not thrown', () => {
  const ws = tempDir('needle-deps-');
  const repo = tempDir('needle-deps-');
  publish(repo, 'org.example', 'charts', '2.9');
  writeFileSync(join(ws, 'pom.xml'), `<project><groupId>org.app</groupId><artifactId>app</artifactId><version>1</version>
    <modules><module>gone</module><module>../outside</module></modules>
    <dependencies><dependency><groupId>org.example</groupId><artifactId>charts</artifactId><version>[3.0,)</version></dependency></dependencies></project>`);
  const d = discoverDependencies(ws, { ...defaultDependencySettings(), mavenRepositories: [repo] }, mavenUserSettings(tempDir('needle-deps-')));
  assert.match(d.dependencies.find((x) => x.coordinates?.artifactId === 'charts')!.problem!, /no version of org\.example:charts in \[3\.0,\) in the local repositories \(available: 2\.9\)/);
  const reasons = d.problems.map((p) => p.reason).join('\n');
  assert.match(reasons, /module without a pom\.xml/);
  assert.match(reasons, /module outside the workspace folder/);
});
