// One connection to an organisation index, whichever engine holds it: PGlite (PostgreSQL compiled
// to WebAssembly, in process) when the target is a local folder, a PostgreSQL server through `pg`
// when it is a postgres:// URL. Both speak the same SQL; every value travels as a bound parameter.

import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

export interface QueryResult<R> { rows: R[]; affected: number }

export interface OrgDb {
  /** 'pglite' or 'postgres'. */
  readonly engine: 'pglite' | 'postgres';
  /** `sql` uses $1, $2…; `params` are always bound, never spliced into the text. */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
  /**
   * `COPY <table> (<columns>) FROM STDIN` with `data` in COPY's text format (the caller escapes
   * every value: data, never SQL); resolves to the rows copied. Absent where the engine has no
   * COPY from the client (PGlite here): callers INSERT instead.
   */
  copyFrom?(sql: string, data: string): Promise<number>;
  /** Runs `fn` in one transaction: committed if it returns, rolled back if it throws. */
  transaction<T>(fn: (tx: OrgDb) => Promise<T>): Promise<T>;
  /** Statements that wrote (INSERT, UPDATE, DELETE, DDL) and rows they touched, since opening. */
  readonly writes: { statements: number; rows: number };
  close(): Promise<void>;
}

export class OrgDbError extends Error {}

/** Whether a target names a PostgreSQL server rather than a local PGlite folder. */
export function isServerUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/**
 * Refuses a connection string that carries a password: credentials come from the environment
 * (PGPASSWORD, PGUSER...) or a pgpass file, never from a settings file kept in a repository.
 */
export function checkNoPassword(target: string): void {
  if (!isServerUrl(target)) return;
  // Not WHATWG URL parsing: a socket URL (`postgres://user@/db?host=/run/postgresql`) has no host.
  const userinfo = /^postgres(?:ql)?:\/\/([^@/?#]*)@/i.exec(target)?.[1] ?? '';
  if (userinfo.includes(':') || /[?&]password=/i.test(target)) {
    throw new OrgDbError('the connection string must not contain a password: set PGPASSWORD or use a pgpass file (~/.pgpass or PGPASSFILE)');
  }
}

export interface OpenOptions {
  /** Per-statement limit on a server (statement_timeout), ms. */
  statementTimeoutMs?: number;
  /** Limit on establishing the connection, ms. */
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
}

const WRITE_STATEMENT = /^\s*(insert|update|delete|create|alter|drop|grant|revoke|truncate)\b/i;

/** Opens the organisation index `target`: a postgres:// URL or a folder (created if absent) for PGlite. */
export async function openOrgDb(target: string, options: OpenOptions = {}): Promise<OrgDb> {
  if (isServerUrl(target)) return openServer(target, options);
  return openPglite(resolve(target));
}

interface Raw {
  run(sql: string, params: unknown[]): Promise<{ rows: unknown[]; affected: number }>;
  copy?(sql: string, data: string): Promise<number>;
}

const COPY_FROM_STDIN = /^COPY [a-z_.]+ \([a-z_, ]+\) FROM STDIN$/;

function counted(engine: OrgDb['engine'], raw: Raw, txn: (fn: (raw: Raw) => Promise<unknown>) => Promise<unknown>, close: () => Promise<void>,
  writes = { statements: 0, rows: 0 }): OrgDb {
  const db: OrgDb = {
    engine,
    writes,
    async query<R>(sql: string, params: unknown[] = []) {
      const r = await raw.run(sql, params);
      if (WRITE_STATEMENT.test(sql)) { writes.statements++; writes.rows += r.affected; }
      return r as QueryResult<R>;
    },
    copyFrom: raw.copy && (async (sql: string, data: string) => {
      if (!COPY_FROM_STDIN.test(sql)) throw new OrgDbError(`not a COPY FROM STDIN of named columns: ${sql}`);
      const rows = await raw.copy!(sql, data);
      writes.statements++; writes.rows += rows;
      return rows;
    }),
    transaction<T>(fn: (tx: OrgDb) => Promise<T>) {
      return txn((inner) => fn(counted(engine, inner, () => Promise.reject(new OrgDbError('nested transaction')), async () => {}, writes))) as Promise<T>;
    },
    close,
  };
  return db;
}

async function openPglite(dir: string): Promise<OrgDb> {
  mkdirSync(dir, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  let pg: InstanceType<typeof PGlite>;
  try {
    pg = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } });
  } catch (e) {
    throw new OrgDbError(`cannot open the PGlite index in ${dir}: ${(e as Error).message}`);
  }
  type Q = { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[]; affectedRows?: number }> };
  const rawOf = (q: Q): Raw => ({
    async run(sql, params) {
      const r = await q.query(sql, params);
      return { rows: r.rows, affected: r.affectedRows ?? 0 };
    },
  });
  return counted('pglite', rawOf(pg), (fn) => pg.transaction((tx) => fn(rawOf(tx))), () => pg.close());
}

async function openServer(url: string, options: OpenOptions): Promise<OrgDb> {
  checkNoPassword(url);
  const { Client } = (await import('pg')).default;
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    statement_timeout: options.statementTimeoutMs,
    application_name: options.applicationName ?? 'needle',
    // Compiling these short index lookups costs more than running them.
    options: '-c jit=off',
  });
  // A server going away emits 'error' on an idle client; unhandled, it would end the process.
  let broken: Error | undefined;
  client.on('error', (e) => { broken = e; });
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    throw new OrgDbError(`cannot connect to ${redactUrl(url)}: ${(e as Error).message}`);
  }
  const raw: Raw = {
    async run(sql, params) {
      if (broken) throw new OrgDbError(`connection lost: ${broken.message}`);
      const r = await client.query(sql, params);
      return { rows: r.rows, affected: r.rowCount ?? 0 };
    },
    async copy(sql, data) {
      if (broken) throw new OrgDbError(`connection lost: ${broken.message}`);
      return new Promise<number>((resolve, reject) => { client.query(new CopyIn(sql, data, resolve, reject) as never); });
    },
  };
  let inTxn = false;
  return counted('postgres', raw, async (fn) => {
    if (inTxn) throw new OrgDbError('nested transaction');
    inTxn = true;
    try {
      await client.query('BEGIN');
      try {
        const out = await fn(raw);
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      }
    } finally {
      inTxn = false;
    }
  }, () => client.end().catch(() => {}));
}

/** The protocol side of pg's Connection that a COPY FROM STDIN uses. */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/** Bytes per CopyData message. */
const COPY_CHUNK = 256 * 1024;

/**
 * A COPY FROM STDIN as a query pg's Client runs in its queue (its "submittable" interface, as
 * pg-copy-streams uses): the statement goes out, and at the server's CopyInResponse the data follow
 * in CopyData messages, then CopyDone. Settled once: by the first error, or at ReadyForQuery.
 */
class CopyIn {
  private error: Error | undefined;
  private rows = 0;
  private settled = false;
  constructor(private readonly text: string, private readonly data: string, private readonly resolve: (rows: number) => void, private readonly reject: (e: Error) => void) {}
  submit(connection: CopyConnection): void { connection.query(this.text); }
  handleCopyInResponse(connection: CopyConnection): void {
    const bytes = Buffer.from(this.data, 'utf8');
    for (let at = 0; at < bytes.length; at += COPY_CHUNK) connection.sendCopyFromChunk(bytes.subarray(at, Math.min(bytes.length, at + COPY_CHUNK)));
    connection.endCopyFrom();
  }
  handleCommandComplete(msg: { text?: string }): void { this.rows = Number(/^COPY (\d+)/.exec(msg.text ?? '')?.[1] ?? 0); }
  handleError(e: Error): void {
    this.error ??= e;
    if (!this.settled) { this.settled = true; this.reject(this.error); }
  }
  handleReadyForQuery(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.error) this.reject(this.error); else this.resolve(this.rows);
  }
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** A URL as messages show it: no user information. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}
