// `npm run bench:org`: the organisation index on a private PostgreSQL server (socket only).
// Publishes every development corpus as its own repository (never the held-out pair) and, with
// `--jdk-src <src.zip>`, every module of a JDK as one repository each; then reports publish
// throughput against the cold-index rate of the same files, database size ÷ source size, the time
// to re-publish one changed file, org-source query latency, and retrieval latency with the org
// source on against off. Figures are ratios within this one run (the machine is shared).
//
// `--cross` instead runs the cross-repository proof (bench/deps.bench.ts's split, arrangement
// `org`): a corpus's utility packages published as repository `platform`, the rest as the workspace
// with no jar, the masked-method tasks whose gold lives in the platform; recall, the gate and
// check_code against the single-workspace run. Flags as bench:deps (--corpus, --tasks, --validation,
// --reps, --budget, --no-injected).
//
// Other flags: --repos a,b (only these development corpora), --no-jdk (without java.base),
// --jdk-src <src.zip> (every module of that JDK, instead of java.base), --warm (publish from the
// index cache a CI run already has, not cold), --publish-only, --dump-rows <file> (an MD5 per table,
// repository and path, to compare two builds' rows), --queries <n>, --explain-over <ms>.
//
// --scale: the issue's scale run: every corpus but the held-out pair (guava, checker-only, included)
// plus every module of the JDK's src.zip as extracted into corpus jdk-all (about 70 repositories);
// --publish-budget <s>: publish no further repository once that much time has gone (the rest of the
// run then measures what was loaded, and says how many were left out).

import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, corpusSourceRoot } from './cli';
import { CHECKER_CORPORA, DEVELOPMENT_CORPORA } from './corpora/list.mjs';
import { Indexer } from '../server/src/index/indexer';
import { openOrgDb, type OrgDb } from '../server/src/org/db';
import { copiedRows, insertMs, publishRepository, type PublishReport } from '../server/src/org/publish';
import { FACT_TABLES, GIN_INDEXES } from '../server/src/org/schema';
import { closeOrgConnections, connectOrgIndex, orgItems, orgQueryOf } from '../server/src/org/recall';
import { defaultSettings, retrieveAt, uriOfPath, type Settings } from '../server/src/service';
import { POSTGRES, startCluster, SUPERUSER } from '../test/helpers/postgres';
import { runSplitBench } from './deps.bench';

function sourceBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += sourceBytes(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}

/** CPU time (user + system, ms) of the cluster's server processes: the postmaster with its reaped children, and every live child. */
function serverCpuMs(dataDir: string): number {
  const tck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const pid = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0].trim();
  // /proc/<pid>/stat: fields after the parenthesised name; utime, stime, cutime, cstime are the 14th-17th fields.
  const fields = (p: string) => { try { return readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '').split(' '); } catch { return undefined; } };
  const own = fields(pid);
  let ticks = own ? Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]) : 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    const f = fields(p);
    if (f && f[1] === pid) ticks += Number(f[11]) + Number(f[12]);
  }
  return (ticks * 1000) / tck;
}

/** Thrown to roll a measurement's transaction back. */
class RolledBack extends Error {}

/**
 * What writing a repository's rows costs the server, table by table, measured by re-writing the
 * rows of repository `repoId` under a scratch repository inside transactions that are rolled back
 * (nothing stays): into the real table (its foreign key's per-row check and its indexes maintained,
 * GIN pending lists merged, as a publish does); into a staging copy with the same indexes but no
 * foreign key; into a bare staging copy, then the same indexes built after the load. Times are the
 * server's (EXPLAIN ANALYZE's execution time, so no client cost), WAL the bytes the statement wrote.
 */
async function writeCosts(db: OrgDb, repoId: number): Promise<string[]> {
  const lines = ['| table | rows | into the table (FK + indexes) ms | staging, indexes, no FK ms | bare staging load ms | + index build after load ms | WAL MB: table / bare + build |', '|---|---|---|---|---|---|---|'];
  const serverMs = async (tx: OrgDb, sql: string, params: unknown[] = []) => {
    const plan = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    const p = plan.rows[0]['QUERY PLAN'];
    const top = (typeof p === 'string' ? JSON.parse(p) : p) as { 'Execution Time': number; Plan: { 'Actual Rows'?: number } }[];
    return top[0]['Execution Time'];
  };
  const wal = async (tx: OrgDb) => (await tx.query<{ l: string }>(`SELECT pg_current_wal_insert_lsn()::text AS l`)).rows[0].l;
  const walMb = async (tx: OrgDb, from: string) => Number((await tx.query<{ d: string }>(`SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn) AS d`, [from])).rows[0].d) / 1e6;
  const inRollback = async <T>(fn: (tx: OrgDb) => Promise<T>): Promise<T> => {
    let out: T | undefined;
    await db.transaction(async (tx) => { out = await fn(tx); throw new RolledBack(); }).catch((e) => { if (!(e instanceof RolledBack)) throw e; });
    return out!;
  };
  for (const table of [...FACT_TABLES, 'needle.files']) {
    const bare = table.replace('needle.', '');
    const cols = (await db.query<{ c: string }>(`SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS c FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'repo_id'`, [table])).rows[0].c;
    const indexDefs = (await db.query<{ d: string }>(`SELECT indexdef AS d FROM pg_indexes WHERE schemaname = 'needle' AND tablename = $1 ORDER BY indexname`, [bare])).rows.map((r) => r.d);
    const gin = GIN_INDEXES.filter((g) => indexDefs.some((d) => d.includes(` ${g.replace('needle.', '')} `)));
    const rows = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE repo_id = $1`, [repoId])).rows[0].n);
    const copyInto = (target: string) => `INSERT INTO ${target} (repo_id, ${cols}) SELECT (SELECT id FROM needle.repos WHERE name = 'write-cost-scratch'), ${cols} FROM ${table} WHERE repo_id = $1`;
    const scratch = (tx: OrgDb) => tx.query(`INSERT INTO needle.repos (name) VALUES ('write-cost-scratch')`);
    const intoTable = await inRollback(async (tx) => {
      await scratch(tx);
      const w = await wal(tx);
      let ms = await serverMs(tx, copyInto(table), [repoId]);
      for (const g of gin) ms += await serverMs(tx, `SELECT gin_clean_pending_list($1::regclass)`, [g]);
      return { ms, wal: await walMb(tx, w) };
    });
    const indexedStaging = await inRollback(async (tx) => {
      await scratch(tx);
      await tx.query(`CREATE TABLE needle.write_cost_staging (LIKE ${table} INCLUDING INDEXES)`);
      let ms = await serverMs(tx, copyInto('needle.write_cost_staging'), [repoId]);
      const stagingGin = (await tx.query<{ i: string }>(`SELECT indexrelid::regclass::text AS i FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE indrelid = 'needle.write_cost_staging'::regclass AND a.amname = 'gin'`)).rows;
      for (const g of stagingGin) ms += await serverMs(tx, `SELECT gin_clean_pending_list($1::regclass)`, [g.i]);
      return ms;
    });
    const built = await inRollback(async (tx) => {
      await scratch(tx);
      await tx.query(`CREATE TABLE needle.write_cost_staging (LIKE ${table})`);
      const w = await wal(tx);
      const load = await serverMs(tx, copyInto('needle.write_cost_staging'), [repoId]);
      const t = performance.now();
      for (const [k, d] of indexDefs.entries()) await tx.query(d.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+/, `CREATE $1INDEX write_cost_staging_${k} ON needle.write_cost_staging`));
      return { load, build: performance.now() - t, wal: await walMb(tx, w) };
    });
    lines.push(`| ${table} | ${rows} | ${f1(intoTable.ms)} | ${f1(indexedStaging)} | ${f1(built.load)} | ${f1(built.build)} | ${f1(intoTable.wal)} / ${f1(built.wal)} |`);
  }
  return lines;
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const f1 = (x: number) => x.toFixed(1);

(async () => {
  if (process.argv.includes('--cross')) { await runSplitBench(['workspace', 'org'], 'org-cross-report.json'); return; }
  const unavailable = POSTGRES.problem();
  if (unavailable) { console.log(`bench:org skipped: ${unavailable} (install: ${POSTGRES.install})`); return; }
  const cluster = startCluster();
  const scratch = mkdtempSync(join(tmpdir(), 'needle-orgbench-'));
  try {
    cluster.psql(`CREATE ROLE needle_publisher LOGIN; GRANT CREATE ON DATABASE needle TO needle_publisher; CREATE ROLE needle_reader LOGIN;`);
    const publisher = await openOrgDb(cluster.url('needle_publisher'));
    // --repos a,b: publish only these development corpora (and the JDK's java.base unless --no-jdk), for a shorter run.
    const only = arg('--repos')?.split(',');
    const scale = process.argv.includes('--scale');
    const repos: { name: string; root: string }[] = (scale ? CHECKER_CORPORA : DEVELOPMENT_CORPORA).filter((name: string) => !only || only.includes(name)).map((name: string) => ({ name, root: corpusSourceRoot(name) }));
    const jdkSrc = arg('--jdk-src');
    if (scale) {
      const dir = corpusSourceRoot('jdk-all');
      for (const m of readdirSync(dir).sort()) if (statSync(join(dir, m)).isDirectory()) repos.push({ name: `jdk-${m}`, root: join(dir, m) });
    } else if (jdkSrc) {
      const dir = join(scratch, 'jdk');
      execFileSync('unzip', ['-q', jdkSrc, '-d', dir]);
      for (const m of readdirSync(dir).sort()) if (statSync(join(dir, m)).isDirectory()) repos.push({ name: `jdk-${m}`, root: join(dir, m) });
    } else if (!process.argv.includes('--no-jdk')) {
      repos.push({ name: 'jdk-java.base', root: corpusSourceRoot('jdk-java.base') });
    }

    // Each repository is first indexed cold by a plain Indexer (what `needle index --no-prepare`
    // does), then published cold; the ratio of the two times is the publish ÷ cold-index rate.
    // --warm: published instead from the index cache a CI run already has (its `needle index` wrote
    // it: made here by one more cold index, untimed), so the facts and resolution are loaded, not derived.
    const warm = process.argv.includes('--warm');
    console.log(warm ? '## publish (warm: from the index cache, written by an untimed cold index before)\n' : '## publish (cold: no index cache)\n');
    console.log('| repository | files | source MB | cold index files/s | publish files/s | publish ÷ cold-index rate | cold index s | publish: index s | derive s | write s |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    let files = 0, bytes = 0, coldMs = 0, publishMs = 0, indexingMs = 0, deriveMs = 0, writeMs = 0;
    const cpuRows: string[] = [];
    const cores = availableParallelism();
    const cpuTotal = { cold: 0, coldCpu: 0, client: 0, server: 0 };
    const cpuRow = (name: string, cold: number, coldCpu: number, client: number, server: number) =>
      `| ${name} | ${f1(cold / 1000)} | ${f1(coldCpu / 1000)} (${(coldCpu / cold).toFixed(2)} cores) | ${f1(client / 1000)} | ${f1(server / 1000)} | ${(cold / ((client + server) / cores)).toFixed(2)} |`;
    const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
    const budgetMs = Number(arg('--publish-budget') ?? Infinity) * 1000;
    const runStarted = performance.now();
    let published = 0;
    for (const r of repos) {
      if (performance.now() - runStarted > budgetMs) break;
      published++;
      const plain = new Indexer({ cacheDir: null });
      const c0 = cpuNow();
      await plain.addFolder(r.root);
      const cold = plain.indexMs ?? 0, coldCpu = cpuNow() - c0;
      const cacheDir = warm ? join(scratch, `cache-${r.name}`) : null;
      if (cacheDir) await new Indexer({ cacheDir }).addFolder(r.root);
      const server0 = serverCpuMs(join(cluster.dir, 'data'));
      const rep: PublishReport = await publishRepository(publisher, r.root, { cacheDir, name: r.name });
      const serverMs = serverCpuMs(join(cluster.dir, 'data')) - server0;
      cpuRows.push(cpuRow(r.name, cold, coldCpu, rep.indexCpuMs + rep.publishCpuMs, serverMs));
      cpuTotal.cold += cold; cpuTotal.coldCpu += coldCpu; cpuTotal.client += rep.indexCpuMs + rep.publishCpuMs; cpuTotal.server += serverMs;
      const b = sourceBytes(r.root);
      const pub = rep.indexMs + rep.writeMs;
      files += rep.files; bytes += b; coldMs += cold; publishMs += pub; indexingMs += rep.indexingMs; deriveMs += rep.indexMs - rep.indexingMs; writeMs += rep.writeMs;
      console.log(`| ${r.name} | ${rep.files} | ${f1(b / 1e6)} | ${Math.round(rep.files / (cold / 1000))} | ${Math.round(rep.files / (pub / 1000))} | ${(cold / pub).toFixed(2)} | ${f1(cold / 1000)} | ${f1(rep.indexingMs / 1000)} | ${f1((rep.indexMs - rep.indexingMs) / 1000)} | ${f1(rep.writeMs / 1000)} |`);
    }
    if (published < repos.length) console.log(`| (publish budget of ${arg('--publish-budget')} s spent: ${repos.length - published} of ${repos.length} repositories not published: ${repos.slice(published).map((r) => r.name).join(', ')}) |`);
    console.log(`| all ${published} | ${files} | ${f1(bytes / 1e6)} | ${Math.round(files / (coldMs / 1000))} | ${Math.round(files / (publishMs / 1000))} | ${(coldMs / publishMs).toFixed(2)} | ${f1(coldMs / 1000)} | ${f1(indexingMs / 1000)} | ${f1(deriveMs / 1000)} | ${f1(writeMs / 1000)} |`);
    cpuRows.push(cpuRow(`all ${published}`, cpuTotal.cold, cpuTotal.coldCpu, cpuTotal.client, cpuTotal.server));
    // What a cold publish costs in CPU against the cold index's wall time: on `cores` cores no
    // schedule beats total CPU ÷ cores, so the last column bounds publish ÷ cold-index rate from above.
    console.log(`\n## CPU (this process, every thread; the PostgreSQL server's processes), ${cores} cores\n`);
    console.log('| repository | cold index s | cold index CPU s | publish CPU s (this process) | publish CPU s (server) | bound on publish ÷ cold-index rate |');
    console.log('|---|---|---|---|---|---|');
    for (const row of cpuRows) console.log(row);
    // --write-costs: what the server spends writing the largest published repository's rows, table by table.
    if (process.argv.includes('--write-costs')) {
      const largest = (await publisher.query<{ id: number; name: string }>(`SELECT id, name FROM needle.repos ORDER BY files DESC, name LIMIT 1`)).rows[0];
      console.log(`\n## write costs in the server: ${largest.name}'s rows written again (rolled back)\n`);
      for (const line of await writeCosts(publisher, largest.id)) console.log(line);
    }
    console.log(`\nwrite time by table: ${Object.entries(insertMs).map(([t, ms]) => `${t} ${f1(ms / 1000)} s`).join(', ')}`);
    console.log(`rows written by COPY ${copiedRows.copied}, by INSERT ${copiedRows.inserted} (words whose tsvector the server makes)`);
    const size = await publisher.query<{ b: string }>(`SELECT sum(pg_total_relation_size(c.oid)) AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'needle' AND c.relkind = 'r'`);
    const dbBytes = Number(size.rows[0].b);
    console.log(`\ndatabase size (needle tables with indexes and TOAST) ${f1(dbBytes / 1e6)} MB ÷ source ${f1(bytes / 1e6)} MB = ${(dbBytes / bytes).toFixed(2)}`);
    // --dump-rows <file>: one line per table, repository and path with an MD5 of every published row
    // there (tsvectors as text, so lexemes and positions count), but the source key (it hashes the
    // deriving code, so it differs between any two builds): two Needles' dumps compare with diff.
    const dumpRows = arg('--dump-rows');
    if (dumpRows) {
      const lines: string[] = [];
      for (const table of [...FACT_TABLES, 'needle.files']) {
        const r = await publisher.query<{ name: string; path: string; md5: string }>(
          `SELECT r.name, t.path, md5(string_agg(x, E'\n' ORDER BY x)) AS md5 FROM ${table} t JOIN needle.repos r ON r.id = t.repo_id,
           LATERAL (SELECT (to_jsonb(t) - 'source_key')::text AS x) j GROUP BY 1, 2 ORDER BY 1, 2`);
        for (const row of r.rows) lines.push(`${table} ${row.name} ${row.path} ${row.md5}`);
      }
      writeFileSync(dumpRows, lines.join('\n') + '\n');
      console.log(`\nrows dumped: ${lines.length} (table, repository, path) groups to ${dumpRows}`);
    }

    // Re-publish after one changed file, with the index cache warm (as in CI after a merge).
    const copy = join(scratch, 'commons-lang3');
    cpSync(corpusSourceRoot('commons-lang3'), copy, { recursive: true });
    const cache = join(scratch, 'cache');
    await publishRepository(publisher, copy, { cacheDir: cache, name: 'commons-lang3-copy' });
    const unchanged = await publishRepository(publisher, copy, { cacheDir: cache, name: 'commons-lang3-copy' });
    const victim = join(copy, 'org/apache/commons/lang3/StringUtils.java');
    writeFileSync(victim, readFileSync(victim, 'utf8').replace('public class StringUtils {', 'public class StringUtils {\n    // changed\n'));
    const one = await publishRepository(publisher, copy, { cacheDir: cache, name: 'commons-lang3-copy' });
    console.log(`\nre-publish commons-lang3 (warm index cache): unchanged ${Math.round(unchanged.indexMs + unchanged.writeMs)} ms (${unchanged.rowsWritten} rows written); one changed file ${Math.round(one.indexMs + one.writeMs)} ms (index ${Math.round(one.indexMs)}, write ${Math.round(one.writeMs)}; ${one.changed} file(s), ${one.rowsWritten} rows)`);

    // --publish-only: stop after the publish figures, re-publishing included (a shorter run while working on publishing).
    if (process.argv.includes('--publish-only')) { await publisher.close(); return; }

    await publisher.query(`GRANT USAGE ON SCHEMA needle TO needle_reader`);
    await publisher.query(`GRANT SELECT ON ALL TABLES IN SCHEMA needle TO needle_reader`);
    await publisher.query(`ANALYZE`);
    await publisher.close();

    // Org-source queries and retrievals from one workspace: every k-th method of jsoup.
    const wsRoot = corpusSourceRoot('jsoup');
    const ix = new Indexer({ cacheDir: join(scratch, 'cache') });
    await ix.addFolder(wsRoot);
    const methods = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1)).flatMap((f) =>
      f.facts.symbols.filter((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3).map((s) => ({ path: f.path, line: s.nameSpan.sl + 1 })));
    const count = Number(arg('--queries') ?? 100);
    const step = Math.max(1, Math.floor(methods.length / count));
    const cursors = methods.filter((_, i) => i % step === 0).slice(0, count);
    const url = cluster.url('needle_reader');
    // --explain-over <ms>: the server logs the plan (EXPLAIN ANALYZE, auto_explain) of every org query slower than that.
    const explainOver = arg('--explain-over');
    if (explainOver) {
      // Written to the cluster's own configuration file: ALTER SYSTEM does not know auto_explain's settings before it is loaded.
      appendFileSync(join(cluster.dir, 'data', 'postgresql.conf'), `\nsession_preload_libraries = 'auto_explain'\nauto_explain.log_min_duration = ${Number(explainOver)}\nauto_explain.log_analyze = on\nauto_explain.log_nested_statements = on\n`);
      cluster.psql(`SELECT pg_reload_conf()`);
    }
    const reader = await connectOrgIndex(url);
    const queryMs: number[] = [];
    const stageMs = new Map<string, number[]>();
    let items = 0;
    for (const c of cursors) {
      const q = orgQueryOf({ index: ix.index, roots: [wsRoot], textOf: (p) => ix.textOf(p), openPaths: [], path: c.path, position: { line: c.line, character: 0 }, budgetTokens: 4000, mode: 'rcl', maxRounds: 2, threshold: 0.5 });
      q.excludeRepo = 'jsoup';
      const s = performance.now();
      items += (await orgItems(reader, q, (stage, ms) => stageMs.set(stage, [...(stageMs.get(stage) ?? []), ms]))).items.length;
      queryMs.push(performance.now() - s);
    }
    console.log(`\norg query stages p50/p95 ms: ${[...stageMs].map(([k, v]) => `${k} ${f1(pct(v, 0.5))}/${f1(pct(v, 0.95))}`).join(', ')}`);
    if (explainOver) {
      const log = readFileSync(join(cluster.dir, 'log'), 'utf8');
      const plans = log.split(/\n(?=\S.*LOG:\s+duration:)/).filter((x) => /LOG:\s+duration:/.test(x));
      console.log(`\n${plans.length} org queries over ${explainOver} ms; their plans (server log):\n${plans.slice(0, Number(arg('--explain-max') ?? 6)).join('\n')}`);
    }
    console.log(`\norg-source query (${cursors.length} jsoup methods, ${published + 1} repositories loaded, loopback socket): p50 ${f1(pct(queryMs, 0.5))} ms, p95 ${f1(pct(queryMs, 0.95))} ms, ${f1(items / cursors.length)} items per query`);

    const on: number[] = [], off: number[] = [];
    const settingsOn: Settings = { ...defaultSettings(), orgIndex: url }, settingsOff: Settings = { ...defaultSettings(), orgIndex: undefined };
    const retrieveOnce = async (c: { path: string; line: number }, s: typeof settingsOn) => {
      const t = performance.now();
      const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(c.path) }, position: { line: c.line, character: 0 } }, s);
      return { ms: performance.now() - t, skipped: r.org?.skipped };
    };
    await retrieveOnce(cursors[0], settingsOff); // builds the lazy caches
    let skipped = 0;
    for (const [i, c] of cursors.entries()) {
      // Alternating which goes first, so drift on a shared machine hits both alike.
      const order = i % 2 ? [settingsOn, settingsOff] : [settingsOff, settingsOn];
      for (const s of order) {
        const r = await retrieveOnce(c, s);
        (s === settingsOn ? on : off).push(r.ms);
        if (s === settingsOn && r.skipped) skipped++;
      }
    }
    console.log(`retrieval p50: org on ${f1(pct(on, 0.5))} ms, off ${f1(pct(off, 0.5))} ms, ratio ${(pct(on, 0.5) / pct(off, 0.5)).toFixed(2)} (p95 ${f1(pct(on, 0.95))} / ${f1(pct(off, 0.95))} ms; org skipped in ${skipped} of ${on.length})`);
  } finally {
    await closeOrgConnections();
    cluster.destroy();
    rmSync(scratch, { recursive: true, force: true });
  }
})().catch((e) => { console.error(e); process.exitCode = 1; });
