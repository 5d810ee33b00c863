// The organisation index's schema, created and migrated by Needle itself. `needle.schema_version`
// says which migrations have run; a database written by a newer Needle is refused before anything
// is written, since this Needle cannot know what the newer schema means.
//
// Visibility is enforced by PostgreSQL (row-level security), not by our queries: a reader role sees
// a repository when its label is 'public' or when `needle.label_readers` lets a role it belongs to
// read that label. The publishing role owns the tables and so is not subject to the policies.

import { OrgDbError, type OrgDb } from './db';

export const SCHEMA_VERSION = 2;

export class SchemaTooNewError extends OrgDbError {}
export class SchemaMissingError extends OrgDbError {}

/** Rows of a repository's facts live in these tables, each with `repo_id` and `path`. */
/** GIN indexes whose pending entries a publish merges before it commits (a search never scans a long pending list). */
export const GIN_INDEXES = ['needle.decls_name_trgm', 'needle.decls_tsv', 'needle.chunk_terms_tsv'] as const;

export const FACT_TABLES = ['needle.decls', 'needle.usages', 'needle.imports', 'needle.chunks', 'needle.chunk_terms'] as const;

const visibleRepo = (who: string, repo: string) => `${repo}.visibility = 'public' OR EXISTS (
  SELECT 1 FROM needle.label_readers lr JOIN pg_roles ro ON ro.rolname = lr.reader
  WHERE lr.label = ${repo}.visibility AND pg_has_role(${who}, ro.oid, 'MEMBER'))`;

/**
 * Full-text (@@) and trigram (%) matching are not leakproof, so under row-level security PostgreSQL
 * evaluates them only after the policies, row by row, never through their GIN indexes. These two
 * searches therefore run as functions owned by the publishing role (SECURITY DEFINER, fixed
 * search_path, no caller-supplied SQL) that apply the same visibility rule themselves, for the
 * role that logged in (session_user), and then use the indexes.
 */
const SEARCH_FUNCTIONS = [
  `CREATE FUNCTION needle.visible_repo_ids() RETURNS SETOF integer LANGUAGE sql STABLE SECURITY DEFINER
   SET search_path = pg_catalog, needle AS $$
   SELECT r.id FROM needle.repos r WHERE ${visibleRepo('session_user', 'r')} $$`,
  `CREATE FUNCTION needle.search_chunks(repo_ids integer[], q tsquery, lim integer)
   RETURNS TABLE (repo_id integer, path text, start_line integer, end_line integer, kind text, symbol text, header text, text text, flags text[], rank real)
   LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, needle AS $$
   SELECT c.repo_id, c.path, c.start_line, c.end_line, c.kind, c.symbol, c.header, c.text, c.flags, ts_rank(c.tsv, q)
   FROM needle.chunks c
   WHERE c.tsv @@ q AND c.repo_id = ANY(repo_ids) AND c.repo_id IN (SELECT needle.visible_repo_ids())
   ORDER BY 10 DESC, c.repo_id, c.path, c.start_line LIMIT lim $$`,
  `CREATE FUNCTION needle.search_names(repo_ids integer[], name text, lim integer)
   RETURNS TABLE (repo_id integer, path text, symbol text, kind text, line integer, signature text, summary text, description text, similarity real)
   LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, needle AS $$
   SELECT d.repo_id, d.path, d.symbol, d.kind, d.line, d.signature, d.summary, d.description, similarity(d.name, search_names.name)
   FROM needle.decls d
   WHERE d.name % search_names.name AND d.repo_id = ANY(repo_ids) AND d.repo_id IN (SELECT needle.visible_repo_ids())
   ORDER BY 9 DESC, d.repo_id, d.symbol, d.path LIMIT lim $$`,
];

/** Migration n brings the schema from version n-1 to n. */
const MIGRATIONS: string[][] = [
  [
    `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
    `CREATE TABLE needle.repos (
      id serial PRIMARY KEY,
      name text NOT NULL UNIQUE,
      commit text,
      default_branch text,
      golden boolean NOT NULL DEFAULT false,
      visibility text NOT NULL DEFAULT 'public',
      files integer NOT NULL DEFAULT 0,
      published_at timestamptz)`,
    `CREATE TABLE needle.files (
      repo_id integer NOT NULL REFERENCES needle.repos(id) ON DELETE CASCADE,
      path text NOT NULL,
      hash text NOT NULL,
      source_key text NOT NULL,
      digest text NOT NULL,
      PRIMARY KEY (repo_id, path))`,
    `CREATE TABLE needle.decls (
      repo_id integer NOT NULL REFERENCES needle.repos(id) ON DELETE CASCADE,
      path text NOT NULL,
      symbol text NOT NULL,
      -- the symbol without its parameter list: what a reference from another repository names
      member_key text NOT NULL,
      kind text NOT NULL,
      name text NOT NULL,
      -- lower(name), stored: under row-level security only leakproof comparisons may use an index
      lname text NOT NULL,
      package text NOT NULL,
      line integer NOT NULL,
      signature text NOT NULL,
      summary text NOT NULL,
      description text NOT NULL,
      -- identifier words of name and summary (publish computes them; the words themselves are not kept)
      tsv tsvector NOT NULL)`,
    `CREATE INDEX decls_file ON needle.decls (repo_id, path)`,
    `CREATE INDEX decls_member_key ON needle.decls (member_key)`,
    `CREATE INDEX decls_package ON needle.decls (package, repo_id)`,
    `CREATE INDEX decls_lname ON needle.decls (lname, repo_id)`,
    `CREATE INDEX decls_name_trgm ON needle.decls USING gin (name gin_trgm_ops)`,
    `CREATE INDEX decls_tsv ON needle.decls USING gin (tsv)`,
    // A usage site: a resolved reference edge (target = the declaration's symbol id), or a reference
    // into a type the repository imports but does not declare (foreign; target = the imported name#member).
    `CREATE TABLE needle.usages (
      repo_id integer NOT NULL REFERENCES needle.repos(id) ON DELETE CASCADE,
      path text NOT NULL,
      line integer NOT NULL,
      col integer NOT NULL,
      from_symbol text NOT NULL,
      target text NOT NULL,
      name text NOT NULL,
      kind text NOT NULL,
      site text NOT NULL,
      is_foreign boolean NOT NULL)`,
    `CREATE INDEX usages_file ON needle.usages (repo_id, path)`,
    `CREATE INDEX usages_target ON needle.usages (target)`,
    `CREATE TABLE needle.imports (
      repo_id integer NOT NULL REFERENCES needle.repos(id) ON DELETE CASCADE,
      path text NOT NULL,
      name text NOT NULL)`,
    `CREATE INDEX imports_file ON needle.imports (repo_id, path)`,
    `CREATE INDEX imports_name ON needle.imports (name)`,
    `CREATE TABLE needle.chunks (
      repo_id integer NOT NULL REFERENCES needle.repos(id) ON DELETE CASCADE,
      path text NOT NULL,
      start_line integer NOT NULL,
      end_line integer NOT NULL,
      kind text NOT NULL,
      symbol text,
      header text,
      text text NOT NULL,
      flags text[] NOT NULL,
      tsv tsvector NOT NULL)`,
    `CREATE INDEX chunks_file ON needle.chunks (repo_id, path)`,
    `CREATE INDEX chunks_tsv ON needle.chunks USING gin (tsv)`,
    `CREATE TABLE needle.label_readers (label text NOT NULL, reader name NOT NULL, PRIMARY KEY (label, reader))`,
    `ALTER TABLE needle.repos ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY visible ON needle.repos AS PERMISSIVE FOR SELECT USING (${visibleRepo('current_user', 'repos')})`,
    ...['files', 'decls', 'usages', 'imports', 'chunks'].flatMap((t) => [
      `ALTER TABLE needle.${t} ENABLE ROW LEVEL SECURITY`,
      // The subquery reads needle.repos under the reader's own policy: rows of hidden repositories vanish too.
      `CREATE POLICY visible ON needle.${t} FOR SELECT USING (EXISTS (SELECT 1 FROM needle.repos r WHERE r.id = repo_id))`,
    ]),
    ...SEARCH_FUNCTIONS,
  ],
  [
    // A Java file's whole (vetted) text: another repository's workspace reads the types it needs
    // from it as read-only library code (org/library.ts), like an internal jar with sources.
    `ALTER TABLE needle.files ADD COLUMN text text`,
    // The chunk search ranks thousands of matches in a large repository: it reads a narrow table
    // (position and words), then fetches the text of the few it keeps. (seq: the chunk's place in its file.)
    // A version-1 index is emptied of its rows (not of its repositories): each one's next publish writes them again.
    ...['decls', 'usages', 'imports', 'chunks', 'files'].map((t) => `DELETE FROM needle.${t}`),
    `ALTER TABLE needle.chunks DROP COLUMN tsv`,
    `ALTER TABLE needle.chunks ADD COLUMN seq integer NOT NULL`,
    `CREATE UNIQUE INDEX chunks_key ON needle.chunks (repo_id, path, seq)`,
    `CREATE TABLE needle.chunk_terms (
      repo_id integer NOT NULL REFERENCES needle.repos(id) ON DELETE CASCADE,
      path text NOT NULL,
      seq integer NOT NULL,
      start_line integer NOT NULL,
      tsv tsvector NOT NULL)`,
    `CREATE INDEX chunk_terms_file ON needle.chunk_terms (repo_id, path)`,
    `CREATE INDEX chunk_terms_tsv ON needle.chunk_terms USING gin (tsv)`,
    `ALTER TABLE needle.chunk_terms ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY visible ON needle.chunk_terms FOR SELECT USING (EXISTS (SELECT 1 FROM needle.repos r WHERE r.id = repo_id))`,
    // The repository prefilter counts the query's identifiers each repository declares: one row per
    // repository and distinct lower-case name (publish.ts refreshes a repository's rows), not one per declaration.
    `CREATE TABLE needle.repo_names (
      repo_id integer NOT NULL REFERENCES needle.repos(id) ON DELETE CASCADE,
      lname text NOT NULL,
      PRIMARY KEY (lname, repo_id))`,
    `CREATE INDEX repo_names_repo ON needle.repo_names (repo_id)`,
    `ALTER TABLE needle.repo_names ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY visible ON needle.repo_names FOR SELECT USING (EXISTS (SELECT 1 FROM needle.repos r WHERE r.id = repo_id))`,
    `CREATE OR REPLACE FUNCTION needle.search_chunks(repo_ids integer[], q tsquery, lim integer)
     RETURNS TABLE (repo_id integer, path text, start_line integer, end_line integer, kind text, symbol text, header text, text text, flags text[], rank real)
     LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, needle AS $$
     WITH top AS (
       SELECT t.repo_id, t.path, t.seq, t.start_line, ts_rank(t.tsv, q) AS rank
       FROM needle.chunk_terms t
       WHERE t.tsv @@ q AND t.repo_id = ANY(repo_ids) AND t.repo_id IN (SELECT needle.visible_repo_ids())
       ORDER BY 5 DESC, t.repo_id, t.path, t.start_line, t.seq LIMIT lim)
     SELECT c.repo_id, c.path, c.start_line, c.end_line, c.kind, c.symbol, c.header, c.text, c.flags, top.rank
     FROM top JOIN needle.chunks c ON c.repo_id = top.repo_id AND c.path = top.path AND c.seq = top.seq
     ORDER BY 10 DESC, c.repo_id, c.path, c.start_line, c.seq $$`,
  ],
];

/** The version recorded in the database; 0 when Needle never wrote there. Reads only. */
export async function schemaVersionOf(db: OrgDb): Promise<number> {
  const present = await db.query<{ present: boolean }>(`SELECT to_regclass('needle.schema_version') IS NOT NULL AS present`);
  if (!present.rows[0]?.present) return 0;
  const v = await db.query<{ version: number | null }>(`SELECT max(version) AS version FROM needle.schema_version`);
  return Number(v.rows[0]?.version ?? 0);
}

function tooNew(found: number): SchemaTooNewError {
  return new SchemaTooNewError(`the organisation index has schema version ${found}, written by a newer Needle; this Needle knows versions up to ${SCHEMA_VERSION}: upgrade Needle (nothing was written)`);
}

/** Creates or migrates the schema to SCHEMA_VERSION (the publishing side). Throws SchemaTooNewError before any write. */
export async function ensureSchema(db: OrgDb): Promise<void> {
  const found = await schemaVersionOf(db);
  if (found > SCHEMA_VERSION) throw tooNew(found);
  if (found === SCHEMA_VERSION) return;
  await db.transaction(async (tx) => {
    // Two publishers migrating at once: the second waits here, then finds the work done.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('needle.schema'))`);
    const now = await schemaVersionOf(tx);
    if (now > SCHEMA_VERSION) throw tooNew(now);
    if (now === 0) {
      await tx.query(`CREATE SCHEMA IF NOT EXISTS needle`);
      await tx.query(`CREATE TABLE needle.schema_version (version integer NOT NULL, written_by text NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
    }
    for (let v = now + 1; v <= SCHEMA_VERSION; v++) {
      for (const sql of MIGRATIONS[v - 1]) await tx.query(sql);
      await tx.query(`INSERT INTO needle.schema_version (version, written_by) VALUES ($1, $2)`, [v, 'needle']);
    }
  });
}

/** The reading side: the schema must be exactly this Needle's. */
export async function checkSchemaForRead(db: OrgDb): Promise<void> {
  const found = await schemaVersionOf(db);
  if (found === 0) throw new SchemaMissingError('the organisation index is empty: run `needle publish` first');
  if (found > SCHEMA_VERSION) throw tooNew(found);
  if (found < SCHEMA_VERSION) throw new SchemaMissingError(`the organisation index has schema version ${found}; publish once with this Needle to migrate it to ${SCHEMA_VERSION}`);
}
