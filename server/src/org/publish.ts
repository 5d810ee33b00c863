// `needle publish`: one repository's derived facts into the organisation index, in one
// transaction (a reader sees the previous state or the new one, never half), and incrementally:
// only files whose rows changed are rewritten, so publishing an unchanged repository writes nothing.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Indexer } from '../index/indexer';
import type { OrgDb } from './db';
import { OrgDbError } from './db';
import { isJavaTextRows, javaFilesToDerive, javaSourceKeys, memberKey, relPath, repositoryRows, type FileRows } from './facts';
import { hostPaths } from '../platform/paths';
import { ensureSchema, FACT_TABLES, GIN_INDEXES } from './schema';
import { simpleTsvector } from './tsvector';

export interface RepositoryMeta {
  name: string;
  commit: string | null;
  defaultBranch: string | null;
  golden: boolean;
  /** 'public' (every reader) or a label that `needle.label_readers` grants to reader roles. */
  visibility: string;
}

export interface PublishReport {
  repository: string;
  files: number;
  /** Files whose rows were (re)written, and files no longer in the repository. */
  changed: number;
  removed: number;
  metadataChanged: boolean;
  /** Statements that wrote, and rows they wrote, in this publish. */
  writeStatements: number;
  rowsWritten: number;
  /**
   * The Indexer's own figure (parsing, while its workers also derive each parsed file's text rows,
   * and resolution; from a warm cache, the workers' derive-only jobs after it); then that plus deriving in this thread (usage sites; all rows of files a warm
   * cache gave), then writing (what deriving did not hide of it).
   */
  indexingMs: number;
  indexMs: number;
  writeMs: number;
  /** This process's CPU time (every thread: user + system) while indexing, and while deriving and writing after it. */
  indexCpuMs: number;
  publishCpuMs: number;
}

const LABEL = /^[A-Za-z0-9_.-]{1,64}$/;

export function checkLabel(label: string): string {
  if (!LABEL.test(label)) throw new OrgDbError(`visibility label must be 1-64 letters, digits, '_', '.' or '-': ${JSON.stringify(label)}`);
  return label;
}

function git(dir: string, ...args: string[]): string | null {
  try {
    return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/** Name, commit and default branch from the folder and its git metadata; what the caller says wins. */
export function repositoryMeta(dir: string, given: Partial<RepositoryMeta> = {}): RepositoryMeta {
  const isRepo = existsSync(join(dir, '.git'));
  const originHead = isRepo ? git(dir, 'symbolic-ref', '--short', 'refs/remotes/origin/HEAD') : null;
  return {
    name: given.name ?? basename(dir),
    commit: given.commit !== undefined ? given.commit : isRepo ? git(dir, 'rev-parse', 'HEAD') : null,
    defaultBranch: given.defaultBranch !== undefined ? given.defaultBranch
      : originHead ? originHead.replace(/^origin\//, '') : isRepo ? git(dir, 'rev-parse', '--abbrev-ref', 'HEAD') : null,
    golden: given.golden ?? false,
    visibility: checkLabel(given.visibility ?? 'public'),
  };
}

/** Rows per INSERT: each column travels as one bound array; a batch of files is written once it has this many rows. */
const BATCH_ROWS = 5000;

/** A column: its name, the SQL array element type its values travel as, and how a row gives its value. */
type Column<T> = [name: string, type: 'text' | 'int' | 'boolean' | 'flags' | 'tsvector', get: (r: T & { path: string }) => unknown];

/** How a column's bound array element becomes the stored value: flags are split, words become a tsvector. */
function stored(type: Column<unknown>[1], ref: string): string {
  if (type === 'flags') return `string_to_array(${ref}, ',')`;
  if (type === 'tsvector') return `to_tsvector('simple', ${ref})`;
  return ref;
}

/** Milliseconds spent inserting into each table in this process's publishes (bench:org prints them). */
export const insertMs: Record<string, number> = {};

async function insertRows<T>(tx: OrgDb, table: string, columns: Column<T>[], repoId: number, rows: (T & { path: string })[]): Promise<void> {
  const started = performance.now();
  const all: Column<T>[] = [['path', 'text', (r) => r.path], ...columns];
  const left = tx.copyFrom ? await copyRows(tx, table, all, repoId, rows) : rows;
  // flags (text[][] cannot be ragged) and words travel as text.
  const arrayType = (t: Column<T>[1]) => (t === 'int' ? 'int[]' : t === 'boolean' ? 'boolean[]' : 'text[]');
  const sql = `INSERT INTO ${table} (repo_id, ${all.map((c) => c[0]).join(', ')}) SELECT $1, ${all.map((c, k) => stored(c[1], `u${k}`)).join(', ')}
    FROM unnest(${all.map((c, k) => `$${k + 2}::${arrayType(c[1])}`).join(', ')}) AS t(${all.map((_, k) => `u${k}`).join(', ')})`;
  for (let i = 0; i < left.length; i += BATCH_ROWS) {
    const batch = left.slice(i, i + BATCH_ROWS);
    await tx.query(sql, [repoId, ...all.map((c) => batch.map((r) => c[2](r)))]);
  }
  insertMs[table] = (insertMs[table] ?? 0) + performance.now() - started;
}

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped; null is \N. */
function copyText(value: string | null): string {
  if (value === null) return '\\N';
  // A native replaceAll per escaped character, backslash first (the others add backslashes): far
  // cheaper than a callback per match on a file's text, which has one per line.
  let out = value;
  if (out.includes('\\')) out = out.replaceAll('\\', '\\\\');
  if (out.includes('\t')) out = out.replaceAll('\t', '\\t');
  if (out.includes('\n')) out = out.replaceAll('\n', '\\n');
  if (out.includes('\r')) out = out.replaceAll('\r', '\\r');
  return out;
}

/** Rows this process sent by COPY and by INSERT (read by bench:org; COPY rows, their tsvectors made here by org/tsvector.ts, are data, never SQL). */
export const copiedRows = { copied: 0, inserted: 0 };

/**
 * Writes `rows` by one COPY FROM STDIN, each value in COPY's text format; a row whose words this
 * process cannot make into the server's tsvector is returned, for the INSERT (which has the server make it).
 */
async function copyRows<T>(tx: OrgDb, table: string, all: Column<T>[], repoId: number, rows: (T & { path: string })[]): Promise<(T & { path: string })[]> {
  const left: (T & { path: string })[] = [];
  const lines: string[] = [];
  const prefix = `${repoId}\t`;
  row: for (const r of rows) {
    let line = prefix;
    for (let k = 0; k < all.length; k++) {
      const [, type, get] = all[k];
      const v = get(r);
      let cell: string;
      if (type === 'tsvector') {
        const tsv = simpleTsvector(v as string);
        if (tsv === undefined) { left.push(r); continue row; }
        cell = tsv;
      } else if (type === 'int') cell = String(v as number);
      else if (type === 'boolean') cell = v ? 't' : 'f';
      else if (type === 'flags') cell = (v as string) === '' ? '{}' : `{${(v as string).split(',').map((f) => `"${f.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
      else cell = v === null ? '\\N' : String(v);
      line += (k ? '\t' : '') + (type === 'text' || type === 'flags' ? copyText(v === null ? null : cell) : cell);
    }
    lines.push(line);
  }
  if (lines.length) await tx.copyFrom!(`COPY ${table} (repo_id, ${all.map((c) => c[0]).join(', ')}) FROM STDIN`, lines.join('\n') + '\n');
  copiedRows.copied += lines.length; copiedRows.inserted += left.length;
  return left;
}

/** The rows of a file that its text and facts alone decide (no resolution): what can be written while the index is still being built. */
type TextOnlyRows = Pick<FileRows, 'path' | 'decls' | 'imports' | 'chunks'>;

/**
 * Writes `files`' rows; `textWritten`: files whose declarations, imports and chunks are written
 * already (streamed while indexing; publishRepository drops those rows once streamed, so such a
 * file's FileRows may hold none).
 */
async function writeFiles(tx: OrgDb, repoId: number, files: FileRows[], textWritten: ReadonlySet<string> = new Set()): Promise<void> {
  const flat = <T>(get: (f: FileRows) => T[]) => files.flatMap((f) => get(f).map((r) => ({ ...r, path: f.path })));
  await writeTextRows(tx, repoId, files.filter((f) => !textWritten.has(f.path)));
  await insertRows(tx, 'needle.usages', [
    ['line', 'int', (r) => r.line], ['col', 'int', (r) => r.col], ['from_symbol', 'text', (r) => r.fromSymbol], ['target', 'text', (r) => r.target],
    ['name', 'text', (r) => r.name], ['kind', 'text', (r) => r.kind], ['site', 'text', (r) => r.site], ['is_foreign', 'boolean', (r) => r.foreign],
  ], repoId, flat((f) => f.usages));
  await insertRows(tx, 'needle.files', [['hash', 'text', (r) => r.hash], ['source_key', 'text', (r) => r.sourceKey], ['digest', 'text', (r) => r.digest], ['text', 'text', (r) => r.text]], repoId,
    files.map((f) => ({ path: f.path, hash: f.hash, sourceKey: f.sourceKey, digest: f.digest, text: f.text })));
}

async function writeTextRows(tx: OrgDb, repoId: number, files: TextOnlyRows[]): Promise<void> {
  const flat = <T>(get: (f: TextOnlyRows) => T[]) => files.flatMap((f) => get(f).map((r) => ({ ...r, path: f.path })));
  await insertRows(tx, 'needle.decls', [
    ['symbol', 'text', (r) => r.symbol], ['member_key', 'text', (r) => memberKey(r.symbol)], ['kind', 'text', (r) => r.kind], ['name', 'text', (r) => r.name], ['lname', 'text', (r) => r.name.toLowerCase()], ['package', 'text', (r) => r.package],
    ['line', 'int', (r) => r.line], ['signature', 'text', (r) => r.signature], ['summary', 'text', (r) => r.summary],
    ['description', 'text', (r) => r.description], ['tsv', 'tsvector', (r) => r.search],
  ], repoId, flat((f) => f.decls));
  await insertRows(tx, 'needle.imports', [['name', 'text', (r) => r.name]], repoId, flat((f) => f.imports.map((name) => ({ name }))));
  const chunks = files.flatMap((f) => f.chunks.map((r, seq) => ({ ...r, path: f.path, seq })));
  await insertRows(tx, 'needle.chunks', [
    ['seq', 'int', (r) => r.seq], ['start_line', 'int', (r) => r.startLine], ['end_line', 'int', (r) => r.endLine], ['kind', 'text', (r) => r.kind], ['symbol', 'text', (r) => r.symbol],
    ['header', 'text', (r) => r.header], ['text', 'text', (r) => r.text], ['flags', 'flags', (r) => r.flags.join(',')],
  ], repoId, chunks);
  // The words ranked by the chunk search live in a narrow table of their own (schema.ts, version 2).
  await insertRows(tx, 'needle.chunk_terms', [['seq', 'int', (r) => r.seq], ['start_line', 'int', (r) => r.startLine], ['tsv', 'tsvector', (r) => r.search]], repoId, chunks);
}

/**
 * Writes, while the index is still being built, the text-only rows of files this repository has
 * not published (nothing of theirs to compare or delete), in batches, one statement at a time on
 * the transaction. `written` is what went out; `settled` waits for the last batch (and fails as it did).
 */
class StreamedTextRows {
  readonly written = new Set<string>();
  /** Digest of each streamed file's text rows: the later, complete rows must match it, else they are written again. */
  readonly digests = new Map<string, string>();
  private batch: TextOnlyRows[] = [];
  private rows = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(private tx: OrgDb, private repoId: number, private known: ReadonlySet<string>) {}

  /** Takes a file's rows to write (true), unless its path is published already or was taken before (false). */
  add(rows: TextOnlyRows & { digest: string }): boolean {
    if (this.known.has(rows.path) || this.written.has(rows.path)) return false;
    this.written.add(rows.path);
    this.digests.set(rows.path, rows.digest);
    this.batch.push(rows);
    this.rows += rows.decls.length + rows.imports.length + 2 * rows.chunks.length;
    if (this.rows >= BATCH_ROWS) this.send();
    return true;
  }

  private send(): void {
    const b = this.batch;
    this.batch = []; this.rows = 0;
    if (!b.length) return;
    this.chain = this.chain.then(() => writeTextRows(this.tx, this.repoId, b));
    this.chain.catch(() => {}); // handled where settled is awaited
  }

  settled(): Promise<void> {
    this.send();
    return this.chain;
  }
}

async function deleteFiles(tx: OrgDb, repoId: number, paths: string[]): Promise<void> {
  if (!paths.length) return;
  for (const table of [...FACT_TABLES, 'needle.files']) await tx.query(`DELETE FROM ${table} WHERE repo_id = $1 AND path = ANY($2::text[])`, [repoId, paths]);
}

/** Rows a file contributes (what a write batch counts). */
const rowCount = (f: FileRows) => 1 + f.decls.length + f.usages.length + f.imports.length + 2 * f.chunks.length;

/** Lets the event loop run: a write in flight gets its answer and sends its next statement. */
const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * Publishes repository `meta` in one transaction. `derive` is given the published source keys (path →
 * key) and yields every file's rows, derived again only where the key changed; files whose rows
 * come out equal (same digest) are left alone. Changed files are written in batches of about
 * BATCH_ROWS rows, each batch while the next is derived: the database works as this process does.
 */
export async function publishRows(db: OrgDb, meta: RepositoryMeta, derive: (published: Map<string, string>) => Iterable<FileRows>,
  index?: (stream: (rows: TextOnlyRows & { digest: string }) => boolean, published: Map<string, string>) => Promise<void>): Promise<Omit<PublishReport, 'indexMs' | 'indexCpuMs' | 'publishCpuMs'> & { deriveMs: number }> {
  await ensureSchema(db);
  const started = performance.now();
  const before = { ...db.writes };
  let deriveMs = 0, indexingMs = 0;
  const outcome = await db.transaction(async (tx) => {
    // Publishes of the same repository queue up instead of interleaving.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`needle.repo:${meta.name}`]);
    const existing = await tx.query<{ id: number; commit: string | null; default_branch: string | null; golden: boolean; visibility: string; files: number }>(
      `SELECT id, commit, default_branch, golden, visibility, files FROM needle.repos WHERE name = $1`, [meta.name]);
    let repo = existing.rows[0];
    if (!repo) {
      const inserted = await tx.query<{ id: number }>(`INSERT INTO needle.repos (name, commit, default_branch, golden, visibility) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [meta.name, meta.commit, meta.defaultBranch, meta.golden, meta.visibility]);
      repo = { id: inserted.rows[0].id, commit: meta.commit, default_branch: meta.defaultBranch, golden: meta.golden, visibility: meta.visibility, files: -1 };
    }
    const repoId = repo.id;
    const published = (await tx.query<{ path: string; source_key: string; digest: string }>(`SELECT path, source_key, digest FROM needle.files WHERE repo_id = $1`, [repoId])).rows;
    const known = new Map(published.map((r) => [r.path, r.digest]));
    const publishedKeys = new Map(published.map((r) => [r.path, r.source_key]));
    // Indexing, inside the transaction: the text-only rows of files not yet published are written meanwhile.
    const streamed = new StreamedTextRows(tx, repoId, new Set(known.keys()));
    if (index) {
      const t = performance.now();
      await index((rows) => streamed.add(rows), publishedKeys);
      indexingMs = performance.now() - t;
    }
    /** A streamed file whose complete rows came out otherwise (its text changed meanwhile): all its rows are written again. */
    const stale = (f: FileRows) => streamed.written.has(f.path) && streamed.digests.get(f.path) !== f.textDigest;
    const present = new Set<string>();
    let changed = 0;
    let batch: FileRows[] = [], batchRows = 0;
    let inflight: Promise<void> = Promise.resolve();
    const flush = (files: FileRows[]) => async () => {
      await deleteFiles(tx, repoId, files.filter((f) => known.has(f.path) || stale(f)).map((f) => f.path));
      await writeFiles(tx, repoId, files, new Set(files.filter((f) => streamed.written.has(f.path) && !stale(f)).map((f) => f.path)));
    };
    const iterator = derive(publishedKeys)[Symbol.iterator]();
    for (;;) {
      const t = performance.now();
      const next = iterator.next();
      deriveMs += performance.now() - t;
      if (next.done) break;
      const f = next.value;
      present.add(f.path);
      if (f.derived && known.get(f.path) !== f.digest) { changed++; batch.push(f); batchRows += rowCount(f); }
      if (batchRows >= BATCH_ROWS) {
        const b = batch;
        batch = []; batchRows = 0;
        await inflight; // a write failing fails the publish here, before more is sent
        inflight = flush(b)();
        inflight.catch(() => {}); // handled where it is awaited; not an unhandled rejection meanwhile
      }
      await yieldToLoop();
    }
    await inflight;
    await streamed.settled();
    await flush(batch)();
    const removed = [...known.keys()].filter((p) => !present.has(p)).sort();
    await deleteFiles(tx, repoId, removed);
    // Streamed, then not among the repository's files after all (unreadable by the time its rows were made).
    await deleteFiles(tx, repoId, [...streamed.written].filter((p) => !present.has(p)).sort());
    const metadataChanged = repo.commit !== meta.commit || repo.default_branch !== meta.defaultBranch || repo.golden !== meta.golden
      || repo.visibility !== meta.visibility || repo.files !== present.size;
    if (changed || removed.length) {
      await tx.query(`DELETE FROM needle.repo_names WHERE repo_id = $1`, [repoId]);
      await tx.query(`INSERT INTO needle.repo_names (repo_id, lname) SELECT DISTINCT repo_id, lname FROM needle.decls WHERE repo_id = $1`, [repoId]);
      // Inserted entries wait in each GIN index's pending list, which every search scans in full;
      // merged now, by the writer, they cost no reader anything.
      for (const index of GIN_INDEXES) await tx.query(`SELECT gin_clean_pending_list($1::regclass)`, [index]);
    }
    if (metadataChanged || changed || removed.length) {
      await tx.query(`UPDATE needle.repos SET commit = $2, default_branch = $3, golden = $4, visibility = $5, files = $6, published_at = now() WHERE id = $1`,
        [repoId, meta.commit, meta.defaultBranch, meta.golden, meta.visibility, present.size]);
    }
    return { files: present.size, changed, removed: removed.length, metadataChanged };
  });
  return {
    repository: meta.name, ...outcome,
    writeStatements: db.writes.statements - before.statements, rowsWritten: db.writes.rows - before.rows,
    writeMs: performance.now() - started - indexingMs - deriveMs, deriveMs, indexingMs,
  };
}

export interface PublishOptions extends Partial<RepositoryMeta> {
  /** The indexer's cache folder (null: none). */
  cacheDir: string | null;
  log?: (msg: string) => void;
}

/** CPU time of this process so far, every thread included (getrusage), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Indexes `dir` with the ordinary Indexer and publishes what it derived. */
export async function publishRepository(db: OrgDb, dir: string, options: PublishOptions): Promise<PublishReport> {
  const meta = repositoryMeta(dir, options);
  // The workers that parse also vet and chunk each file (org/facts.ts javaTextRows), spreading
  // that over the cores; files a warm cache gave are vetted and chunked by the same workers in
  // derive-only jobs after the index (those whose rows are derived again), streamed the same way.
  let indexer: Indexer | undefined;
  let keys: Map<string, string> | undefined;
  let cpu0 = 0, cpu1 = 0;
  const { deriveMs, indexingMs, ...report } = await publishRows(db, meta, (published) => repositoryRows(indexer!, dir, published, keys), async (stream, published) => {
    indexer = new Indexer({
      cacheDir: options.cacheDir, log: options.log, derive: 'org-publish',
      // A file's text rows go to the database as soon as its worker sends them (files not yet published only).
      onDerived: (path, derived) => {
        if (!isJavaTextRows(derived) || !hostPaths.inside(dir, path)) return;
        // Streamed rows are not needed again (the file's complete rows are written without them, and
        // their digest still names them): dropped from what the Indexer keeps until resolution is
        // done, rather than held for the whole index (a corpus's chunks and headers, the main thread's garbage collection).
        if (stream({ path: relPath(dir, path), ...derived })) { derived.decls = []; derived.imports = []; derived.chunks = []; }
      },
    });
    // Deriving the rows needs the reference sites of files with foreign imports: kept, not parsed again.
    indexer.index.releaseRefs = false;
    cpu0 = cpuMs();
    await indexer.addFolder(dir);
    keys = javaSourceKeys(indexer, dir);
    await indexer.deriveInWorkers(javaFilesToDerive(dir, published, keys));
    cpu1 = cpuMs();
  });
  // Deriving happens inside the write's transaction, overlapping its statements; it is reported with
  // indexing, and writeMs is the rest of the transaction's time (what deriving did not hide).
  return { ...report, indexingMs, indexMs: indexingMs + deriveMs, indexCpuMs: cpu1 - cpu0, publishCpuMs: cpuMs() - cpu1 };
}
