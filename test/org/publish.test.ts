// needle publish into the embedded engine (PGlite): schema, facts, vetting, incremental writes,
// a newer schema refused, and the org recall source answering a retrieval in another workspace.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Indexer } from '../../server/src/index/indexer';
import { openOrgDb, type OrgDb } from '../../server/src/org/db';
import { DIGEST_FORMAT } from '../../server/src/org/facts';
import { publishRepository } from '../../server/src/org/publish';
import { closeOrgConnections, connectOrgIndex, orgQueryOf, orgRecall } from '../../server/src/org/recall';
import { SchemaTooNewError } from '../../server/src/org/schema';
import { renderContext } from '../../server/src/render/markdown';
import { defaultSettings, retrieveAt, uriOfPath } from '../../server/src/service';
import { writeFixture, type Fixture } from '../helpers/workspace';
import { orgFixtures } from './fixtures';
import { tempDir } from '../helpers/tempDir';

const SECRET = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';

describe('org index on PGlite', () => {
  const dbDir = tempDir('needle-org-');
  const fx = orgFixtures(SECRET);
  let db: OrgDb;
  let keysRepo: Fixture;
  const publish = (root: string, name: string, golden = false) => publishRepository(db, root, { cacheDir: null, name, golden, commit: `c-${name}` });

  before(async () => { db = await openOrgDb(dbDir); });
  after(async () => { await db.close().catch(() => {}); await closeOrgConnections(); });

  it('publishes declarations, usages and chunks of every file type, with secrets redacted', async () => {
    const r = await publish(fx.platform.root, 'platform');
    assert.equal(r.changed, r.files);
    assert.ok(r.files >= 4, `files ${r.files}`);
    const plus = await db.query<{ signature: string; summary: string; path: string }>(`SELECT signature, summary, path FROM needle.decls WHERE member_key = $1`, ['com.acme.platform.Money#plus']);
    assert.equal(plus.rows.length, 1);
    assert.match(plus.rows[0].signature, /public Money plus\(Money other\)/);
    assert.equal(plus.rows[0].summary, 'Adds two amounts of the same currency.');
    assert.equal(plus.rows[0].path, 'src/com/acme/platform/Money.java');
    const kinds = (await db.query<{ kind: string }>(`SELECT DISTINCT kind FROM needle.chunks ORDER BY kind`)).rows.map((x) => x.kind);
    assert.ok(kinds.includes('method') && kinds.includes('endpoint') && kinds.includes('properties'), kinds.join(','));
    const edge = await db.query(`SELECT 1 FROM needle.usages WHERE target = $1 AND NOT is_foreign`, ['com.acme.platform.Money#plus(Money)']);
    assert.ok(edge.rows.length >= 1, 'the internal call of plus is a resolved usage');
    // Nothing that left the machine holds the secret, in any text column.
    for (const [table, col] of [['needle.chunks', 'text'], ['needle.chunks', 'header'], ['needle.decls', 'signature'], ['needle.usages', 'site'], ['needle.files', 'text']]) {
      const leak = await db.query(`SELECT 1 FROM ${table} WHERE strpos(${col}, $1) > 0`, [SECRET]);
      assert.equal(leak.rows.length, 0, `${table}.${col} holds the secret`);
    }
    const redacted = await db.query<{ flags: string[] }>(`SELECT flags FROM needle.chunks WHERE path = $1`, ['config/payments.properties']);
    assert.ok(redacted.rows.some((x) => x.flags.includes('secret-redacted')));
  });

  it('a second publish of an unchanged repository writes nothing; one changed file rewrites one file', async () => {
    const xmin = async () => (await db.query<{ x: string }>(`SELECT string_agg(xmin::text, ',' ORDER BY path) AS x FROM needle.files`)).rows[0].x;
    const before = await xmin();
    const again = await publish(fx.platform.root, 'platform');
    assert.deepEqual([again.changed, again.removed, again.metadataChanged, again.writeStatements, again.rowsWritten], [0, 0, false, 0, 0]);
    assert.equal(await xmin(), before, 'no row was rewritten');
    writeFileSync(join(fx.platform.root, 'src/com/acme/platform/Ledger.java'), fx.platform.files['src/com/acme/platform/Ledger.java'].replace('void record(', 'void book(Money m) {}\n  public void record('));
    const one = await publish(fx.platform.root, 'platform');
    assert.equal(one.changed, 1);
    assert.ok(one.rowsWritten > 0);
    // Renaming record changes Fees' resolution, not its text: Fees is rewritten too.
    const ledger = join(fx.platform.root, 'src/com/acme/platform/Ledger.java');
    writeFileSync(ledger, readFileSync(ledger, 'utf8').replace('public void record(', 'public void post('));
    const renamed = await publish(fx.platform.root, 'platform');
    assert.equal(renamed.changed, 2);
    const feeCalls = await db.query<{ target: string }>(`SELECT target FROM needle.usages WHERE path = $1 AND kind = 'call'`, ['src/com/acme/platform/Fees.java']);
    assert.deepEqual(feeCalls.rows, [], 'the call of the vanished record resolves to nothing');
    writeFileSync(ledger, readFileSync(ledger, 'utf8').replace('public void post(', 'public void record('));
    assert.equal((await publish(fx.platform.root, 'platform')).changed, 2);
  });

  it('redacts a secret in a Javadoc from every row that carries the Javadoc', async () => {
    keysRepo = writeFixture({
      'src/com/acme/keys/Gateway.java': `package com.acme.keys;\n\n/** Talks to the gateway with ${SECRET} as its key. */\npublic class Gateway {\n  /**\n   * Charges an amount.\n   * The test key is ${SECRET}; never log it.\n   */\n  public void charge(long cents) {}\n}\n`,
    });
    const r = await publish(keysRepo.root, 'keys');
    assert.equal(r.changed, r.files);
    const decls = await db.query<{ name: string; summary: string; description: string }>(`SELECT name, summary, description FROM needle.decls WHERE path = $1 ORDER BY line`, ['src/com/acme/keys/Gateway.java']);
    assert.deepEqual(decls.rows.map((d) => d.name), ['Gateway', 'charge']);
    assert.match(decls.rows[0].summary, /redacted/, 'the summary keeps the place of the redacted key');
    assert.match(decls.rows[1].description, /Charges an amount\. The test key is .*redacted.*never log it\./);
    for (const [table, col] of [['needle.decls', 'summary'], ['needle.decls', 'description'], ['needle.decls', 'signature'], ['needle.decls', 'tsv::text'], ['needle.chunks', 'text'], ['needle.chunks', 'header'], ['needle.chunk_terms', 'tsv::text'], ['needle.files', 'text']]) {
      const leak = await db.query(`SELECT 1 FROM ${table} WHERE repo_id = (SELECT id FROM needle.repos WHERE name = 'keys') AND strpos(lower(${col}), lower($1)) > 0`, [SECRET]);
      assert.equal(leak.rows.length, 0, `${table}.${col} holds the Javadoc's secret`);
    }
  });

  it('rewrites once, and then never, a file whose digest an older Needle wrote', async () => {
    const keys = `(SELECT id FROM needle.repos WHERE name = 'keys')`;
    const digests = (await db.query<{ digest: string }>(`SELECT digest FROM needle.files WHERE repo_id = ${keys}`)).rows;
    assert.ok(digests.length > 0 && digests.every((d) => d.digest.startsWith(`${DIGEST_FORMAT}:`)), 'every digest names its format');
    // An older Needle's rows: another source key (its code differs) and a bare hex digest over the rows' JSON.
    await db.query(`UPDATE needle.files SET source_key = 'older', digest = md5(path) WHERE repo_id = ${keys}`);
    const root = (await db.query<{ n: string }>(`SELECT count(*) AS n FROM needle.files WHERE repo_id = ${keys}`)).rows[0].n;
    const first = await publish(keysRepo.root, 'keys');
    assert.equal(first.changed, Number(root), 'a digest of the older format does not match');
    const again = await publish(keysRepo.root, 'keys');
    assert.deepEqual([again.changed, again.rowsWritten], [0, 0]);
  });

  it('refuses a schema written by a newer Needle before writing anything', async () => {
    await db.query(`INSERT INTO needle.schema_version (version, written_by) VALUES (99, 'future')`);
    const count = async () => (await db.query<{ n: string }>(`SELECT count(*) AS n FROM needle.repos`)).rows[0].n;
    const n = await count();
    const writes = db.writes.statements;
    await assert.rejects(publish(fx.billing.root, 'billing', true), (e: Error) => e instanceof SchemaTooNewError && /newer Needle/.test(e.message));
    assert.equal(db.writes.statements, writes);
    assert.equal(await count(), n);
    await db.query(`DELETE FROM needle.schema_version WHERE version = 99`);
  });

  it('answers a retrieval in another workspace with declarations, golden usage examples first, and chunks', async () => {
    await publish(fx.billing.root, 'billing', true);
    await publish(fx.reports.root, 'reports');
    await db.close(); // PGlite: one instance per folder; the recall source opens its own
    await connectOrgIndex(dbDir); // as the language server does at start-up: PGlite takes seconds to open
    const indexer = new Indexer({ cacheDir: null });
    await indexer.addFolder(fx.app.root);
    const cursor = fx.app.cursor!;
    const settings = { ...defaultSettings(), orgIndex: dbDir };
    const params = { textDocument: { uri: uriOfPath(cursor.path) }, position: { line: cursor.line, character: cursor.character } };
    const result = await retrieveAt(indexer, params, settings);
    const org = result.org!;
    assert.equal(org.skipped, undefined, org.skipped);
    const decl = org.items.find((i) => i.kind === 'declaration' && i.symbol === 'com.acme.platform.Money#plus(Money)');
    assert.ok(decl, JSON.stringify(org.items.map((i) => [i.kind, i.symbol])));
    assert.equal(decl.repository, 'platform');
    assert.equal(decl.commit, 'c-platform');
    const usages = org.items.filter((i) => i.kind === 'usage' && i.symbol === 'com.acme.platform.Money#plus');
    // The golden repository first, then the others by name (the platform's own internal call too).
    assert.deepEqual([...new Set(usages.map((u) => u.repository))], ['billing', 'platform', 'reports']);
    assert.match(usages[0].text, /plus\(/);
    assert.ok(org.repositories.includes('platform'), org.repositories.join(','));
    const chunk = org.items.find((i) => i.kind === 'chunk');
    assert.ok(chunk && org.repositories.includes(chunk.repository), 'a chunk from a prefiltered repository');
    assert.match(chunk.text, /Money|Ledger/);
    assert.ok(!result.items.some((i) => i.uri.includes('platform')), 'org items stay out of the local part');
    const md = renderContext(result, { roots: [fx.app.root] });
    assert.match(md, /## From other repositories \(organisation index\)[\s\S]*### declaration: platform@c-platform src\/com\/acme\/platform\/Money\.java:\d+/);
    assert.match(md, /### usage example: billing@c-billing \(golden\)/);
    // Deterministic: the same request, the same org part.
    const again = await retrieveAt(indexer, params, settings);
    assert.deepEqual(again.org!.items, org.items);
    assert.deepEqual(again.org!.repositories, org.repositories);
  });

  it('skips the org source, and says so, when the database is unreachable or the URL holds a password', async () => {
    const indexer = new Indexer({ cacheDir: null });
    await indexer.addFolder(fx.app.root);
    const cursor = fx.app.cursor!;
    const params = { textDocument: { uri: uriOfPath(cursor.path) }, position: { line: cursor.line, character: cursor.character } };
    const started = performance.now();
    const r = await retrieveAt(indexer, params, { ...defaultSettings(), orgIndex: 'postgres://needle@127.0.0.1:9/needle' });
    assert.ok(r.items.length > 0, 'the local context is still answered');
    assert.match(r.org!.skipped ?? '', /skipped/);
    assert.match(renderContext(r, { roots: [fx.app.root] }), /The org source was skipped: org index postgres:\/\/127\.0\.0\.1:9\/needle skipped/);
    assert.ok(performance.now() - started < 10_000);
    const q = orgQueryOf({ index: indexer.index, roots: [fx.app.root], textOf: (p) => indexer.textOf(p), openPaths: [], path: cursor.path, position: cursor, budgetTokens: 4000, mode: 'rcl', maxRounds: 0, threshold: 0.5 });
    const withPassword = await orgRecall(q, { target: 'postgres://needle:hunter2@127.0.0.1/needle', budgetTokens: 4000 });
    assert.match(withPassword.skipped ?? '', /must not contain a password.*PGPASSWORD/);
    assert.ok(!withPassword.skipped!.includes('hunter2'));
  });
});

