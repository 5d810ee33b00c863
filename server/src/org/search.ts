// Queries of the organisation index. Every value is a bound parameter; every ORDER BY ends in
// columns that make the order total (repository name, path, line), so the same question on the
// same database state gets the same answer.

import type { OrgDb } from './db';

export interface RepoHit { id: number; name: string; commit: string | null; golden: boolean; score: number }

/** Weights of the repository ranking: a package the workspace imports counts more than a name the query mentions. */
export const REPO_RANK_WEIGHTS = { importedPackage: 3, identifier: 1, golden: 1 } as const;

/**
 * Repository-level prefiltering (qodo): repositories ranked by how many of the workspace's foreign
 * imported packages they declare and how many of the query's identifiers they declare, golden
 * repositories breaking ties upwards. Only repositories with some evidence are returned.
 */
export async function rankRepositories(db: OrgDb, q: { packages: string[]; identifiers: string[]; excludeRepo?: string; limit: number }): Promise<RepoHit[]> {
  const w = REPO_RANK_WEIGHTS;
  const r = await db.query<{ id: number; name: string; commit: string | null; golden: boolean; score: string }>(
    `WITH pk AS (SELECT repo_id, count(DISTINCT package) AS n FROM needle.decls WHERE package = ANY($1::text[]) GROUP BY repo_id),
          idn AS (SELECT repo_id, count(*) AS n FROM needle.repo_names WHERE lname = ANY($2::text[]) GROUP BY repo_id)
     SELECT r.id, r.name, r.commit, r.golden,
            coalesce(pk.n, 0) * $4::int + coalesce(idn.n, 0) * $5::int + CASE WHEN r.golden THEN $6::int ELSE 0 END AS score
     FROM needle.repos r LEFT JOIN pk ON pk.repo_id = r.id LEFT JOIN idn ON idn.repo_id = r.id
     WHERE (pk.n IS NOT NULL OR idn.n IS NOT NULL) AND r.name IS DISTINCT FROM $3
     ORDER BY score DESC, r.golden DESC, r.name ASC
     LIMIT $7`,
    [q.packages, q.identifiers.map((s) => s.toLowerCase()), q.excludeRepo ?? null, w.importedPackage, w.identifier, w.golden, q.limit]);
  return r.rows.map((x) => ({ id: x.id, name: x.name, commit: x.commit, golden: x.golden, score: Number(x.score) }));
}

export interface DeclHit { repo: string; commit: string | null; golden: boolean; path: string; symbol: string; kind: string; line: number; signature: string; summary: string; description: string }

/** Declarations of the given member keys (`a.B#m`, `a.B`) across visible repositories. */
export async function declarationsOf(db: OrgDb, keys: string[], limit: number): Promise<DeclHit[]> {
  const r = await db.query<DeclHit>(
    `SELECT r.name AS repo, r.commit, r.golden, d.path, d.symbol, d.kind, d.line, d.signature, d.summary, d.description
     FROM needle.decls d JOIN needle.repos r ON r.id = d.repo_id
     WHERE d.member_key = ANY($1::text[])
     ORDER BY r.golden DESC, r.name, d.symbol, d.path LIMIT $2`, [keys, limit]);
  return r.rows;
}

export interface NameHit extends DeclHit { similarity: number }

/** Identifier search by trigram similarity (pg_trgm) on declaration names, within the given repositories. */
export async function declarationsNamed(db: OrgDb, name: string, repoIds: number[], limit: number): Promise<NameHit[]> {
  if (!repoIds.length) return [];
  const r = await db.query<NameHit>(
    `SELECT r.name AS repo, r.commit, r.golden, d.path, d.symbol, d.kind, d.line, d.signature, d.summary, d.description, d.similarity
     FROM needle.search_names($2::int[], $1, $3) d JOIN needle.repos r ON r.id = d.repo_id
     ORDER BY d.similarity DESC, r.golden DESC, r.name, d.symbol, d.path`, [name, repoIds, limit]);
  return r.rows.map((x) => ({ ...x, similarity: Number(x.similarity) }));
}

export interface ChunkHit { repo: string; commit: string | null; golden: boolean; path: string; startLine: number; endLine: number; kind: string; symbol: string | null; header: string | null; text: string; flags: string[]; rank: number }

/** Words a tsquery may hold: lower-case letters and digits only, so no query text is ever syntax. */
export function queryWords(words: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const w of words) {
    const clean = w.toLowerCase().replace(/[^a-z0-9_]/g, '');
    if (clean.length >= 2) out.add(clean);
  }
  return [...out].sort();
}

/** Full-text search (tsvector, ts_rank) of chunks within the given repositories; any word may match. */
export async function searchChunks(db: OrgDb, repoIds: number[], words: string[], limit: number): Promise<ChunkHit[]> {
  const terms = queryWords(words);
  if (!terms.length || !repoIds.length) return [];
  const r = await db.query<{ repo: string; commit: string | null; golden: boolean; path: string; start_line: number; end_line: number; kind: string; symbol: string | null; header: string | null; text: string; flags: string[]; rank: number }>(
    `SELECT r.name AS repo, r.commit, r.golden, c.path, c.start_line, c.end_line, c.kind, c.symbol, c.header, c.text, c.flags, c.rank
     FROM needle.search_chunks($1::int[], to_tsquery('simple', array_to_string($2::text[], ' | ')), $3) c JOIN needle.repos r ON r.id = c.repo_id
     ORDER BY c.rank DESC, r.golden DESC, r.name, c.path, c.start_line`, [repoIds, terms, limit]);
  return r.rows.map((x) => ({ repo: x.repo, commit: x.commit, golden: x.golden, path: x.path, startLine: x.start_line, endLine: x.end_line, kind: x.kind, symbol: x.symbol, header: x.header, text: x.text, flags: x.flags, rank: Number(x.rank) }));
}

export interface UsageHit { repo: string; commit: string | null; golden: boolean; path: string; line: number; fromSymbol: string; target: string; site: string }

/**
 * Usage sites of the given targets (full symbol ids or member keys) in repositories other than
 * `excludeRepo`, golden repositories first; at most `perTarget` sites per target and repository.
 */
export async function usageExamples(db: OrgDb, targets: string[], excludeRepo: string | undefined, perTarget: number, limit: number): Promise<UsageHit[]> {
  if (!targets.length) return [];
  const r = await db.query<{ repo: string; commit: string | null; golden: boolean; path: string; line: number; from_symbol: string; target: string; site: string }>(
    `SELECT repo, commit, golden, path, line, from_symbol, target, site FROM (
       SELECT r.name AS repo, r.commit, r.golden, u.path, u.line, u.from_symbol, u.target, u.site,
              row_number() OVER (PARTITION BY u.target, r.name ORDER BY u.path, u.line, u.col) AS k
       FROM needle.usages u JOIN needle.repos r ON r.id = u.repo_id
       WHERE u.target = ANY($1::text[]) AND r.name IS DISTINCT FROM $2 ) s
     WHERE k <= $3
     ORDER BY golden DESC, repo, path, line, target LIMIT $4`, [targets, excludeRepo ?? null, perTarget, limit]);
  return r.rows.map((x) => ({ repo: x.repo, commit: x.commit, golden: x.golden, path: x.path, line: x.line, fromSymbol: x.from_symbol, target: x.target, site: x.site }));
}

export interface TypeFileHit { repo: string; commit: string | null; golden: boolean; path: string; symbol: string; text: string }

/** Top-level type declarations: the symbol is the package's name and the type's (or the name alone in the default package). */
const TOP_LEVEL_TYPE = `d.kind = ANY(ARRAY['class', 'interface', 'enum', 'record', 'annotation'])
  AND d.symbol = CASE WHEN d.package = '' THEN d.name ELSE d.package || '.' || d.name END`;

/**
 * The files (with their published text) that declare the top-level types `types` (qualified) or
 * any top-level type of `packages`, in repositories other than `excludeRepo`; for a type several
 * repositories declare, golden repositories first, then by name.
 */
export async function typeFiles(db: OrgDb, q: { types: string[]; packages: string[]; excludeRepo?: string; limit: number }): Promise<TypeFileHit[]> {
  if (!q.types.length && !q.packages.length) return [];
  const r = await db.query<TypeFileHit>(
    `SELECT r.name AS repo, r.commit, r.golden, f.path, d.symbol, f.text
     FROM needle.decls d JOIN needle.repos r ON r.id = d.repo_id JOIN needle.files f ON f.repo_id = d.repo_id AND f.path = d.path
     WHERE (d.member_key = ANY($1::text[]) OR d.package = ANY($2::text[])) AND ${TOP_LEVEL_TYPE}
       AND f.text IS NOT NULL AND r.name IS DISTINCT FROM $3
     ORDER BY d.symbol, r.golden DESC, r.name, f.path LIMIT $4`, [q.types, q.packages, q.excludeRepo ?? null, q.limit]);
  return r.rows;
}

/** Qualified names of every top-level type the visible repositories declare in `packages`, sorted. */
export async function topLevelTypesIn(db: OrgDb, packages: string[], excludeRepo?: string): Promise<string[]> {
  if (!packages.length) return [];
  const r = await db.query<{ symbol: string }>(
    `SELECT DISTINCT d.symbol FROM needle.decls d JOIN needle.repos r ON r.id = d.repo_id
     WHERE d.package = ANY($1::text[]) AND ${TOP_LEVEL_TYPE} AND r.name IS DISTINCT FROM $2 ORDER BY d.symbol`, [packages, excludeRepo ?? null]);
  return r.rows.map((x) => x.symbol);
}
