// A public jar (here org.example's text library, outside the project's organisation) enters the
// dependency surface D̂(q) only when the method needs it: its written body calls it, its signature
// types it, its Javadoc names or links it. Then it is there with the low novelty of an API models
// know. A method that merely sits in a class importing it does not get it.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultDependencySettings } from '../../server/src/deps/discover';
import { dependencySurface } from '../../server/src/gate/surface';
import { Indexer } from '../../server/src/index/indexer';
import { compile, jarOf, jdkMissing } from '../helpers/jdk';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

const TEXT_LIBRARY = {
  'org/example/text/Slugs.java': `package org.example.text;

/** URL slugs. */
public final class Slugs {
  private Slugs() {}
  /** Lower-cases and hyphenates a title. */
  public static String slugify(String title) { return title.toLowerCase().replace(' ', '-'); }
}
`,
  'org/example/text/Wrapped.java': `package org.example.text;

/** Text wrapped at a width. */
public final class Wrapped {
  public Wrapped(String text, int width) {}
  public String text() { return ""; }
}
`,
};

const WORKSPACE = {
  'pom.xml': `<project><groupId>com.acme.blog</groupId><artifactId>blog</artifactId><version>1</version>
  <dependencies><dependency><groupId>org.example</groupId><artifactId>text</artifactId><version>1.0</version></dependency></dependencies></project>`,
  'src/main/java/com/acme/blog/Tags.java': `package com.acme.blog;

/** The blog's tag registry. */
public class Tags {
  /** Registers a tag. */
  public void register(String tag) {}
}
`,
  'src/main/java/com/acme/blog/Posts.java': `package com.acme.blog;

import org.example.text.Slugs;
import org.example.text.Wrapped;

public class Posts {
  private final Tags tags = new Tags();

  /** The post's address. */
  public String address(String title) {
    tags.register(title);
    return "/posts/" + Slugs.slugify(title);
  }

  /** The summary as a {@link Wrapped} text. */
  public Wrapped summary(String body) {
    return null;
  }

  /** Counts the words. */
  public int words(String body) {
    return 0;
  }
}
`,
};

async function indexed(internalGroups: string[]) {
  const repo = tempDir('needle-m2-');
  const dir = join(repo, 'org', 'example', 'text', '1.0');
  mkdirSync(dir, { recursive: true });
  jarOf(compile(TEXT_LIBRARY), join(dir, 'text-1.0.jar'));
  writeFileSync(join(dir, 'text-1.0.pom'), '<project><groupId>org.example</groupId><artifactId>text</artifactId><version>1.0</version></project>');
  const ws = writeFixture(WORKSPACE);
  const ix = new Indexer({ cacheDir: tempDir('needle-cache-'), dependencies: { ...defaultDependencySettings(), mavenRepositories: [repo], internalGroups } });
  await ix.addFolder(ws.root);
  const surfaceOf = (method: string) => {
    const ref = ix.index.symbol(method);
    assert.ok(ref, method);
    return dependencySurface(ix.index, ref);
  };
  return { ix, surfaceOf };
}

test('a public jar enters D̂(q) with low novelty where the method needs it, and stays out otherwise', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const { ix, surfaceOf } = await indexed([]);
  assert.equal(ix.status().dependencies?.find((d) => d.name === 'org.example:text:1.0')?.internal, false, 'org.example is not the organisation com.acme');
  // The same jar declared internal (needle.internalGroups): the comparison for novelty and for the routes.
  const asInternal = await indexed(['org.example']);

  // Written body: the public call is certain (p = 1) and marked external.
  const address = surfaceOf('com.acme.blog.Posts#address(String)');
  const slugify = address.find((e) => e.symbol.startsWith('org.example.text.Slugs#slugify'));
  assert.ok(slugify && address.some((e) => e.symbol.startsWith('com.acme.blog.Tags#register')), JSON.stringify(address.map((e) => e.symbol)));
  assert.equal(slugify.internal, false);
  assert.equal(slugify.written, true);
  assert.equal(slugify.weight, 1);
  const internalSlugify = asInternal.surfaceOf('com.acme.blog.Posts#address(String)').find((e) => e.symbol === slugify.symbol)!;
  assert.equal(internalSlugify.internal, true);
  assert.ok(slugify.novelty + 0.2 <= internalSlugify.novelty, `public ${slugify.novelty} well below internal ${internalSlugify.novelty}: models know a public API`);

  // Signature and Javadoc name the public type: it is on the surface.
  const summary = surfaceOf('com.acme.blog.Posts#summary(String)');
  const wrapped = summary.find((e) => e.symbol === 'org.example.text.Wrapped');
  assert.ok(wrapped, JSON.stringify(summary.map((e) => e.symbol)));
  assert.equal(wrapped.internal, false);

  // Nothing in words() asks for the text library: the class's imports bring in an internal jar, not a public one.
  const fromLibrary = (surface: { symbol: string }[]) => surface.filter((e) => e.symbol.startsWith('org.example.')).map((e) => e.symbol);
  assert.ok(fromLibrary(asInternal.surfaceOf('com.acme.blog.Posts#words(String)')).length > 0, 'internal: the imported types are guesses worth making');
  const words = surfaceOf('com.acme.blog.Posts#words(String)');
  assert.deepEqual(fromLibrary(words), []);
  assert.ok(words.every((e) => e.internal));
});
