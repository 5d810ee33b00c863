// Repository-level prefilter (qodo, "golden repos"): with several workspace folders, recall
// is narrowed to the folders most likely to matter — the cursor's own, folders that declare the
// names the query mentions, folders that declare the packages the cursor's file imports — and
// folders the user marked golden are preferred.

import type { PipelineRequest } from './request';
import type { Query } from './query';
import { declarationsByName } from './symbols';

export const REPO_WEIGHTS = { cursor: 10, golden: 3, name: 1, importPackage: 2 } as const;
/**
 * Another folder is kept when its evidence reaches this share of the cursor folder's own name
 * evidence (a folder that merely shares a few common names with the cursor's is not a dependency),
 * and at least REPO_MIN_EVIDENCE.
 */
export const REPO_KEEP_SHARE = 0.25;
export const REPO_MIN_EVIDENCE = 1;
export const MAX_FOLDERS = 4;

export function chooseFolders(req: PipelineRequest, q: Query): string[] {
  const roots = [...new Set(req.roots)];
  if (roots.length <= 1) return roots;
  const score = new Map<string, number>(roots.map((r) => [r, 0]));
  const rootOf = (path: string) => roots.filter((r) => path === r || path.startsWith(r.endsWith('/') ? r : r + '/')).sort((a, b) => b.length - a.length)[0];
  const cursorRoot = rootOf(req.path);
  if (cursorRoot) score.set(cursorRoot, score.get(cursorRoot)! + REPO_WEIGHTS.cursor);
  for (const g of req.goldenRoots ?? []) if (score.has(g)) score.set(g, score.get(g)! + REPO_WEIGHTS.golden);
  const byName = declarationsByName(req.index);
  const names = new Set([...q.queryIdentifiers, ...q.signatureTypes, ...q.javadocNames, ...q.bodyIdentifiers, ...q.errors]);
  for (const n of [...names].sort()) {
    const hitRoots = new Set<string>();
    for (const id of byName.get(n) ?? []) {
      const ref = req.index.symbol(id);
      const r = ref && (rootOf(ref.file.path) ?? ref.file.root);
      if (r && score.has(r)) hitRoots.add(r);
    }
    for (const r of hitRoots) score.set(r, score.get(r)! + REPO_WEIGHTS.name / hitRoots.size);
  }
  const imports = req.index.file(req.path)?.facts.imports ?? [];
  if (imports.length) {
    const pkgRoots = new Map<string, Set<string>>();
    for (const f of req.index.allFiles()) {
      const r = rootOf(f.path) ?? f.root;
      if (!pkgRoots.has(f.facts.package)) pkgRoots.set(f.facts.package, new Set());
      pkgRoots.get(f.facts.package)!.add(r);
    }
    for (const imp of imports) {
      const pkg = imp.wildcard ? imp.name : imp.name.slice(0, imp.name.lastIndexOf('.'));
      for (const r of pkgRoots.get(pkg) ?? []) if (score.has(r)) score.set(r, score.get(r)! + REPO_WEIGHTS.importPackage);
    }
  }
  const ranked = roots.map((r) => ({ r, s: score.get(r)! })).sort((a, b) => b.s - a.s || (a.r < b.r ? -1 : 1));
  const cursorEvidence = cursorRoot ? score.get(cursorRoot)! - REPO_WEIGHTS.cursor - ((req.goldenRoots ?? []).includes(cursorRoot) ? REPO_WEIGHTS.golden : 0) : 0;
  const bar = Math.max(REPO_MIN_EVIDENCE, REPO_KEEP_SHARE * cursorEvidence);
  const kept = ranked.filter((x) => x.r === cursorRoot || x.s >= bar);
  return kept.slice(0, MAX_FOLDERS).map((x) => x.r);
}
