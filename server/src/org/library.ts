// Symbols the workspace cannot resolve that another repository of the organisation declares: the
// org index gives the published (vetted) text of the files that declare them, written once to a
// read-only cache folder named by repository and commit and indexed as internal library code, like
// an internal jar with sources (deps/library.ts). From there they are ordinary index symbols: they
// resolve, enter D̂(q), coverage and novelty as internal code, are shown in the context under a
// path that names the repository and commit, and check_code knows them.
//
// What is loaded follows the workspace's reach the way jars do: the types its imports name, the
// packages it imports on demand, then what those files need (deps/library.ts addNeeds). Types the
// index already declares (workspace code, jars) are never loaded; the workspace's own repository
// is left out. A slow or unreachable database skips the load and says so; indexing goes on.

import { join } from 'node:path';
import type { FileFacts } from '../java/facts';
import { addNeeds, MAX_ROUNDS, writeReadOnly, type Reach } from '../deps/library';
import { topLevelTypesIn, typeFiles, type TypeFileHit } from './search';
import { checkNoPassword, redactUrl, type OrgDb } from './db';
import { connectOrgIndex, dropOrgConnection, ORG_LIMITS } from './recall';

export interface OrgLibraryFile {
  path: string;
  text: string;
  /** The repository's cache folder: the file's index root. */
  root: string;
  repository: string;
  commit: string | null;
  /** How the library mark names it: `org <repository>@<commit>`. */
  label: string;
}

export interface OrgLoad {
  files: OrgLibraryFile[];
  facts: Map<string, FileFacts>;
  /** Every top-level type the visible repositories declare in the packages loaded from (`a/b/C`, sorted): real APIs not loaded. */
  listing: string[];
  repositories: string[];
  ms: number;
  /** Set when the org index could not be read: why. */
  skipped?: string;
  /** Files refused (a path that is no Java source path). */
  problems: { path: string; reason: string }[];
}

export interface OrgLoadRequest {
  reach: Reach;
  /** Whether the index already declares this qualified type (workspace code or a jar). */
  declared: (qualified: string) => boolean;
  cacheRoot: string;
  factsOf: (text: string, path: string) => Promise<FileFacts>;
  /** The workspace's own repository name: never loaded from the org index. */
  excludeRepo?: string;
}

/** Files per round at most (a workspace importing a whole platform still gets a bounded load). */
const MAX_FILES_PER_ROUND = 2000;

const SEGMENT = /^[A-Za-z0-9_$][A-Za-z0-9_$.-]*$/;

/** A published path as a relative path of safe segments ending in .java; undefined when it is not one. */
export function safeJavaPath(path: string): string[] | undefined {
  const parts = path.split('/');
  if (!path.endsWith('.java') || parts.some((p) => !SEGMENT.test(p) || p === '.' || p === '..')) return undefined;
  return parts;
}

/** The cache folder of one repository at one commit. */
export function orgLibraryRoot(cacheRoot: string, repo: string, commit: string | null): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80);
  return join(cacheRoot, 'org', `${safe(repo)}@${commit ? safe(commit.slice(0, 12)) : 'unversioned'}`);
}

/** `a.b.C.D` → `a.b.C.D`, `a.b.C`, `a.b`: the names a nested or qualified reference may mean as a top-level type. */
function prefixes(name: string): string[] {
  const out: string[] = [];
  for (let n = name; n.includes('.'); n = n.slice(0, n.lastIndexOf('.'))) out.push(n);
  return out;
}

/** Loads the org types `req` reaches from `db` (throws on a database error; the caller bounds and reports it). */
export async function loadOrgTypes(db: OrgDb, req: OrgLoadRequest): Promise<OrgLoad> {
  const started = performance.now();
  const files: OrgLibraryFile[] = [];
  const facts = new Map<string, FileFacts>();
  const problems: OrgLoad['problems'] = [];
  const taken = new Set<string>();
  const repositories = new Set<string>();
  const packagesLoaded = new Set<string>();
  let wanted = req.reach;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const types = [...new Set([...wanted.types].flatMap(prefixes))].filter((t) => !taken.has(t) && !req.declared(t)).sort();
    const packages = [...wanted.packages].sort();
    const hits = await typeFiles(db, { types, packages, excludeRepo: req.excludeRepo, limit: MAX_FILES_PER_ROUND });
    const next: Reach = { types: new Set(), packages: new Set() };
    let any = false;
    const seenFile = new Set<string>();
    for (const h of hits) {
      if (taken.has(h.symbol) || req.declared(h.symbol)) continue;
      taken.add(h.symbol);
      const key = `${h.repo}\0${h.path}`;
      if (seenFile.has(key)) continue; // two top-level types of one file
      seenFile.add(key);
      const file = take(h, req, problems);
      if (!file) continue;
      const f = await req.factsOf(file.text, file.path);
      facts.set(file.path, f);
      files.push(file);
      repositories.add(h.repo);
      packagesLoaded.add(f.package);
      for (const s of f.symbols) if (s.parent === -1) taken.add(s.id);
      any = true;
      addNeeds(next, f, round);
    }
    if (!any) break;
    wanted = next;
  }
  const listing = (await topLevelTypesIn(db, [...packagesLoaded].sort(), req.excludeRepo)).map((t) => t.replaceAll('.', '/')).sort();
  return { files, facts, listing, repositories: [...repositories].sort(), ms: performance.now() - started, problems };
}

function take(h: TypeFileHit, req: OrgLoadRequest, problems: OrgLoad['problems']): OrgLibraryFile | undefined {
  const parts = safeJavaPath(h.path);
  if (!parts) { problems.push({ path: `${h.repo}:${h.path}`, reason: 'not a Java source path; not loaded from the org index' }); return undefined; }
  const root = orgLibraryRoot(req.cacheRoot, h.repo, h.commit);
  const path = join(root, ...parts);
  writeReadOnly(path, h.text);
  return { path, text: h.text, root, repository: h.repo, commit: h.commit, label: `org ${h.repo}@${h.commit ? h.commit.slice(0, 12) : 'unversioned'}` };
}

/** Loads through the kept connection to `target`, or skips (never throws) past `timeoutMs` or on any failure. */
export type OrgTypeLoader = (req: OrgLoadRequest) => Promise<OrgLoad>;

export function orgTypeLoader(target: string, timeoutMs: number = ORG_LIMITS.loadTimeoutMs): OrgTypeLoader {
  return async (req) => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      checkNoPassword(target);
      const work = connectOrgIndex(target).then((db) => loadOrgTypes(db, req));
      const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs); });
      return await Promise.race([work, deadline]);
    } catch (e) {
      dropOrgConnection(target);
      return { files: [], facts: new Map(), listing: [], repositories: [], problems: [], ms: performance.now() - started, skipped: `org index ${redactUrl(target)} skipped: ${(e as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * Start-up of a server configured with an org index (`needle.orgIndex`, NEEDLE_ORG_INDEX): the
 * connection is opened now, in the background, so the first request finds it ready, and the folders
 * indexed from now on take their org types from it. Nothing when `target` is unset.
 */
export function useOrgIndex(indexer: { setOrgLibrary(loader: OrgTypeLoader | undefined): void }, target: string | undefined, log?: (m: string) => void): void {
  indexer.setOrgLibrary(target ? orgTypeLoader(target) : undefined);
  if (!target) return;
  connectOrgIndex(target).then(
    () => log?.(`org index ${redactUrl(target)} connected`),
    (e) => log?.(`org index ${redactUrl(target)} not connected: ${(e as Error).message}; retrieval will say the org source was skipped`),
  );
}
