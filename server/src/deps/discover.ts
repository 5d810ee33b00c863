// Finds a workspace folder's dependency jars the way a Java developer's tools would, offline:
// Maven (pom.xml, resolved against local repositories; or `mvn -o dependency:build-classpath`
// when the setting enables it), a Gradle classpath file, Eclipse's .classpath, jars in lib/, and
// the `needle.dependencies` globs. Each dependency says where it came from and whether sources
// were found; what is missing is listed with what was looked for.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { hostPaths } from '../platform/paths';
import { scanXml } from '../retrieval/chunks/xml';
import { MavenResolver } from './maven';
import { openRepositories, type RepositoryLayout } from './repository';
import type { Coordinates, Dependency, DependencySource, Discovery, DiscoveryProblem } from './types';

export interface DependencySettings {
  /** Globs of jars or folders of jars (absolute, or relative to the workspace folder). */
  dependencies: string[];
  /** Group-id prefixes that are internal (besides the project's own organisation prefix). */
  internalGroups: string[];
  /** Extra local repositories searched first (a `maven.repo.local` style setting). */
  mavenRepositories: string[];
  /** Ask `mvn -o dependency:build-classpath` for the classpath instead of reading poms ourselves. */
  useMavenCommand: boolean;
}

export function defaultDependencySettings(): DependencySettings {
  return { dependencies: [], internalGroups: [], mavenRepositories: [], useMavenCommand: false };
}

/** The local repositories in search order: the setting's, ~/.m2/repository, Debian's. */
export function repositoryCandidates(settings: DependencySettings): string[] {
  return [...settings.mavenRepositories, join(homedir(), '.m2', 'repository'), '/usr/share/maven-repo'];
}

/** The classpath file a one-line Gradle task writes (README: "Gradle"); one jar path per line. */
export const GRADLE_CLASSPATH_FILE = 'needle-classpath.txt';
const GRADLE_CLASSPATH_PLACES = [GRADLE_CLASSPATH_FILE, join('build', GRADLE_CLASSPATH_FILE)];

export function discoverDependencies(root: string, settings: DependencySettings): Discovery {
  const repos = openRepositories(repositoryCandidates(settings));
  const problems: DiscoveryProblem[] = repos.unreadable.map((u) => ({ path: u.path, reason: u.reason }));
  const pomPath = join(root, 'pom.xml');
  const maven = new MavenResolver(repos);
  const projectGroups: string[] = [];
  const deps: Dependency[] = [];
  let internal = internalTest(settings.internalGroups, []);
  if (existsSync(pomPath)) {
    const model = maven.model(pomPath);
    if (!('problem' in model) && model.coordinates.groupId) projectGroups.push(model.coordinates.groupId);
    internal = internalTest(settings.internalGroups, projectGroups);
    const viaMvn = settings.useMavenCommand ? mavenCommandClasspath(root, repos) : undefined;
    if (viaMvn && 'problem' in viaMvn) problems.push({ path: pomPath, reason: viaMvn.problem });
    if (viaMvn && !('problem' in viaMvn)) for (const jar of viaMvn.jars) deps.push(jarDependency(jar, 'mvn', pomPath, internal, repos));
    else deps.push(...maven.resolveProject(pomPath, internal).dependencies);
  }
  for (const place of GRADLE_CLASSPATH_PLACES) {
    const file = join(root, place);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split(/\r?\n|[;:](?=\/)/)) {
      const jar = line.trim();
      if (jar && jar.endsWith('.jar')) deps.push(jarDependency(resolve(root, jar), 'gradle', file, internal, repos));
    }
  }
  const eclipse = join(root, '.classpath');
  if (existsSync(eclipse)) {
    for (const e of scanXml(readFileSync(eclipse, 'utf8'))) {
      for (const entry of e.name === 'classpath' ? e.children : []) {
        if (entry.name !== 'classpathentry' || entry.attrs.kind !== 'lib' || !entry.attrs.path?.endsWith('.jar')) continue;
        const d = jarDependency(resolve(root, entry.attrs.path), 'eclipse', eclipse, internal, repos);
        if (entry.attrs.sourcepath && existsSync(resolve(root, entry.attrs.sourcepath))) d.sourcesJar = resolve(root, entry.attrs.sourcepath);
        deps.push(d);
      }
    }
  }
  for (const jar of jarsIn(join(root, 'lib'), problems)) deps.push(jarDependency(jar, 'lib', join(root, 'lib'), internal, repos));
  for (const pattern of settings.dependencies) {
    const matched = expandGlob(isAbsolute(pattern) ? pattern : join(root, pattern), problems);
    if (!matched.length) problems.push({ path: pattern, reason: 'needle.dependencies: the glob matches no jar' });
    for (const jar of matched) deps.push(jarDependency(jar, 'setting', `needle.dependencies ${pattern}`, internal, repos));
  }
  problems.push(...maven.problems);
  return { dependencies: dedupe(deps), problems: dedupeProblems(problems), projectGroups };
}

/**
 * Internal when the group id matches a `needle.internalGroups` prefix or shares the project's
 * organisation prefix (its first two segments: com.acme for com.acme.billing).
 */
export function internalTest(internalGroups: string[], projectGroups: string[]): (groupId: string | undefined) => boolean {
  const prefixes = [...internalGroups, ...projectGroups.map((g) => g.split('.').slice(0, 2).join('.'))].filter(Boolean);
  return (groupId) => {
    // A jar the project carries itself, with no coordinates, is taken for its own.
    if (!groupId) return true;
    return prefixes.some((p) => groupId === p || groupId.startsWith(p + '.'));
  };
}

/** A jar named directly; coordinates come from a Maven or Gradle cache layout when it is in one. */
function jarDependency(jar: string, source: DependencySource, declaredIn: string, internal: (g: string | undefined) => boolean, repos: RepositoryLayout): Dependency {
  const coordinates = coordinatesFromPath(jar, repos.roots);
  const d: Dependency = { source, declaredIn, internal: internal(coordinates?.groupId) };
  if (coordinates) d.coordinates = coordinates;
  if (!existsSync(jar)) { d.problem = `missing jar ${jar}`; return d; }
  d.jar = jar;
  const sources = sourcesBeside(jar, coordinates);
  if (sources) d.sourcesJar = sources;
  return d;
}

/** `<repo>/g/r/o/u/p/artifact/version/artifact-version.jar` or Gradle's `files-2.1/group/artifact/version/<sha1>/artifact-version.jar`. */
export function coordinatesFromPath(jar: string, repoRoots: string[]): Coordinates | undefined {
  const parts = jar.split(sep);
  const gradle = parts.lastIndexOf('files-2.1');
  if (gradle >= 0 && parts.length - gradle === 6) return { groupId: parts[gradle + 1], artifactId: parts[gradle + 2], version: parts[gradle + 3] };
  for (const r of repoRoots) {
    const rel = hostPaths.relativeInside(r, jar);
    if (!rel) continue;
    const seg = rel.split(sep);
    if (seg.length < 4) continue;
    const [artifactId, version] = seg.slice(-3, -1);
    if (!seg[seg.length - 1].startsWith(`${artifactId}-${version}`)) continue;
    return { groupId: seg.slice(0, -3).join('.'), artifactId, version };
  }
  return undefined;
}

/** `x-1.0-sources.jar` beside `x-1.0.jar`, or in a sibling hash folder of Gradle's cache. */
function sourcesBeside(jar: string, c: Coordinates | undefined): string | undefined {
  const name = basename(jar, '.jar') + '-sources.jar';
  const here = join(dirname(jar), name);
  if (existsSync(here)) return here;
  if (c && jar.split(sep).includes('files-2.1')) {
    const versionDir = dirname(dirname(jar));
    try {
      for (const h of readdirSync(versionDir).sort()) if (existsSync(join(versionDir, h, name))) return join(versionDir, h, name);
    } catch { /* unreadable: no sources */ }
  }
  return undefined;
}

function jarsIn(folder: string, problems: DiscoveryProblem[]): string[] {
  let names: string[];
  try { names = readdirSync(folder); } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') problems.push({ path: folder, reason: `unreadable folder (${(e as NodeJS.ErrnoException).code})` });
    return [];
  }
  return names.filter((n) => n.endsWith('.jar') && !n.endsWith('-sources.jar')).sort().map((n) => join(folder, n));
}

/** Expands `*`, `?` and `**` in a path; a folder that matches stands for the jars in it. */
export function expandGlob(pattern: string, problems: DiscoveryProblem[]): string[] {
  const parts = pattern.split(sep);
  const out = new Set<string>();
  const re = (seg: string) => new RegExp('^' + seg.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]') + '$');
  const walk = (dir: string, i: number) => {
    if (i === parts.length) {
      let st;
      try { st = statSync(dir); } catch { return; }
      if (st.isDirectory()) for (const j of jarsIn(dir, problems)) out.add(j);
      else if (dir.endsWith('.jar') && !dir.endsWith('-sources.jar')) out.add(dir);
      return;
    }
    const seg = parts[i];
    if (!/[*?]/.test(seg)) { walk(i === 0 ? (seg || sep) : join(dir, seg), i + 1); return; }
    let entries: string[];
    try { entries = readdirSync(dir).sort(); } catch (e) {
      problems.push({ path: dir, reason: `unreadable folder (${(e as NodeJS.ErrnoException).code})` });
      return;
    }
    if (seg === '**') {
      walk(dir, i + 1);
      for (const n of entries) {
        try { if (statSync(join(dir, n)).isDirectory()) walk(join(dir, n), i); } catch { /* vanished */ }
      }
      return;
    }
    const m = re(seg);
    for (const n of entries) if (m.test(n)) walk(join(dir, n), i + 1);
  };
  walk('', 0);
  return [...out].sort();
}

/** `mvn -o dependency:build-classpath`, offline, into a temporary file; the jars it names. */
function mavenCommandClasspath(root: string, repos: RepositoryLayout): { jars: string[] } | { problem: string } {
  const dir = mkdtempSync(join(tmpdir(), 'needle-mvn-'));
  const out = join(dir, 'classpath.txt');
  try {
    const local = repos.roots[0] ? [`-Dmaven.repo.local=${repos.roots[0]}`] : [];
    const r = spawnSync('mvn', ['-o', '-q', '-B', ...local, 'dependency:build-classpath', `-Dmdep.outputFile=${out}`], { cwd: root, timeout: 120_000, encoding: 'utf8' });
    if (r.error) return { problem: `mvn could not run (${r.error.message}); the poms were read instead` };
    if (r.status !== 0 || !existsSync(out)) return { problem: `mvn -o dependency:build-classpath failed (exit ${r.status}): ${(r.stdout + r.stderr).trim().split('\n').slice(-3).join(' ')}; the poms were read instead` };
    return { jars: readFileSync(out, 'utf8').trim().split(delimiter).filter((j) => j.endsWith('.jar')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function dedupe(deps: Dependency[]): Dependency[] {
  const seen = new Set<string>();
  return deps.filter((d) => {
    const key = d.jar ?? (d.coordinates ? `${d.coordinates.groupId}:${d.coordinates.artifactId}` : d.declaredIn);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function dedupeProblems(problems: DiscoveryProblem[]): DiscoveryProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\n${p.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
