// Local Maven-layout repositories (~/.m2/repository, Debian's /usr/share/maven-repo, a
// maven.repo.local style setting): where an artifact's .pom, .jar and -sources.jar would be.
// Nothing here touches the network.

import { accessSync, constants, readdirSync, statSync } from 'node:fs';
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

/**
 * The first repository holding the artifact's file, or the paths looked at. A SNAPSHOT without its
 * plain `a-1.0-SNAPSHOT.jar` takes the newest timestamped file a remote deploy leaves
 * (`a-1.0-20240105.101500-3.jar`: latest timestamp, then build number).
 */
export function findArtifact(repos: RepositoryLayout, c: Coordinates, ext: 'pom' | 'jar', classifier?: string): { path?: string; looked: string[] } {
  const looked: string[] = [];
  for (const r of repos.roots) {
    const p = artifactPath(r, c, ext, classifier ?? c.classifier);
    if (isFile(p)) return { path: p, looked };
    looked.push(p);
    if (c.version.endsWith('-SNAPSHOT')) {
      const stamped = timestampedSnapshot(r, c, ext, classifier ?? c.classifier);
      if (stamped) return { path: stamped, looked };
    }
  }
  return { looked };
}

const TIMESTAMP = /^(\d{8}\.\d{6})-(\d+)$/;

/** The newest `artifact-<base>-<yyyyMMdd.HHmmss>-<build>[-classifier].ext` in a SNAPSHOT folder. */
export function timestampedSnapshot(root: string, c: Coordinates, ext: string, classifier?: string): string | undefined {
  const dir = join(root, ...c.groupId.split('.'), c.artifactId, c.version);
  const base = c.version.slice(0, -'-SNAPSHOT'.length);
  const prefix = `${c.artifactId}-${base}-`;
  const suffix = `${classifier ? '-' + classifier : ''}.${ext}`;
  let best: { stamp: string; build: number; name: string } | undefined;
  for (const name of listDir(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith(suffix)) continue;
    const m = TIMESTAMP.exec(name.slice(prefix.length, name.length - suffix.length));
    if (!m) continue;
    const cand = { stamp: m[1], build: Number(m[2]), name };
    if (!best || cand.stamp > best.stamp || (cand.stamp === best.stamp && cand.build > best.build)) best = cand;
  }
  return best && isFile(join(dir, best.name)) ? join(dir, best.name) : undefined;
}

function listDir(dir: string): string[] {
  try { return readdirSync(dir).sort(); } catch { return []; }
}

/** Every version folder of groupId:artifactId in the repositories (a version range picks among them). */
export function availableVersions(repos: RepositoryLayout, groupId: string, artifactId: string): string[] {
  const out = new Set<string>();
  for (const r of repos.roots) {
    const dir = join(r, ...groupId.split('.'), artifactId);
    for (const v of listDir(dir)) {
      try { if (statSync(join(dir, v)).isDirectory()) out.add(v); } catch { /* vanished */ }
    }
  }
  return [...out].sort(compareVersions);
}

/** A version range `[1.0,2.0)`, `[1.5,)`, `(,1.0]`, `[1.2]` or a union `[1,2),[3,4)`; undefined for a plain version. */
export interface VersionRange { lower?: string; lowerInclusive: boolean; upper?: string; upperInclusive: boolean }

export function parseVersionRange(spec: string): VersionRange[] | undefined {
  const s = spec.replace(/\s+/g, '');
  if (!/^[[(]/.test(s)) return undefined;
  const out: VersionRange[] = [];
  const re = /([[(])([^,\])]*)(?:,([^\])]*))?([\])])(?:,|$)/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(s))) {
    end = re.lastIndex;
    const [, open, lo, hi, close] = m;
    if (hi === undefined) {
      // `[1.2]`: exactly that version.
      if (open !== '[' || close !== ']' || !lo) return undefined;
      out.push({ lower: lo, lowerInclusive: true, upper: lo, upperInclusive: true });
    } else out.push({ lower: lo || undefined, lowerInclusive: open === '[', upper: hi || undefined, upperInclusive: close === ']' });
  }
  return out.length && end === s.length ? out : undefined;
}

export function inRange(version: string, ranges: VersionRange[]): boolean {
  return ranges.some((r) => {
    if (r.lower !== undefined) {
      const c = compareVersions(version, r.lower);
      if (c < 0 || (c === 0 && !r.lowerInclusive)) return false;
    }
    if (r.upper !== undefined) {
      const c = compareVersions(version, r.upper);
      if (c > 0 || (c === 0 && !r.upperInclusive)) return false;
    }
    return true;
  });
}

/** The highest available version the range admits (SNAPSHOTs only when the range names one). */
export function pickVersion(available: string[], ranges: VersionRange[]): string | undefined {
  const snapshotsAllowed = ranges.some((r) => r.lower?.endsWith('SNAPSHOT') || r.upper?.endsWith('SNAPSHOT'));
  const ok = available.filter((v) => inRange(v, ranges) && (snapshotsAllowed || !v.endsWith('-SNAPSHOT')));
  return ok.sort(compareVersions).pop();
}

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const QUALIFIER_ALIASES: Record<string, string> = { a: 'alpha', b: 'beta', m: 'milestone', cr: 'rc', ga: '', final: '', release: '' };

/**
 * Maven's version order, in the main: numeric parts numerically, `1.0 = 1.0.0`, a qualifier below
 * the release it qualifies (alpha < beta < milestone < rc < snapshot < release < sp), other
 * qualifiers after those, alphabetically; a number above any qualifier in the same place.
 */
export function compareVersions(a: string, b: string): number {
  const pa = versionParts(a), pb = versionParts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? (typeof pb[i] === 'number' ? 0 : ''), y = pb[i] ?? (typeof pa[i] === 'number' ? 0 : '');
    if (typeof x === 'number' && typeof y === 'number') { if (x !== y) return x < y ? -1 : 1; continue; }
    // A number outranks any qualifier in the same place (1-sp < 1.0.1).
    if (typeof x === 'number') return 1;
    if (typeof y === 'number') return -1;
    const c = qualifierRank(x) - qualifierRank(y);
    if (c) return c < 0 ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function qualifierRank(q: string): number {
  const i = QUALIFIERS.indexOf(q);
  return i >= 0 ? i : QUALIFIERS.length;
}

function versionParts(v: string): (number | string)[] {
  const out: (number | string)[] = [];
  for (const tok of v.toLowerCase().split(/[.-]|(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)/)) {
    if (/^\d+$/.test(tok)) out.push(Number(tok));
    else out.push(QUALIFIER_ALIASES[tok] ?? tok);
  }
  // Trailing zeros and release markers do not count: 1.0 = 1 = 1.0.0 = 1-final.
  while (out.length > 1 && (out[out.length - 1] === 0 || out[out.length - 1] === '')) out.pop();
  return out;
}
