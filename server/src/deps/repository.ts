// Local Maven-layout repositories (~/.m2/repository, Debian's /usr/share/maven-repo, a
// maven.repo.local style setting): where an artifact's .pom, .jar and -sources.jar would be.
// Nothing here touches the network.

import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Coordinates } from './types';

export interface RepositoryLayout {
  /** Existing, readable repository roots in search order. */
  roots: string[];
  /** Configured roots that could not be read, with the reason. */
  unreadable: { path: string; reason: string }[];
}

export function openRepositories(candidates: string[]): RepositoryLayout {
  const roots: string[] = [];
  const unreadable: RepositoryLayout['unreadable'] = [];
  for (const c of [...new Set(candidates)]) {
    try {
      if (!statSync(c).isDirectory()) { unreadable.push({ path: c, reason: 'not a folder' }); continue; }
      accessSync(c, constants.R_OK | constants.X_OK);
      roots.push(c);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // an absent default repository is normal
      unreadable.push({ path: c, reason: `unreadable repository folder (${code ?? (e as Error).message})` });
    }
  }
  return { roots, unreadable };
}

export function artifactPath(root: string, c: Coordinates, ext: 'pom' | 'jar', classifier = c.classifier): string {
  const base = `${c.artifactId}-${c.version}${classifier ? '-' + classifier : ''}.${ext}`;
  return join(root, ...c.groupId.split('.'), c.artifactId, c.version, base);
}

function isFile(p: string): boolean {
  try { return statSync(p).isFile(); } catch { return false; }
}

/** The first repository holding the artifact's file, or the paths looked at. */
export function findArtifact(repos: RepositoryLayout, c: Coordinates, ext: 'pom' | 'jar', classifier?: string): { path?: string; looked: string[] } {
  const looked: string[] = [];
  for (const r of repos.roots) {
    const p = artifactPath(r, c, ext, classifier ?? c.classifier);
    if (isFile(p)) return { path: p, looked };
    looked.push(p);
  }
  return { looked };
}
