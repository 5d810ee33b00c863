// The organisation index on a real PostgreSQL server (Debian's postgresql): the two roles of the
// README, visibility enforced by row-level security, a reader's write refused by the server, and
// the faults of issue 18 (publisher or database killed mid-publish, database stopped during retrieval).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Indexer } from '../../server/src/index/indexer';
import { openOrgDb, type OrgDb } from '../../server/src/org/db';
import { copiedRows, publishRepository } from '../../server/src/org/publish';
import { closeOrgConnections, connectOrgIndex } from '../../server/src/org/recall';
import { declarationsNamed, searchChunks } from '../../server/src/org/search';
import { defaultSettings, retrieveAt, uriOfPath } from '../../server/src/service';
import { POSTGRES, startCluster, SUPERUSER, type PgCluster } from '../helpers/postgres';
import { requires } from '../helpers/prerequisites';
import { repoRoot } from '../helpers/repoRoot';
import { writeFixture } from '../helpers/workspace';
import { orgFixtures } from './fixtures';
import { tempDir } from '../helpers/tempDir';

const PG = requires(POSTGRES);

/** A repository big enough that its publish takes a while: `n` files of 30 documented methods each. */
function bigRepository(n: number): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const methods = Array.from({ length: 30 }, (_, m) => `  /** Computes value ${m} of part ${i}. */\n  public int value${m}(int x) {\n    return helper${m}(x) + ${m};\n  }\n  private int helper${m}(int x) { return x * ${i + 1}; }\n`).join('');
    files[`src/com/acme/big/Part${i}.java`] = `package com.acme.big;\n\npublic class Part${i} {\n${methods}}\n`;
  }
  return writeFixture(files).root;
}

/** Runs `needle publish` as its own process and kills what `kill` says the moment its transaction has written. */
async function publishAndKillMidway(cluster: PgCluster, root: string, name: string, kill: (child: ReturnType<typeof spawn>) => void): Promise<number | null> {
  const child = spawn(process.execPath, [join(repoRoot(), 'dist/cli.js'), 'publish', root, '--db', cluster.url('needle_publisher'), '--name', name, '--no-cache'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const watcher = await openOrgDb(cluster.url(SUPERUSER));
  try {
    for (;;) {
      // backend_xid is assigned at a transaction's first write: the publish is under way, not committed.
      const r = await watcher.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'needle publish' AND backend_xid IS NOT NULL`);
      if (r.rows.length) break;
      if (child.exitCode !== null) throw new Error('publish finished before it could be interrupted');
      await new Promise((res) => setTimeout(res, 5));
    }
  } finally {
    await watcher.close();
  }
  kill(child);
  return exited;
}

describe('org index on a PostgreSQL server', { skip: PG.skip }, () => {
  before(() => PG.assertPresent());
  let cluster: PgCluster;
  let admin: OrgDb;
  let publisher: OrgDb;
  const fx = orgFixtures('sk_live_4eC39HqLyjWDarjtT1zdp7dc');

  before(async () => {
    cluster = startCluster();
    // The two roles of the README: one that may create and write the schema, one that only reads.
    cluster.psql(`CREATE ROLE needle_publisher LOGIN; GRANT CREATE ON DATABASE needle TO needle_publisher;
      CREATE ROLE needle_reader LOGIN; CREATE ROLE payments_team; CREATE ROLE payments_dev LOGIN IN ROLE needle_reader, payments_team;`);
    admin = await openOrgDb(cluster.url(SUPERUSER));
    publisher = await openOrgDb(cluster.url('needle_publisher'));
  });
  after(async () => {
    await closeOrgConnections();
    await publisher?.close();
    await admin?.close();
    cluster?.destroy();
  });

  it('publishes with the publishing role; readers see public repositories and only the labels their roles may read', async () => {
    await publishRepository(publisher, fx.platform.root, { cacheDir: null, name: 'platform' });
    await publishRepository(publisher, fx.billing.root, { cacheDir: null, name: 'billing', visibility: 'payments' });
    // The README's grants, run by the publishing role (the schema's owner).
    await publisher.query(`GRANT USAGE ON SCHEMA needle TO needle_reader`);
    await publisher.query(`GRANT SELECT ON ALL TABLES IN SCHEMA needle TO needle_reader`);
    await publisher.query(`INSERT INTO needle.label_readers (label, reader) VALUES ($1, $2)`, ['payments', 'payments_team']);
    const reader = await openOrgDb(cluster.url('needle_reader'));
    const dev = await openOrgDb(cluster.url('payments_dev'));
    try {
      const repos = async (db: OrgDb) => (await db.query<{ name: string }>(`SELECT name FROM needle.repos ORDER BY name`)).rows.map((r) => r.name);
      assert.deepEqual(await repos(reader), ['platform']);
      assert.deepEqual(await repos(dev), ['billing', 'platform']);
      // Row-level security reaches the facts too, not only the repository rows.
      const usages = async (db: OrgDb) => (await db.query<{ n: string }>(`SELECT count(*) AS n FROM needle.usages u JOIN needle.files f USING (repo_id, path) WHERE f.path LIKE 'src/com/acme/invoices/%'`)).rows[0].n;
      assert.equal(await usages(reader), '0');
      assert.notEqual(await usages(dev), '0');
      // The index-backed searches (security-definer functions) apply the same rule, even when a
      // reader names the hidden repository's id itself.
      const ids = (await admin.query<{ id: number }>(`SELECT id FROM needle.repos ORDER BY id`)).rows.map((r) => r.id);
      const chunkRepos = async (db: OrgDb) => [...new Set((await searchChunks(db, ids, ['invoices', 'money'], 20)).map((c) => c.repo))].sort();
      assert.deepEqual(await chunkRepos(reader), ['platform']);
      assert.deepEqual(await chunkRepos(dev), ['billing', 'platform']);
      assert.deepEqual((await declarationsNamed(reader, 'Invoice', ids, 5)).map((d) => d.repo), []);
      assert.deepEqual((await declarationsNamed(dev, 'Invoice', ids, 5)).map((d) => d.symbol), ['com.acme.invoices.Invoices']);
      // A reader's write is refused by PostgreSQL itself.
      await assert.rejects(reader.query(`INSERT INTO needle.repos (name) VALUES ($1)`, ['intruder']), (e: Error & { code?: string }) => e.code === '42501');
      await assert.rejects(dev.query(`UPDATE needle.repos SET golden = true`), (e: Error & { code?: string }) => e.code === '42501');
      await assert.rejects(reader.query(`DELETE FROM needle.chunks`), (e: Error & { code?: string }) => e.code === '42501');
    } finally {
      await reader.close();
      await dev.close();
    }
  });

  it('a publisher killed mid-publish leaves no partial repository; the next publish completes', async () => {
    const root = bigRepository(80);
    const code = await publishAndKillMidway(cluster, root, 'big', (child) => child.kill('SIGKILL'));
    assert.notEqual(code, 0);
    // The server notices the lost connection and rolls the transaction back.
    for (let i = 0; i < 200; i++) {
      const open = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'needle publish'`);
      if (!open.rows.length) break;
      await new Promise((res) => setTimeout(res, 25));
    }
    assert.equal((await admin.query(`SELECT 1 FROM needle.repos WHERE name = 'big'`)).rows.length, 0);
    const r = await publishRepository(publisher, root, { cacheDir: null, name: 'big' });
    assert.equal(r.changed, 80);
    assert.equal((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM needle.files f JOIN needle.repos r ON r.id = f.repo_id WHERE r.name = 'big'`)).rows[0].n, '80');
  });

  it('a database killed mid-publish keeps no partial repository; after restart the next publish completes', async () => {
    const root = bigRepository(80);
    await closeOrgConnections();
    const code = await publishAndKillMidway(cluster, root, 'big2', () => cluster.stop('immediate'));
    assert.notEqual(code, 0, 'the publisher reports the failure');
    cluster.start();
    await admin.close();
    await publisher.close();
    admin = await openOrgDb(cluster.url(SUPERUSER));
    publisher = await openOrgDb(cluster.url('needle_publisher'));
    assert.equal((await admin.query(`SELECT 1 FROM needle.repos WHERE name = 'big2'`)).rows.length, 0);
    const r = await publishRepository(publisher, root, { cacheDir: null, name: 'big2' });
    assert.equal(r.changed, 80);
  });

  it('retrieval answers, saying the org source was skipped, while the database is down; then uses it again', async () => {
    const indexer = new Indexer({ cacheDir: null });
    await indexer.addFolder(fx.app.root);
    const cursor = fx.app.cursor!;
    const params = { textDocument: { uri: uriOfPath(cursor.path) }, position: { line: cursor.line, character: cursor.character } };
    const settings = { ...defaultSettings(), orgIndex: cluster.url('needle_reader') };
    await connectOrgIndex(settings.orgIndex);
    const up = await retrieveAt(indexer, params, settings);
    assert.equal(up.org!.skipped, undefined, up.org!.skipped);
    assert.ok(up.org!.items.some((i) => i.kind === 'declaration' && i.repository === 'platform'));
    cluster.stop('immediate');
    try {
      const down = await retrieveAt(indexer, params, settings);
      assert.ok(down.items.length > 0, 'the local context is answered');
      assert.match(down.org!.skipped ?? '', /skipped/);
      assert.deepEqual(down.org!.items, []);
    } finally {
      cluster.start();
    }
    let back = await retrieveAt(indexer, params, settings);
    // The first request after the restart may still be reconnecting in the background.
    for (let i = 0; i < 20 && back.org!.skipped; i++) {
      await new Promise((res) => setTimeout(res, 250));
      back = await retrieveAt(indexer, params, settings);
    }
    assert.equal(back.org!.skipped, undefined, back.org!.skipped);
    assert.deepEqual(back.org!.items, up.org!.items);
  });
  it("rows sent by COPY (a server) are the rows INSERT writes (PGlite), tabs, backslashes, NULLs and the server's own tsvectors included", async () => {
    const tricky = writeFixture({
      'src/com/acme/odd/Odd.java': `package com.acme.odd;\n\nimport java.util.List;\n\n/** Splits on\ttabs and \\\\ backslashes; see {@code a\\tb}. */\npublic class Odd {\n\tprivate static final String SEP = "\\t\\\\";\n\t/** The _1e5x and v2x_3y5 parts. */\n\tpublic String _1e5x(String s) {\n\t\treturn s.replace("\\\\", SEP) + "\\r";\n\t}\n}\n`,
      'config/odd.properties': `odd.path=C:\\\\temp\\\\x\nodd.tab=a\tb\n`,
    }).root;
    const folder = tempDir('needle-copy-');
    const server = await openOrgDb(cluster.url(SUPERUSER));
    const lite = await openOrgDb(folder);
    try {
      const copied = copiedRows.copied, inserted = copiedRows.inserted;
      for (const db of [server, lite]) {
        await db.query(`DROP SCHEMA IF EXISTS needle CASCADE`);
        for (const [name, root] of [['platform', fx.platform.root], ['odd', tricky]]) await publishRepository(db, root, { cacheDir: null, name, commit: 'c1', defaultBranch: 'main' });
      }
      // Both ways were taken on the server: COPY, and INSERT for the words only it can make into a tsvector (`_1e5x`).
      assert.ok(copiedRows.copied > copied && copiedRows.inserted > inserted);
      for (const table of ['needle.files', 'needle.decls', 'needle.usages', 'needle.imports', 'needle.chunks', 'needle.chunk_terms']) {
        const rows = async (db: OrgDb) => (await db.query<{ x: string }>(`SELECT (to_jsonb(t) - 'repo_id')::text AS x FROM ${table} t ORDER BY 1`)).rows.map((r) => r.x);
        const [a, b] = [await rows(server), await rows(lite)];
        assert.ok(a.length > 0, table);
        assert.deepEqual(a, b, table);
      }
    } finally {
      await server.query(`DROP SCHEMA IF EXISTS needle CASCADE`);
      await server.close();
      await lite.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
