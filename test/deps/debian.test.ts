// The real case: a small Maven project using commons-lang3 and commons-text, resolved against
// Debian's local Maven repository /usr/share/maven-repo (packages libcommons-lang3-java and
// libcommons-text-java). Public libraries: their calls resolve and check_code knows them, but
// they stay out of the dependency surface. The with-sources path builds a -sources.jar from the
// commons-lang3 corpus (upstream sources of the same Debian version).
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, symlinkSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkAt } from '../../server/src/check/service';
import { defaultDependencySettings } from '../../server/src/deps/discover';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../../server/src/service';
import { jarOf, jdkMissing } from '../helpers/jdk';
import { file, requires } from '../helpers/prerequisites';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

const DEBIAN_REPO = '/usr/share/maven-repo';
const LANG3 = join(DEBIAN_REPO, 'org/apache/commons/commons-lang3/3.12.0');
const TEXT = join(DEBIAN_REPO, 'org/apache/commons/commons-text/1.10.0');
const CORPUS = join(process.cwd(), '.cache/corpora/commons-lang3/src/main/java');
const corpus = requires(file('the commons-lang3 corpus (upstream sources)', 'node bench/corpora/fetch.mjs commons-lang3', CORPUS));

function debianMissing(): string | undefined {
  if (existsSync(join(LANG3, 'commons-lang3-3.12.0.jar')) && existsSync(join(TEXT, 'commons-text-1.10.0.jar'))) return undefined;
  const msg = `needs Debian's Maven repository with commons-lang3 3.12.0 and commons-text 1.10.0 (apt-get install libcommons-lang3-java libcommons-text-java)`;
  if (process.env.CI) throw new Error(msg);
  return msg;
}

const PROJECT = {
  'pom.xml': `<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example.greeter</groupId>
  <artifactId>greeter</artifactId>
  <version>0.1.0</version>
  <properties><lang3.version>3.12.0</lang3.version></properties>
  <dependencies>
    <dependency><groupId>org.apache.commons</groupId><artifactId>commons-text</artifactId><version>1.10.0</version></dependency>
    <dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>\${lang3.version}</version></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
  </dependencies>
</project>
`,
  'src/main/java/org/example/greeter/Greeter.java': `package org.example.greeter;

import org.apache.commons.lang3.StringUtils;
import org.apache.commons.text.WordUtils;
import org.apache.commons.text.StringSubstitutor;
import java.util.Map;

public class Greeter {
  /** A greeting for a name, capitalized, with a fallback for blank names. */
  public String greet(String name) {
    String who = StringUtils.isBlank(name) ? "stranger" : WordUtils.capitalizeFully(StringUtils.trim(name));
    return new StringSubstitutor(Map.of("who", who)).replace("Hello, \${who}!");
  }

  public String shout(String name) {
    $0
  }
}
`,
};

async function indexProject(repos: string[]) {
  const ws = writeFixture(PROJECT);
  const ix = new Indexer({ cacheDir: tempDir('needle-cache-'), dependencies: { ...defaultDependencySettings(), mavenRepositories: repos } });
  const started = performance.now();
  await ix.addFolder(ws.root);
  return { ws, ix, ms: performance.now() - started };
}

test('commons-lang3 and commons-text from /usr/share/maven-repo resolve, stay out of the surface, and check_code knows them', async (t) => {
  const skip = debianMissing();
  if (skip) return t.skip(skip);
  const { ws, ix, ms } = await indexProject([DEBIAN_REPO]);
  const deps = ix.status().dependencies ?? [];
  const byName = new Map(deps.map((d) => [d.name, d]));
  const lang3 = byName.get('org.apache.commons:commons-lang3:3.12.0');
  const text = byName.get('org.apache.commons:commons-text:1.10.0');
  assert.ok(lang3 && text, JSON.stringify(deps, null, 1));
  assert.equal(lang3.internal, false);
  assert.equal(text.internal, false);
  assert.equal(lang3.jar, join(LANG3, 'commons-lang3-3.12.0.jar'));
  assert.ok(lang3.typesLoaded >= 1 && text.typesLoaded >= 2);
  assert.match(byName.get('junit:junit:4.13.2')?.problem ?? '', /test scope/);
  const file = ix.index.file(join(ws.root, 'src/main/java/org/example/greeter/Greeter.java'))!;
  const targets = new Set(file.resolution!.edges.toArray().map((e) => e.to));
  for (const id of ['org.apache.commons.lang3.StringUtils#isBlank(CharSequence)', 'org.apache.commons.lang3.StringUtils#trim(String)', 'org.apache.commons.text.WordUtils#capitalizeFully(String)', 'org.apache.commons.text.StringSubstitutor']) {
    assert.ok(targets.has(id), `${id} resolved (edges: ${[...targets].filter((x) => x.startsWith('org.apache')).join(', ')})`);
  }
  const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(ws.cursor!.path) }, position: ws.cursor! }, defaultSettings());
  assert.ok(!r.dependencySurface.some((e) => e.symbol.startsWith('org.apache.commons')), 'public libraries stay out of the surface');
  const path = ws.cursor!.path;
  const ok = await checkAt(ix, { path, code: 'public String shout(String name) {\n    return StringUtils.upperCase(WordUtils.capitalize(name));\n  }' }, { vetWithRetrieval: false });
  assert.deepEqual(ok.findings.filter((f) => f.code !== 'unused-surface'), []);
  const bad = await checkAt(ix, { path, code: 'public String shout(String name) {\n    return StringUtils.toUpperCaseAll(name);\n  }' }, { vetWithRetrieval: false });
  assert.ok(bad.findings.some((f) => /toUpperCaseAll/.test(f.message)), JSON.stringify(bad.findings));
  const types = deps.reduce((n, d) => n + d.typesLoaded, 0);
  t.diagnostic(`${deps.filter((d) => d.jar).length} jars, ${types} types loaded, index ${Math.round(ms)} ms, dependency load ${Math.round(ix.dependencyLoad!.ms)} ms, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
});

test('with a -sources.jar built from the upstream sources, commons-lang3 is read as source, Javadoc included', async (t) => {
  const skip = debianMissing() ?? jdkMissing();
  if (skip) return t.skip(skip);
  // The upstream sources come from Debian's source package, which .ci/run fetches: outside CI a
  // missing corpus skips this part, with CI set it fails.
  if (corpus.skip) return t.skip(corpus.skip);
  corpus.assertPresent();
  // A local repository of our own holding commons-lang3 with sources; Debian's serves the rest.
  const repo = tempDir('needle-m2-');
  const dir = join(repo, 'org/apache/commons/commons-lang3/3.12.0');
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(LANG3, 'commons-lang3-3.12.0.jar'), join(dir, 'commons-lang3-3.12.0.jar'));
  copyFileSync(join(LANG3, 'commons-lang3-3.12.0.pom'), join(dir, 'commons-lang3-3.12.0.pom'));
  jarOf(CORPUS, join(dir, 'commons-lang3-3.12.0-sources.jar'));
  const { ws, ix } = await indexProject([repo, DEBIAN_REPO]);
  const lang3 = ix.status().dependencies!.find((d) => d.name === 'org.apache.commons:commons-lang3:3.12.0')!;
  assert.equal(lang3.sourcesFound, true);
  const isBlank = ix.index.symbol('org.apache.commons.lang3.StringUtils#isBlank(CharSequence)')!;
  assert.match(isBlank.sym.javadoc ?? '', /Checks if a CharSequence is empty/);
  assert.deepEqual(ix.index.libraryOf(isBlank.file.path), { dependency: 'org.apache.commons:commons-lang3:3.12.0', internal: false, fromSources: true });
  const edges = ix.index.file(join(ws.root, 'src/main/java/org/example/greeter/Greeter.java'))!.resolution!.edges.toArray().map((e) => e.to);
  assert.ok(edges.includes('org.apache.commons.lang3.StringUtils#isBlank(CharSequence)'));
});
