// The org recall source: what other repositories of the organisation know about the cursor's
// method, as a separate, labelled part of the context. A plain function of the question and a
// connection, bounded by a timeout: a slow or unreachable database never delays or breaks
// retrieval, it only makes the answer say that the org source was skipped.

import { basename } from 'node:path';
import type { OrgContext, OrgContextItem } from '../../../shared/protocol';
import type { PipelineRequest } from '../retrieval/request';
import { countTokens } from '../retrieval/cap';
import { perIndexVersion } from '../retrieval/symbols';
import { identifierFamiliarity, partFamiliarity } from '../gate/lexicon';
import { identifiersIn, splitIdentifier } from '../text/identifiers';
import { vetText } from '../vetting';
import { checkNoPassword, openOrgDb, redactUrl, type OrgDb } from './db';
import { foreignUsages, memberKey } from './facts';
import { checkSchemaForRead } from './schema';
import { declarationsNamed, declarationsOf, rankRepositories, searchChunks, usageExamples } from './search';

export interface OrgQuery {
  /** Packages the workspace imports but does not declare (another repository's API). */
  packages: string[];
  /** Identifiers of the cursor's method and the task text. */
  identifiers: string[];
  /** What the cursor's method references in foreign types: `a.B#m` member keys and `a.B` types. */
  targets: string[];
  /** The workspace's own repository, left out of examples. */
  excludeRepo?: string;
}

export const ORG_LIMITS = {
  /** Repositories searched after prefiltering. */
  repositories: 3,
  declarations: 8,
  /** Usage sites per API and repository, and in all. */
  usagesPerTarget: 2,
  usages: 6,
  chunks: 4,
  /** Share of the request's token budget the org part may use, on top of the local context. */
  budgetShare: 0.25,
  timeoutMs: 1500,
  /** Loading the org types a folder reaches (org/library.ts): a background step of indexing, so a longer bound. */
  loadTimeoutMs: 10_000,
} as const;

const KEYWORDS = new Set(['abstract', 'boolean', 'break', 'byte', 'case', 'catch', 'char', 'class', 'continue', 'default', 'do', 'double', 'else', 'enum', 'extends', 'final', 'finally', 'float', 'for', 'if', 'implements', 'import', 'instanceof', 'int', 'interface', 'long', 'new', 'null', 'package', 'private', 'protected', 'public', 'return', 'short', 'static', 'super', 'switch', 'this', 'throw', 'throws', 'try', 'void', 'while', 'true', 'false', 'var', 'String', 'Object']);
const MAX_IDENTIFIERS = 40;
const PLATFORM = /^(java|javax|jdk|sun)\./;

/** Packages imported somewhere in the workspace that no workspace file declares, sorted. */
const foreignPackages = perIndexVersion((index) => {
  const declared = new Set<string>();
  const imported = new Set<string>();
  for (const f of index.allFiles()) {
    declared.add(f.facts.package);
    for (const i of f.facts.imports) {
      if (PLATFORM.test(i.name)) continue;
      const pkg = i.wildcard ? i.name : i.static ? i.name.split('.').slice(0, -2).join('.') : i.name.slice(0, Math.max(0, i.name.lastIndexOf('.')));
      if (pkg) imported.add(pkg);
    }
  }
  return [...imported].filter((p) => !declared.has(p)).sort();
});

/** The org question for a retrieval request: built from the index and the cursor's file alone. */
export function orgQueryOf(req: PipelineRequest): OrgQuery {
  const file = req.index.file(req.path);
  const text = req.textOf(req.path) ?? '';
  const enclosing = req.index.enclosingSymbol(req.path, req.position.line, req.position.character);
  const lines = text.split('\n');
  const span = enclosing?.sym.span ?? { sl: 0, el: lines.length - 1 };
  const ids = new Set<string>();
  for (const id of identifiersIn(lines.slice(span.sl, span.el + 1).join('\n') + '\n' + (req.query ?? ''))) {
    if (id.length >= 3 && !KEYWORDS.has(id)) ids.add(id);
  }
  const targets = new Set<string>();
  if (file) {
    for (const u of foreignUsages(req.index, file.facts, text, file.hash)) {
      if (u.line < span.sl || u.line > span.el) continue;
      targets.add(u.target);
      if (u.target.includes('#')) targets.add(u.target.slice(0, u.target.indexOf('#')));
    }
  }
  return {
    packages: foreignPackages(req.index),
    identifiers: [...ids].sort().slice(0, MAX_IDENTIFIERS),
    targets: [...targets].sort(),
    excludeRepo: req.roots[0] ? basename(req.roots[0]) : undefined,
  };
}

/**
 * Connections kept per target, opened on first use (or by connectOrgIndex at start-up). Opening
 * continues in the background past a request's timeout (PGlite takes seconds to start), so a
 * later request finds it ready; a connection that failed or timed out mid-query is dropped.
 */
const connections = new Map<string, { db: Promise<OrgDb>; ready: boolean }>();

/** The kept connection to `target`, opening it if needed; resolves once its schema is checked. */
export function connectOrgIndex(target: string, timeoutMs: number = ORG_LIMITS.timeoutMs): Promise<OrgDb> {
  let c = connections.get(target);
  if (!c) {
    const entry = { ready: false, db: undefined as unknown as Promise<OrgDb> };
    entry.db = openOrgDb(target, { connectTimeoutMs: Math.max(timeoutMs, 5000), statementTimeoutMs: timeoutMs, applicationName: 'needle' }).then(async (db) => {
      try {
        await checkSchemaForRead(db);
      } catch (e) {
        await db.close();
        throw e;
      }
      entry.ready = true;
      return db;
    });
    entry.db.catch(() => { if (connections.get(target) === entry) connections.delete(target); });
    connections.set(target, (c = entry));
  }
  return c.db;
}

/** Drops a connection that failed or timed out mid-query (kept while it is still opening). */
export function dropOrgConnection(target: string): void {
  const c = connections.get(target);
  if (!c?.ready) return; // still opening (kept) or already gone
  connections.delete(target);
  c.db.then((db) => db.close(), () => {});
}

/** Closes every kept connection (server shutdown, tests). */
export async function closeOrgConnections(): Promise<void> {
  const all = [...connections.values()];
  connections.clear();
  await Promise.all(all.map((c) => c.db.then((db) => db.close(), () => {})));
}

function item(kind: OrgContextItem['kind'], h: { repo: string; commit: string | null; golden: boolean; path: string }, line: number, endLine: number, text: string, symbol?: string, flags: string[] = []): OrgContextItem {
  // Published text was vetted when it was published; it is vetted again here, as any retrieved text is.
  const v = vetText(text);
  const allFlags = [...new Set([...flags, ...v.flags])].sort();
  return { kind, repository: h.repo, commit: h.commit, golden: h.golden, path: h.path, line, endLine, symbol, text: v.text, tokens: countTokens(v.text), untrusted: true, ...(allFlags.length ? { flags: allFlags } : {}) };
}

/**
 * Words of the chunk search: whole identifiers (lower case) that public Java code does not make
 * common (the public-prior lexicon of the gate: `Override`, `toString`, `IOException` are in most of
 * the JDK's files) and that are either compounds or rare single words. A common word matches most
 * chunks of a large repository, and ranking every match costs more than the query may take.
 */
const COMMON_IDENTIFIER = 0.75;
const COMMON_WORD = 0.5;

export function searchTerms(identifiers: string[]): string[] {
  return identifiers.filter((id) => {
    if (identifierFamiliarity(id) >= COMMON_IDENTIFIER) return false;
    const parts = splitIdentifier(id);
    return parts.length >= 2 || (parts.length === 1 && partFamiliarity(parts[0]) < COMMON_WORD);
  }).map((id) => id.toLowerCase());
}

/**
 * What the org index knows for `q`: declarations of the foreign APIs the method uses (by exact
 * member key, else by a similar name in the top repositories), usage examples of them from other
 * repositories (golden first), and chunks of the top repositories that share the method's identifiers.
 */
export async function orgItems(db: OrgDb, q: OrgQuery, onStage?: (stage: string, ms: number) => void): Promise<{ items: OrgContextItem[]; repositories: string[] }> {
  const L = ORG_LIMITS;
  let t = performance.now();
  const stage = (name: string) => { const now = performance.now(); onStage?.(name, now - t); t = now; };
  const repos = await rankRepositories(db, { packages: q.packages, identifiers: q.identifiers, excludeRepo: q.excludeRepo, limit: L.repositories });
  stage('rank repositories');
  const repoIds = repos.map((r) => r.id);
  const decls = q.targets.length ? await declarationsOf(db, q.targets, L.declarations) : [];
  stage('declarations');
  const declared = new Set(decls.map((d) => memberKey(d.symbol)));
  const items: OrgContextItem[] = decls.map((d) => item('declaration', d, d.line, d.line, (d.summary ? `/** ${d.summary} */\n` : '') + d.signature, d.symbol));
  // A member the exact lookup missed (a wrong receiver type, a renamed method): the closest names.
  for (const t of q.targets.filter((t) => t.includes('#') && !declared.has(t))) {
    for (const d of await declarationsNamed(db, t.slice(t.indexOf('#') + 1), repoIds, 2)) {
      if (!declared.has(memberKey(d.symbol)) && items.length < L.declarations) {
        declared.add(memberKey(d.symbol));
        items.push(item('declaration', d, d.line, d.line, (d.summary ? `/** ${d.summary} */\n` : '') + d.signature, d.symbol));
      }
    }
  }
  stage('similar names');
  const usageTargets = [...new Set([...q.targets.filter((t) => t.includes('#')), ...decls.map((d) => d.symbol)])].sort();
  for (const u of await usageExamples(db, usageTargets, q.excludeRepo, L.usagesPerTarget, L.usages)) {
    items.push(item('usage', u, u.line, u.line, u.site, memberKey(u.target)));
  }
  stage('usage examples');
  for (const c of await searchChunks(db, repoIds, searchTerms(q.identifiers), L.chunks)) {
    items.push(item('chunk', c, c.startLine, c.endLine, c.text, c.symbol ?? undefined, c.flags));
  }
  stage('chunk search');
  return { items, repositories: repos.map((r) => r.name) };
}

/** Keeps items in order while they fit `budget` tokens. */
function fitted(items: OrgContextItem[], budget: number): OrgContextItem[] {
  const out: OrgContextItem[] = [];
  let used = 0;
  for (const it of items) {
    if (used + it.tokens > budget) continue;
    out.push(it);
    used += it.tokens;
  }
  return out;
}

class Timeout extends Error {}

/** The org part for a retrieval request: its question built from the request, then orgRecall; never throws. */
export async function orgContextFor(req: PipelineRequest, target: string): Promise<OrgContext> {
  let q: OrgQuery;
  try {
    q = orgQueryOf(req);
  } catch (e) {
    return { items: [], repositories: [], tokens: 0, ms: 0, skipped: `org index skipped: ${(e as Error).message}` };
  }
  return orgRecall(q, { target, budgetTokens: req.budgetTokens });
}

/**
 * The org part of a retrieval: never throws. On a timeout, a refused connection or a schema this
 * Needle cannot read, it answers no items and says why the org source was skipped.
 */
export async function orgRecall(q: OrgQuery, options: { target: string; budgetTokens: number; timeoutMs?: number }): Promise<OrgContext> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? ORG_LIMITS.timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  try {
    checkNoPassword(options.target);
    const work = connectOrgIndex(options.target, timeoutMs).then((db) => orgItems(db, q));
    const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Timeout()), timeoutMs); });
    const found = await Promise.race([work, deadline]);
    const items = fitted(found.items, Math.floor(options.budgetTokens * ORG_LIMITS.budgetShare));
    return { items, repositories: found.repositories, tokens: items.reduce((s, i) => s + i.tokens, 0), ms: Math.round(performance.now() - started) };
  } catch (e) {
    // A connection that timed out or failed may be stuck mid-query: start afresh next time.
    dropOrgConnection(options.target);
    const why = e instanceof Timeout ? `no answer within ${timeoutMs} ms` : (e as Error).message;
    return { items: [], repositories: [], tokens: 0, ms: Math.round(performance.now() - started), skipped: `org index ${redactUrl(options.target)} skipped: ${why}` };
  } finally {
    clearTimeout(timer);
  }
}
