// Each stage called directly on small inline workspaces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { buildQuery, parseTaskText } from '../../server/src/retrieval/query';
import { capPerTerm, diskHits, lexicalRecall, ripgrep, searchTexts } from '../../server/src/retrieval/recall/lexical';
import MiniSearch from 'minisearch';
import { descriptionDocuments, descriptionRecall, descriptionTable, MINISEARCH_OPTIONS } from '../../server/src/retrieval/recall/descriptions';
import { graphRecall } from '../../server/src/retrieval/recall/graph';
import { similarChunks, similarRecall } from '../../server/src/retrieval/recall/similar';
import { mergeCandidates } from '../../server/src/retrieval/merge';
import { rerank } from '../../server/src/retrieval/rerank';
import { addCandidate, EVIDENCE, type Candidate } from '../../server/src/retrieval/types';
import { MEMBER_COLUMNS, memberFeatures, needProbability } from '../../server/src/retrieval/memberModel';
import { weighCandidates } from '../../server/src/retrieval/pipeline';
import { chooseFolders } from '../../server/src/retrieval/repos';
import { factsOfText } from '../../server/src/index/parseFile';
import { fixture, SHOP } from './fixture';

test('query: task text yields identifiers, strings, errors, failing tests and paths', () => {
  const t = parseTaskText('OrderServiceTest.testTotal fails: java.lang.IllegalStateException: "no lines" in src/com/acme/order/OrderService.java, see applyLoyalty');
  assert.ok(t.queryIdentifiers.includes('applyLoyalty'));
  assert.ok(t.queryIdentifiers.includes('OrderServiceTest'));
  assert.deepEqual(t.tests[0], { type: 'OrderServiceTest', method: 'testTotal' });
  assert.ok(t.errors.includes('IllegalStateException'));
  assert.ok(t.strings.includes('no lines'));
  assert.ok(t.paths.includes('src/com/acme/order/OrderService.java'));
});

test('query: cursor member, signature types, Javadoc links, words and goal', async () => {
  const { req } = await fixture(SHOP);
  const q = buildQuery(req);
  assert.equal(q.member?.sym.id, 'com.acme.order.OrderService#total(List)');
  assert.equal(q.type?.sym.id, 'com.acme.order.OrderService');
  assert.deepEqual(q.signatureTypes, ['List', 'OrderLine', 'Money']);
  assert.ok(q.javadocNames.includes('applyLoyalty') && q.javadocNames.includes('Discounts'));
  assert.ok(q.words.includes('loyalty') && q.words.includes('total'));
  assert.match(q.goal, /OrderService\.total\(List<OrderLine>\)/);
});

test('lexical: ripgrep hits map to declarations; open documents are searched in memory', async () => {
  const { req, root } = await fixture(SHOP, { query: 'use AuditLog to record it' });
  const q = buildQuery(req);
  const hits = await ripgrep(['AuditLog'], [root]);
  assert.ok(hits.some((h) => h.path.endsWith('AuditLog.java')));
  const c = (await lexicalRecall(req, q, [root])).candidates;
  assert.ok(c.get('com.acme.audit.AuditLog')?.sources.includes('lexical'));
  // An open document whose text differs from disk: its disk copy is not searched, its text is.
  const audit = [...req.index.allFiles()].find((f) => f.path.endsWith('AuditLog.java'))!.path;
  writeFileSync(audit, 'package com.acme.audit;\nclass Gone {}\n');
  const mem = searchTexts(['AuditLog'], [{ path: audit, text: req.textOf(audit)! }]);
  assert.ok(mem.length > 0);
  const c2 = (await lexicalRecall({ ...req, openPaths: [audit] }, q, [root])).candidates;
  assert.ok(c2.get('com.acme.audit.AuditLog'));
});

test('lexical: searching only the files that hold a term gives the folder-wide search\'s hits', async () => {
  // 80 files mention Widget (more than the per-term cut), some only in a comment or a string;
  // a config file and a multi-word string term are searched folder-wide as before.
  const files: Record<string, string> = { 'a/Main.java': 'package a;\nclass Main {\n  void run() {$0}\n}\n', 'a/app.properties': 'widget.name=Widget\nlegacy.Gadget=1\n' };
  for (let i = 0; i < 80; i++) {
    const use = i % 3 === 0 ? '// a Widget here\n' : i % 3 === 1 ? 'String s = "Widget";\n' : 'Widget w;\nWidget v;\n';
    files[`p${i % 7}/W${i}.java`] = `package p${i % 7};\nclass W${i} {\n${use}${i % 10 === 0 ? 'Gadget g; // rare\n' : ''}}\n`;
  }
  const { req, root } = await fixture(files);
  const open = [root + '/p3/W3.java'];
  const terms = ['Widget', 'Gadget', 'Nowhere'];
  const wide = capPerTerm(await ripgrep(terms, [root], open));
  assert.ok(wide.filter((h) => h.term === 'Widget').length === 60 && wide.some((h) => h.path.endsWith('.properties')));
  assert.deepEqual(capPerTerm(await diskHits(req, terms, [root], open)), wide);
  // A term of several words is searched in the files holding each of its words; ripgrep reports
  // matches that do not overlap, so one search per kind of term may also report a word inside it
  // ("a Widget"). A term with no word at all ("//") is searched folder-wide.
  for (const several of [[...terms, 'a Widget', 'widget.name', 'String s'], [...terms, '//']]) {
    const mixed = capPerTerm(await diskHits(req, several, [root], open));
    const mixedWide = capPerTerm(await ripgrep(several, [root], open));
    for (const t of several.filter((t) => t !== 'Widget')) {
      assert.deepEqual(mixed.filter((h) => h.term === t), mixedWide.filter((h) => h.term === t), t);
      assert.ok(t === 'Nowhere' || mixedWide.some((h) => h.term === t), `${t} hits somewhere`);
    }
  }
  // Within one folder of several.
  assert.deepEqual(capPerTerm(await diskHits(req, terms, [root + '/p2'], [])), capPerTerm(await ripgrep(terms, [root + '/p2'])));
  // With the indexer's list of config files the folders are not walked: the same hits, and a
  // config file the list does not hold (not yet reported by the watcher) is not read.
  const several = [...terms, 'widget.name', 'String s'];
  const walked = capPerTerm(await diskHits(req, several, [root], open));
  assert.ok(walked.some((h) => h.path.endsWith('.properties') && h.term === 'widget.name'));
  const listed = { ...req, configFiles: [root + '/a/app.properties'] };
  assert.deepEqual(capPerTerm(await diskHits(listed, several, [root], open)), walked);
  const unlisted = capPerTerm(await diskHits({ ...req, configFiles: [] }, several, [root], open));
  assert.deepEqual(unlisted, capPerTerm((await diskHits(req, several, [root], open)).filter((h) => !h.path.endsWith('.properties'))));
});

test('lexical: config files hit by the task map to their chunks and join the items', async () => {
  const files = { ...SHOP, 'src/application.properties': '# shop\nshop.loyalty.rate=0.05\nshop.loyalty.enabled=true\n\nserver.port=8080\n' };
  const { req, root } = await fixture(files, { query: 'read "shop.loyalty.rate" from config' });
  const r = await lexicalRecall(req, buildQuery(req), [root]);
  assert.equal(r.config.length, 1);
  assert.ok(r.config[0].chunk.text.includes('shop.loyalty.rate=0.05'));
  const { retrieve } = await import('../../server/src/retrieval/pipeline');
  const res = await retrieve(req);
  assert.ok(res.items.some((i) => i.uri.endsWith('application.properties') && i.sources.includes('lexical')));
  assert.ok(res.tokens <= req.budgetTokens);
});

test('descriptions: description-to-description match, index cached per version', async () => {
  const { req } = await fixture(SHOP, { query: 'apply the loyalty discount' });
  const q = buildQuery(req);
  const a = descriptionTable(req.index);
  assert.equal(descriptionTable(req.index), a);
  const c = descriptionRecall(req.index, q);
  const top = [...c.values()].sort((x, y) => y.score - x.score)[0];
  assert.equal(top.id, 'com.acme.order.Discounts#applyLoyalty(Money)');
  // Incremental: a new file joins, an edited file is re-described, and the result equals a fresh build.
  req.index.put('/tmp/none/X.java', '/tmp/none', 'h', await factsOfText('/** Loyalty discount calculator. */\nclass LoyaltyDiscountX {}'));
  assert.equal(descriptionTable(req.index), a);
  assert.ok(descriptionRecall(req.index, q).has('LoyaltyDiscountX'));
  req.index.put('/tmp/none/X.java', '/tmp/none', 'h2', await factsOfText('class Other {}'));
  const incremental = [...descriptionRecall(req.index, q)].map(([id, c]) => [id, c.score]);
  assert.ok(!incremental.some(([id]) => id === 'LoyaltyDiscountX'));
  const fresh = await fixture(SHOP, { query: 'apply the loyalty discount' });
  fresh.req.index.put('/tmp/none/X.java', '/tmp/none', 'h2', await factsOfText('class Other {}'));
  assert.deepEqual([...descriptionRecall(fresh.req.index, buildQuery(fresh.req))].map(([id, c]) => [id, c.score]), incremental);
});

test('descriptions: ranks exactly as MiniSearch\'s OR search of the whole query', async () => {
  // The reference: MiniSearch itself, given the same documents and options as the compact table.
  // 90 declarations over a small vocabulary (many ties, more than MAX_RESULTS matches), in two
  // folders so some declarations are indexed twice.
  const vocab = ['order', 'line', 'total', 'discount', 'loyalty', 'price', 'money', 'apply', 'tax', 'cart'];
  const files: Record<string, string> = { 'a/Main.java': 'package a;\nclass Main {\n  void run() {$0}\n}\n' };
  for (let i = 0; i < 30; i++) {
    const w = (k: number) => vocab[(i * 7 + k * 3) % vocab.length];
    const body = `package p;\n/** The ${w(0)} ${w(1)} of a ${w(2)}. */\nclass C${i} {\n  /** Gets the ${w(3)} ${w(1)}. */\n  int ${w(4)}${w(0).replace(/^./, (c) => c.toUpperCase())}(int ${w(5)}) { return 0; }\n}\n`;
    files[`one/p/C${i}.java`] = body;
    if (i % 3 === 0) files[`two/p/C${i}.java`] = body;
  }
  const { req, root } = await fixture(files);
  const reference = (words: string[], folders?: string[]) => {
    const ms = new MiniSearch(MINISEARCH_OPTIONS);
    ms.addAll(descriptionDocuments(req.index));
    const raw = ms.search(words.join(' '))
      .map((r) => ({ id: String(r.id), sym: String(r.id).split('\0')[1], path: String(r.id).split('\0')[0], score: Math.round(r.score * 1e6) / 1e6 }))
      .filter((r) => !folders || folders.some((f) => r.path.startsWith(f)))
      .sort((a, b) => b.score - a.score || (a.sym < b.sym ? -1 : a.sym > b.sym ? 1 : a.id < b.id ? -1 : 1));
    const seen = new Set<string>();
    const best = raw.filter((r) => !seen.has(r.sym) && !!seen.add(r.sym)).slice(0, 40);
    return best.map((r) => [r.sym, r.score / best[0].score]);
  };
  const q = buildQuery(req);
  for (const words of [['loyalty'], ['order', 'total', 'price'], ['apply', 'discount', 'apply', 'money'], ['tax', 'cart', 'line', 'orderline', 'nothing']]) {
    for (const folders of [undefined, [root + '/one/']]) {
      const got = [...descriptionRecall(req.index, { ...q, member: undefined, words }, folders)].map(([id, c]) => [id, c.score]);
      assert.ok(got.length > 0);
      assert.deepEqual(got, reference(words, folders), words.join(' '));
    }
  }
});

test('graph: body references, overloads, signature-type members, Javadoc links', async () => {
  const { req } = await fixture({
    'a/Util.java': 'package a;\npublic class Util {\n  public static int twice(int x) { return 2 * x; }\n  public static int other() { return 0; }\n}\n',
    'a/Box.java': 'package a;\npublic class Box {\n  public int size() { return 1; }\n}\n',
    'a/Main.java': 'package a;\npublic class Main {\n  /** Uses {@link Util#other}. */\n  int run(Box b) {\n    int y = Util.twice(3);$0\n    return y;\n  }\n  int run(Box b, int k) { return Util.twice(k); }\n}\n',
  });
  const c = graphRecall(req, buildQuery(req));
  assert.ok(c.get('a.Util#twice(int)')!.reasons.includes('referenced in body'));
  assert.ok(c.get('a.Main#run(Box,int)')!.reasons.includes('overload'));
  assert.ok(c.get('a.Box#size()')!.reasons.some((r) => r.startsWith('member of Box')));
  assert.ok(c.get('a.Util#other()')!.reasons.some((r) => r.startsWith('linked in Javadoc')));
  assert.ok(!c.has('a.Main#run(Box)'));
  // What a candidate owes to its type alone is kept apart from evidence about itself.
  const size = c.get('a.Box#size()')!;
  assert.equal(size.membership, size.score, 'a signature type\'s member with nothing else: all membership');
  assert.ok(!c.get('a.Util#twice(int)')!.membership, 'a body reference owes nothing to its type');
  const overload = c.get('a.Main#run(Box,int)')!;
  assert.ok(overload.membership! > 0 && overload.membership! < overload.score, 'a same-class overload: membership and its own evidence');
});

test('graph: a declaration of another file that one member of the file uses joins by file popularity', async () => {
  const { req } = await fixture({
    'b/Used.java': 'package b;\npublic class Used {\n  public static int one() { return 1; }\n  public static int two() { return 2; }\n}\n',
    'a/Task.java': 'package a;\nimport b.Used;\npublic class Task {\n  int before() { return Used.one(); }\n  void execute() {\n    $0\n  }\n}\n',
  });
  const c = graphRecall(req, buildQuery(req));
  assert.ok(c.get('b.Used#one()')?.evidence?.popularity, 'used by one member of the file');
  assert.ok(!c.get('b.Used#two()')?.evidence?.popularity, 'not used in the file');
});

test('similar: BM25 over method chunks with the cursor method as query', async () => {
  const { req } = await fixture(SHOP, { position: { line: 19, character: 4 } });
  const q = buildQuery(req);
  assert.equal(q.member?.sym.name, 'lineTotal');
  const hits = similarChunks(req, q);
  assert.ok(hits.length > 0);
  assert.ok(!hits.some((h) => h.chunk.symbol === q.member!.sym.id));
  const c = similarRecall(req, q);
  assert.ok([...c.values()].every((x) => x.sources.join() === 'similar'));
  // The similar code itself weighs least; what it calls a little more (still below graph evidence).
  for (const h of hits) if (h.chunk.symbol && c.get(h.chunk.symbol)!.reasons.join() === 'similar code') assert.ok(c.get(h.chunk.symbol)!.score <= 0.3 + 1e-9);
  assert.ok([...c.values()].some((x) => x.reasons.includes('used by similar code')));
});

test('merge: one entry per symbol with united provenance; containment and access respected', async () => {
  const { req } = await fixture(SHOP);
  const q = buildQuery(req);
  const a = new Map<string, Candidate>(), b = new Map<string, Candidate>();
  addCandidate(a, 'com.acme.money.Money#plus(Money)', 1, 'graph');
  addCandidate(b, 'com.acme.money.Money#plus(Money)', 0.5, 'api');
  addCandidate(b, 'com.acme.order.OrderService#total(List)', 9, 'lexical'); // the cursor's own member
  addCandidate(b, 'com.acme.money.Money#cents', 2, 'api'); // private in another file
  addCandidate(b, 'does.not#exist', 2, 'api');
  const m = mergeCandidates(req.index, q, [a, b]);
  assert.equal(m.length, 1);
  assert.equal(m[0].score, 1.5);
  assert.deepEqual(m[0].sources, ['graph', 'api']);
  assert.equal(m[0].group, 'com.acme.money.Money');
});

test('member model inputs: routes and relations add up through merge, and each input is where MEMBER_COLUMNS names it', async () => {
  const { req } = await fixture(SHOP);
  const q = buildQuery(req);
  const a = new Map<string, Candidate>(), b = new Map<string, Candidate>();
  addCandidate(a, 'com.acme.money.Money#plus(Money)', 1, 'graph', 'member of Money', true, 'signatureMember');
  addCandidate(a, 'com.acme.money.Money#plus(Money)', 0.5, 'graph', 'used across the file', false, 'popularity');
  addCandidate(b, 'com.acme.money.Money#plus(Money)', 0.5, 'api', 'description match', false, 'description');
  const [m] = mergeCandidates(req.index, q, [a, b]);
  assert.deepEqual(m.routes, { graph: 1.5, api: 0.5 });
  assert.deepEqual(m.evidence, { signatureMember: 1, popularity: 0.5, description: 0.5 });
  const x = memberFeatures(m, { rank: 2, reference: 1, cursorPath: req.path, tokens: 9, groupCandidates: 3 });
  assert.equal(x.length, MEMBER_COLUMNS.length);
  const at = (c: (typeof MEMBER_COLUMNS)[number]) => x[MEMBER_COLUMNS.indexOf(c)];
  assert.equal(at('bias'), 1);
  assert.equal(at('membership share'), 0.5);
  assert.equal(at('graph share'), 0.75);
  assert.equal(at('api share'), 0.25);
  assert.equal(at('share of reference'), 2);
  assert.equal(at('log rank'), Math.log1p(2));
  assert.equal(at('log tokens'), Math.log1p(9));
  assert.equal(at('javadoc'), 1);
  assert.equal(at('same file'), 0);
  assert.deepEqual(EVIDENCE.filter((e) => at(`by ${e}`) === 1), ['popularity', 'signatureMember', 'description']);
  // Products of the interacting inputs follow the inputs, squares included; evidence flags have none.
  assert.equal(at('share of reference × log rank'), 2 * Math.log1p(2));
  assert.equal(at('log rank × log tokens'), Math.log1p(2) * Math.log1p(9));
  assert.equal(at('log tokens × log tokens'), Math.log1p(9) * Math.log1p(9));
  assert.equal(at('membership share × same file'), 0);
  assert.ok(!MEMBER_COLUMNS.some((c) => c.includes('×') && c.includes('by ')));
  assert.equal(new Set(MEMBER_COLUMNS).size, MEMBER_COLUMNS.length);
  // P(needed) follows the coefficients: only the popularity relation counts here.
  const beta = MEMBER_COLUMNS.map((c) => (c === 'by popularity' ? 2 : 0));
  assert.equal(needProbability(x, { value: 1, docValue: 1, columns: MEMBER_COLUMNS, beta }), 1 / (1 + Math.exp(-2)));
});

test('member model inputs: scores normalised per query and per type, rank within the type, the type ranked, its size, the name in the query', async () => {
  const { req } = await fixture(SHOP);
  const q = buildQuery(req);
  const a = new Map<string, Candidate>();
  addCandidate(a, 'com.acme.money.Money#plus(Money)', 4, 'graph');
  addCandidate(a, 'com.acme.order.Discounts#applyLoyalty(Money)', 3, 'graph');
  addCandidate(a, 'com.acme.money.Money#times(int)', 1, 'graph');
  addCandidate(a, 'com.acme.money.Money', 0.5, 'graph');
  addCandidate(a, 'com.acme.audit.AuditLog#record(String)', 0.4, 'graph');
  const ranked = mergeCandidates(req.index, q, [a]).sort((x, y) => y.score - x.score);
  const rows = new Map(weighCandidates(req, ranked, q).map((w) => [w.c.id, (c: (typeof MEMBER_COLUMNS)[number]) => w.x[MEMBER_COLUMNS.indexOf(c)]]));
  const times = rows.get('com.acme.money.Money#times(int)')!, plus = rows.get('com.acme.money.Money#plus(Money)')!;
  const loyalty = rows.get('com.acme.order.Discounts#applyLoyalty(Money)')!;
  assert.equal(times('share of top score'), 0.25);
  assert.equal(times('share of type best'), 0.25);
  assert.equal(loyalty('share of type best'), 1);
  assert.equal(plus('log rank in type'), 0);
  assert.equal(times('log rank in type'), Math.log1p(1));
  assert.equal(loyalty('log rank in type'), 0);
  assert.equal(times('type ranked'), 1, 'Money itself is a candidate');
  assert.equal(loyalty('type ranked'), 0, 'Discounts is not');
  // Money declares a field, a constructor and five methods; Discounts two methods.
  assert.ok(times('log type members') > loyalty('log type members'));
  // total's Javadoc speaks of the loyalty discount: applyLoyalty's name is half in the query.
  assert.ok(loyalty('name words in query') >= 0.5);
  assert.equal(times('name words in query'), 0);
  // Money is in total's signature and Discounts in its Javadoc link; AuditLog is neither.
  assert.equal(times('structural type'), 1);
  assert.equal(loyalty('structural type'), 1);
  assert.equal(rows.get('com.acme.audit.AuditLog#record(String)')?.('structural type'), 0);
});

test('member model inputs: what a like-named sibling of the cursor method uses (parseTag for parseAttribute), and nothing an unlike-named one uses', async () => {
  const { req } = await fixture({
    'p/Names.java': 'package p;\npublic class Names {\n  public static String tagName(String s) { return s; }\n  public static String other(String s) { return s; }\n}\n',
    'p/Parser.java': 'package p;\npublic class Parser {\n  String parseTag(String s) { return Names.tagName(s); }\n  String render(String s) { return Names.other(s); }\n  String parseAttribute(String s) {\n    $0\n  }\n}\n',
  });
  const q = buildQuery(req);
  const a = new Map<string, Candidate>();
  addCandidate(a, 'p.Names#tagName(String)', 1, 'graph');
  addCandidate(a, 'p.Names#other(String)', 1, 'graph');
  const rows = new Map(weighCandidates(req, mergeCandidates(req.index, q, [a]), q).map((w) => [w.c.id, w.x[MEMBER_COLUMNS.indexOf('used by like-named sibling')]]));
  assert.equal(rows.get('p.Names#tagName(String)'), 1);
  assert.equal(rows.get('p.Names#other(String)'), 0);
});

test('member model inputs: how many members of the cursor\'s file use a candidate (two use tagName, one other, none unused)', async () => {
  const { req } = await fixture({
    'p/Names.java': 'package p;\npublic class Names {\n  public static String tagName(String s) { return s; }\n  public static String other(String s) { return s; }\n  public static String unused(String s) { return s; }\n}\n',
    'p/Parser.java': 'package p;\npublic class Parser {\n  String a(String s) { return Names.tagName(s) + Names.tagName(s); }\n  String b(String s) { return Names.tagName(Names.other(s)); }\n  String c(String s) {\n    $0\n  }\n}\n',
  });
  const q = buildQuery(req);
  const a = new Map<string, Candidate>();
  for (const id of ['p.Names#tagName(String)', 'p.Names#other(String)', 'p.Names#unused(String)']) addCandidate(a, id, 1, 'graph');
  const rows = new Map(weighCandidates(req, mergeCandidates(req.index, q, [a]), q).map((w) => [w.c.id, w.x[MEMBER_COLUMNS.indexOf('log uses in file')]]));
  // Distinct members, not calls: a() calls tagName twice.
  assert.equal(rows.get('p.Names#tagName(String)'), Math.log1p(2));
  assert.equal(rows.get('p.Names#other(String)'), Math.log1p(1));
  assert.equal(rows.get('p.Names#unused(String)'), 0);
});

test('rerank: identifier matches outrank prose matches', async () => {
  const { req } = await fixture({
    'p/A.java': 'package p;\npublic class A {\n  /** Unrelated helper mentioning loyalty in prose. */\n  public void helper() {}\n  public void loyaltyPoints() {}\n}\n',
    'p/B.java': 'package p;\npublic class B {\n  /** Adds loyalty points. */\n  void award() { $0 }\n}\n',
  });
  const q = buildQuery(req);
  const cands = new Map<string, Candidate>();
  addCandidate(cands, 'p.A#helper()', 1, 'api');
  addCandidate(cands, 'p.A#loyaltyPoints()', 1, 'api');
  const r = rerank(mergeCandidates(req.index, q, [cands]), q);
  assert.equal(r[0].id, 'p.A#loyaltyPoints()');
});

test('repos: several roots narrow to the cursor folder and folders declaring the named symbols; golden preferred', async () => {
  const files = {
    'app/src/p/Main.java': 'package p;\nimport lib.Helper;\npublic class Main {\n  void run() { Helper.go();$0 }\n}\n',
    'lib/src/lib/Helper.java': 'package lib;\npublic class Helper { public static void go() {} }\n',
    'other/src/o/Noise.java': 'package o;\npublic class Noise { void x() {} }\n',
    'gold/src/g/Style.java': 'package g;\npublic class Style { void y() {} }\n',
  };
  const { req, root } = await fixture(files, {}, ['app', 'lib', 'other', 'gold']);
  const q = buildQuery(req);
  const chosen = chooseFolders(req, q);
  assert.deepEqual(chosen, [`${root}/app`, `${root}/lib`]);
  const withGold = chooseFolders({ ...req, goldenRoots: [`${root}/gold`] }, q);
  assert.ok(withGold.includes(`${root}/gold`));
  assert.ok(!withGold.includes(`${root}/other`));
});
