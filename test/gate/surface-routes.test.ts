// The surface's routes for what no other route reaches: what the same method of a sibling subclass
// uses (cousin-use), and members of the types in reach named like the method's intent
// (named-member), and the supertype members its other subclasses use (super-member-use). Each is
// checked on a fixture where it must fire and one where it must not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { surfaceCandidates, type Route } from '../../server/src/gate/surface';
import { buildIndex, targetAt } from './helpers';

const BASE = '/ws/src/com/acme/jar/SignerTask.java';
const SIGN = '/ws/src/com/acme/jar/SignJar.java';
const VERIFY = '/ws/src/com/acme/jar/VerifyJar.java';
const PAGE = '/ws/src/com/acme/web/Page.java';
const VIEW = '/ws/src/com/acme/web/PageView.java';

const FILES: Record<string, string> = {
  [BASE]: `package com.acme.jar;

public abstract class SignerTask {
  protected boolean hasResources() { return true; }
  protected String sourcePath() { return ""; }
  protected void log(String m) { }
  protected int unrelated() { return 0; }
  public abstract void execute();
}
`,
  [SIGN]: `package com.acme.jar;

public class SignJar extends SignerTask {
  public void execute() {
    if (!hasResources()) return;
    log(sourcePath());
  }
}
`,
  [VERIFY]: `package com.acme.jar;

public class VerifyJar extends SignerTask {
  public void execute() {
  }

  public void verify(int times) {
  }
}
`,
  [PAGE]: `package com.acme.web;

public class Page {
  public String title() { return ""; }
  public String footerText() { return ""; }
  public int getTitleLength() { return 0; }
  public void reset() { }
}
`,
  [VIEW]: `package com.acme.web;

public class PageView {
  private Page page;

  /** Renders the heading of the page. */
  public String renderTitle() {
  }
}
`,
};

function routesOf(cands: ReturnType<typeof surfaceCandidates>, id: string): Route[] {
  return (cands.find((c) => c.symbol === id)?.reasons ?? []).map((r) => r.route);
}

test('cousin-use: what the same method of a sibling subclass uses enters the surface; another method of the class gets none of it', async () => {
  const index = await buildIndex(FILES);
  const cands = surfaceCandidates(index, targetAt(index, VERIFY, 3, 4));
  for (const id of ['com.acme.jar.SignerTask#hasResources()', 'com.acme.jar.SignerTask#sourcePath()', 'com.acme.jar.SignerTask#log(String)']) {
    assert.ok(routesOf(cands, id).includes('cousin-use'), `${id} by cousin-use`);
  }
  assert.ok(!routesOf(cands, 'com.acme.jar.SignerTask#unrelated()').includes('cousin-use'), 'SignJar#execute does not use unrelated()');
  // verify(int) has no namesake in a sibling subclass: no cousin evidence at all.
  const other = surfaceCandidates(index, targetAt(index, VERIFY, 6, 4));
  assert.ok(other.every((c) => !c.reasons.some((r) => r.route === 'cousin-use')));
});

test('named-member: members of a field type named like the method (name, Javadoc) enter, weighted by the share of matching words', async () => {
  const index = await buildIndex(FILES);
  const cands = surfaceCandidates(index, targetAt(index, VIEW, 6, 4));
  const named = (id: string) => cands.find((c) => c.symbol === id)?.reasons.find((r) => r.route === 'named-member');
  // renderTitle + "Renders the heading of the page": title and getTitleLength match, footerText and reset do not.
  assert.ok(named('com.acme.web.Page#title()'), 'title() matches "title"');
  assert.equal(named('com.acme.web.Page#footerText()'), undefined);
  assert.equal(named('com.acme.web.Page#reset()'), undefined);
  // getTitleLength: "get" is a weak word; one of {title, length} matches, so half the weight of title().
  const partial = named('com.acme.web.Page#getTitleLength()');
  assert.ok(partial && partial.w < named('com.acme.web.Page#title()')!.w);
});

test('super-member-use: members of the supertype that its other subclasses use enter for any method of the class, by the share of those subclasses', async () => {
  const index = await buildIndex(FILES);
  // VerifyJar#renderTitle has no namesake anywhere (no cousin-use), yet SignJar, the other subclass of SignerTask, uses three of its members.
  const cands = surfaceCandidates(index, targetAt(index, VERIFY, 6, 4));
  const hint = (id: string) => cands.find((c) => c.symbol === id)?.reasons.find((r) => r.route === 'super-member-use');
  for (const id of ['com.acme.jar.SignerTask#hasResources()', 'com.acme.jar.SignerTask#sourcePath()', 'com.acme.jar.SignerTask#log(String)']) {
    assert.equal(hint(id)?.w, 0.3, `${id}: 1 of 1 other subclass uses it, 0.6 × 1 / (1 + 1)`);
  }
  assert.equal(hint('com.acme.jar.SignerTask#unrelated()'), undefined, 'no other subclass uses unrelated()');
  // SignJar's own surface: VerifyJar, the only other subclass, uses nothing of SignerTask.
  const sign = surfaceCandidates(index, targetAt(index, SIGN, 3, 4));
  assert.ok(sign.every((c) => !c.reasons.some((r) => r.route === 'super-member-use')));
});

test('collaborator-api: the common API of the method\'s own signature types enters though no other member of the class uses them', async () => {
  const index = await buildIndex({
    '/ws/src/com/acme/pay/Money.java': 'package com.acme.pay;\n\npublic class Money {\n  public Money plus(Money o) { return this; }\n  public int cents() { return 0; }\n  public void rare() { }\n}\n',
    '/ws/src/com/acme/pay/Ledger.java': 'package com.acme.pay;\n\npublic class Ledger {\n  int total(Money a, Money b) { return a.plus(b).cents(); }\n}\n',
    '/ws/src/com/acme/pay/Pricing.java': 'package com.acme.pay;\n\npublic class Pricing {\n  Money discount(Money m) {\n  }\n\n  int rate() { return 1; }\n}\n',
  });
  const cands = surfaceCandidates(index, targetAt(index, '/ws/src/com/acme/pay/Pricing.java', 3, 4));
  for (const id of ['com.acme.pay.Money#plus(Money)', 'com.acme.pay.Money#cents()']) assert.ok(routesOf(cands, id).includes('collaborator-api'), id);
  assert.ok(!routesOf(cands, 'com.acme.pay.Money#rare()').includes('collaborator-api'), 'nothing uses rare()');
});
