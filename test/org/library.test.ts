// Symbols another repository declares, through the organisation index: a workspace that calls the
// platform's API without its sources or a jar resolves it from the published texts (org/library.ts),
// and the API enters the dependency surface, the context (named by repository and commit) and
// check_code; an unreachable index skips the load and indexing goes on.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { checkAt } from '../../server/src/check/service';
import { Indexer } from '../../server/src/index/indexer';
import { openOrgDb } from '../../server/src/org/db';
import { orgTypeLoader, safeJavaPath } from '../../server/src/org/library';
import { publishRepository } from '../../server/src/org/publish';
import { closeOrgConnections } from '../../server/src/org/recall';
import { defaultSettings, retrieveAt, uriOfPath } from '../../server/src/service';
import { orgFixtures } from './fixtures';
import { tempDir } from '../helpers/tempDir';

const CLI = process.env.NEEDLE_TEST_CLI ?? join(process.cwd(), 'dist/cli.js');

describe('org symbols in the workspace (PGlite)', () => {
  const dbDir = tempDir('needle-orglib-');
  const fx = orgFixtures('sk_live_4eC39HqLyjWDarjtT1zdp7dc');
  const checkout = () => join(fx.app.root, 'src/com/acme/app/Checkout.java');
  let ix: Indexer;

  before(async () => {
    const db = await openOrgDb(dbDir);
    await publishRepository(db, fx.platform.root, { cacheDir: null, name: 'platform', commit: 'c0ffee1234567890' });
    await publishRepository(db, fx.billing.root, { cacheDir: null, name: 'billing', golden: true, commit: 'b1' });
    await db.close();
    ix = new Indexer({ cacheDir: tempDir('needle-orglib-cache-'), orgLibrary: orgTypeLoader(dbDir) });
    await ix.addFolder(fx.app.root);
  });
  after(async () => { await closeOrgConnections(); });

  it('loads the platform types the workspace imports, as internal library code named by repository and commit', () => {
    const org = ix.status().org;
    assert.equal(org?.length, 1, JSON.stringify(org));
    assert.equal(org[0].skipped, undefined);
    assert.deepEqual(org[0].repositories, ['platform']);
    const money = ix.index.symbol('com.acme.platform.Money#plus(Money)');
    assert.ok(money, 'Money#plus resolves');
    assert.match(money.file.path, /[\\/]org[\\/]platform@c0ffee123456[\\/]src[\\/]com[\\/]acme[\\/]platform[\\/]Money\.java$/);
    assert.deepEqual(ix.index.libraryOf(money.file.path), { dependency: 'org platform@c0ffee123456', internal: true, fromSources: true });
    // The call in Checkout resolves to it (a resolved edge, not an unresolved name).
    const edges = ix.index.file(checkout())!.resolution!.edges.toArray();
    assert.ok(edges.some((e) => e.to === 'com.acme.platform.Money#plus(Money)'), JSON.stringify(edges.map((e) => e.to)));
    assert.ok(ix.index.symbol('com.acme.platform.Ledger#record(Money,String)'));
  });

  it('the platform API enters the dependency surface and the context', async () => {
    const text = fx.app.files['src/com/acme/app/Checkout.java'];
    const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(checkout()) }, position: { line: fx.app.cursor!.line, character: fx.app.cursor!.character } }, { ...defaultSettings(), orgIndex: undefined });
    const surface = r.dependencySurface.filter((e) => e.symbol.startsWith('com.acme.platform.'));
    assert.ok(surface.length > 0, JSON.stringify(r.dependencySurface.map((e) => e.symbol)));
    assert.ok(surface.every((e) => e.internal));
    const shown = r.items.filter((i) => /org[\\/]platform@c0ffee123456/.test(fileURLToPath(i.uri)));
    assert.ok(shown.length > 0, r.items.map((i) => i.uri).join('\n'));
    for (const i of shown) assert.ok(ix.textOf(fileURLToPath(i.uri)) !== undefined, 'an editor can open what is shown');
    assert.ok(text.includes('price.plus(shipping)'));
  });

  it('check_code knows the platform API: real calls pass, a renamed one is flagged with the real name', async () => {
    const ok = await checkAt(ix, { path: checkout(), code: `public Money settle(Money price, Money shipping) {
    Money total = price.plus(shipping);
    ledger.record(total, "checkout");
    return total;
  }` }, { vetWithRetrieval: false });
    assert.deepEqual(ok.findings.filter((f) => f.severity !== 'information'), [], JSON.stringify(ok.findings));
    const bad = await checkAt(ix, { path: checkout(), code: `public Money settle(Money price, Money shipping) {
    Money total = price.plusAll(shipping);
    return total;
  }` }, { vetWithRetrieval: false });
    const finding = bad.findings.find((f) => /plusAll/.test(f.message));
    assert.ok(finding, JSON.stringify(bad.findings));
    assert.match(JSON.stringify(finding), /plus/);
  });

  it('an unreachable org index skips the load, says so, and indexing goes on', async () => {
    const other = new Indexer({ cacheDir: null, orgLibrary: orgTypeLoader('postgres://needle@127.0.0.1:9/needle', 3000) });
    await other.addFolder(fx.app.root);
    const org = other.status().org!;
    assert.match(org[0].skipped ?? '', /org index postgres:\/\/127\.0\.0\.1:9\/needle skipped/);
    assert.equal(other.index.symbol('com.acme.platform.Money'), undefined);
    assert.ok(other.index.file(checkout()), 'the workspace is indexed');
  });

  it('a published path that is no Java source path is never written', () => {
    assert.deepEqual(safeJavaPath('src/a/B.java'), ['src', 'a', 'B.java']);
    for (const p of ['../x/B.java', 'src/../../B.java', '/etc/B.java', 'src/B.txt', 'a\\..\\B.java', 'src//B.java']) assert.equal(safeJavaPath(p), undefined, p);
  });
});

describe('needle mcp with NEEDLE_ORG_INDEX', () => {
  const dbDir = tempDir('needle-orgmcp-');
  const fx = orgFixtures('sk_live_4eC39HqLyjWDarjtT1zdp7dc');
  before(async () => {
    const db = await openOrgDb(dbDir);
    await publishRepository(db, fx.platform.root, { cacheDir: null, name: 'platform', commit: 'c0ffee1234567890' });
    await db.close();
  });

  const session = async (orgIndex: string, fn: (client: Client, stderr: () => string) => Promise<void>) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', fx.app.root, '--no-cache'], env: { ...process.env, NEEDLE_ORG_INDEX: orgIndex } as Record<string, string>, stderr: 'pipe' });
    let err = '';
    transport.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
    const client = new Client({ name: 'needle-test', version: '0.0.0' });
    await client.connect(transport);
    try { await fn(client, () => err); } finally { await client.close(); }
  };
  type Result = { content: { text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
  const readyStatus = async (client: Client) => {
    for (let i = 0; ; i++) {
      const s = await client.callTool({ name: 'index_status', arguments: {} }) as Result;
      if (s.structuredContent!.state === 'ready' || i >= 600) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('opens the org index at start-up: the platform types are indexed and check_code knows them', { timeout: 120_000 }, async () => {
    await session(dbDir, async (client, stderr) => {
      // Connected before any tool call asked for it.
      for (let i = 0; i < 200 && !/org index .* connected/.test(stderr()); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(stderr(), /org index .*needle-orgmcp-\S+ connected/);
      const status = await readyStatus(client);
      const org = status.structuredContent!.org as { repositories: string[]; types: number; skipped?: string }[];
      assert.deepEqual(org.map((o) => [o.repositories, o.skipped]), [[['platform'], undefined]]);
      assert.ok(org[0].types >= 2);
      const bad = await client.callTool({ name: 'check_code', arguments: { file: 'src/com/acme/app/Checkout.java', code: 'public Money settle(Money price, Money shipping) {\n    return price.plusAll(shipping);\n  }' } }) as Result;
      assert.match(bad.content.map((c) => c.text).join('\n'), /plusAll/);
    });
  });

  it('an unreachable org index: the server starts, says so, and answers from the local index', { timeout: 120_000 }, async () => {
    await session('postgres://needle@127.0.0.1:9/needle', async (client, stderr) => {
      const status = await readyStatus(client);
      const org = status.structuredContent!.org as { skipped?: string }[];
      assert.match(org[0].skipped ?? '', /skipped/);
      const r = await client.callTool({ name: 'retrieve_context', arguments: { file: 'src/com/acme/app/Checkout.java', line: fx.app.cursor!.line + 1, column: fx.app.cursor!.character + 1 } }) as Result;
      assert.ok(!r.isError, JSON.stringify(r));
      assert.match(r.content.map((c) => c.text).join('\n'), /org source was skipped/);
      assert.match(stderr(), /not connected/);
    });
  });
});

describe('org types on a warm start', () => {
  it('an index that cannot be read at a warm start keeps the org types the last load gave', async () => {
    const dbDir = tempDir('needle-orgwarm-');
    const fx = orgFixtures('sk_live_4eC39HqLyjWDarjtT1zdp7dc');
    const db = await openOrgDb(dbDir);
    await publishRepository(db, fx.platform.root, { cacheDir: null, name: 'platform', commit: 'c1' });
    await db.close();
    const cacheDir = tempDir('needle-orgwarm-cache-');
    const first = new Indexer({ cacheDir, orgLibrary: orgTypeLoader(dbDir) });
    await first.addFolder(fx.app.root);
    await closeOrgConnections();
    assert.ok(first.index.symbol('com.acme.platform.Money#plus(Money)'));
    const warm = new Indexer({ cacheDir, orgLibrary: orgTypeLoader('postgres://needle@127.0.0.1:9/needle', 3000) });
    await warm.addFolder(fx.app.root);
    assert.match(warm.status().org?.[0]?.skipped ?? '', /skipped/);
    const money = warm.index.symbol('com.acme.platform.Money#plus(Money)');
    assert.ok(money, 'still resolved from the last load');
    assert.match(warm.textOf(money.file.path) ?? '', /public Money plus\(Money other\)/);
  });
});
