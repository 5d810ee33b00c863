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
import { MavenResolver, type ProfileActivation } from './maven';
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

/**
 * The local repositories in search order: the setting's, the user's (settings.xml's
 * localRepository, else ~/.m2/repository), Debian's.
 */
export function repositoryCandidates(settings: DependencySettings, user = mavenUserSettings()): string[] {
  return [...settings.mavenRepositories, user.localRepository ?? join(user.home, '.m2', 'repository'), '/usr/share/maven-repo'];
}

/** What `~/.m2/settings.xml` says that discovery uses. */
export interface MavenUserSettings {
  home: string;
  /** `<localRepository>`, with ${user.home} and ${env.X} substituted. */
  localRepository?: string;
  /** `<activeProfiles>` ids, and the ids of settings profiles activeByDefault. */
  activeProfiles: string[];
  /** `<properties>` of the active settings profiles (they activate pom profiles by property too). */
  properties: Map<string, string>;
  problem?: DiscoveryProblem;
}

/** Reads `<home>/.m2/settings.xml` (absent: defaults; unreadable or malformed: a listed problem). */
export function mavenUserSettings(home = homedir(), env: NodeJS.ProcessEnv = process.env): MavenUserSettings {
  const out: MavenUserSettings = { home, activeProfiles: [], properties: new Map() };
  const file = join(home, '.m2', 'settings.xml');
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') out.problem = { path: file, reason: `unreadable settings.xml (${(e as NodeJS.ErrnoException).code})` };
    return out;
  }
  const root = scanXml(text).find((e) => e.name === 'settings');
  if (!root) { out.problem = { path: file, reason: 'settings.xml has no <settings> element: ignored' }; return out; }
  const sub = (v: string) => v.replace(/\$\{(user\.home|env\.([\w.]+))\}/g, (m, name: string, envName?: string) => (envName ? env[envName] ?? m : home));
  const child = (e: typeof root | undefined, name: string) => e?.children.find((c) => c.name === name);
  const local = child(root, 'localRepository')?.text.trim();
  if (local) out.localRepository = resolve(home, sub(local));
  out.activeProfiles = (child(root, 'activeProfiles')?.children ?? []).filter((c) => c.name === 'activeProfile').map((c) => c.text.trim()).filter(Boolean);
  for (const p of (child(root, 'profiles')?.children ?? []).filter((c) => c.name === 'profile')) {
    const id = child(p, 'id')?.text.trim() ?? '';
    if (child(child(p, 'activation'), 'activeByDefault')?.text.trim() === 'true' && id && !out.activeProfiles.includes(id)) out.activeProfiles.push(id);
    if (!out.activeProfiles.includes(id)) continue;
    for (const prop of child(p, 'properties')?.children ?? []) out.properties.set(prop.name, sub(prop.text.trim()));
  }
  return out;
}

/** settings.xml's active profiles, and its active profiles' properties with the environment as env.* for property activation. */
export function profileActivation(user: MavenUserSettings, env: NodeJS.ProcessEnv = process.env): ProfileActivation {
  const properties = new Map<string, string>();
  for (const [k, v] of Object.entries(env)) if (v !== undefined) properties.set(`env.${k}`, v);
  for (const [k, v] of user.properties) properties.set(k, v);
  return { activeProfiles: user.activeProfiles, properties };
}

/** The classpath file a one-line Gradle task writes (README: "Gradle"); one jar path per line. */
export const GRADLE_CLASSPATH_FILE = 'needle-classpath.txt';
const GRADLE_CLASSPATH_PLACES = [GRADLE_CLASSPATH_FILE, join('build', GRADLE_CLASSPATH_FILE)];

/**
 * Whether a file (its path inside the workspace folder, split into parts) is one discovery reads,
 * so a change to it means the dependencies must be found again: any pom.xml (modules sit in
 * subfolders), .classpath, the Gradle classpath file in its two places, and jars in lib/.
 */
export function isDependencyFile(parts: string[]): boolean {
  const name = parts[parts.length - 1] ?? '';
  if (name === 'pom.xml') return true;
  if (parts.length === 1) return name === '.classpath' || name === GRADLE_CLASSPATH_FILE;
  if (parts.length === 2) return (parts[0] === 'lib' && name.endsWith('.jar')) || (parts[0] === 'build' && name === GRADLE_CLASSPATH_FILE);
  return false;
}

export function discoverDependencies(root: string, settings: DependencySettings, user = mavenUserSettings()): Discovery {
  const repos = openRepositories(repositoryCandidates(settings, user));
  const problems: DiscoveryProblem[] = repos.unreadable.map((u) => ({ path: u.path, reason: u.reason }));
  if (user.problem) problems.push(user.problem);
  const pomPath = join(root, 'pom.xml');
  const maven = new MavenResolver(repos, profileActivation(user));
  const projectGroups: string[] = [];
  const deps: Dependency[] = [];
  let internal = internalTest(settings.internalGroups, []);
  if (existsSync(pomPath)) {
    const reactor = reactorModules(maven, root, pomPath, problems);
    for (const m of reactor.values()) {
      const model = maven.model(m);
      if (!('problem' in model) && model.coordinates.groupId && !projectGroups.includes(model.coordinates.groupId)) projectGroups.push(model.coordinates.groupId);
    }
    internal = internalTest(settings.internalGroups, projectGroups);
    const viaMvn = settings.useMavenCommand ? mavenCommandClasspath(root, repos) : undefined;
    if (viaMvn && 'problem' in viaMvn) problems.push({ path: pomPath, reason: viaMvn.problem });
    if (viaMvn && !('problem' in viaMvn)) for (const jar of viaMvn.jars) deps.push(jarDependency(jar, 'mvn', pomPath, internal, repos));
    else {
      // Every module of the reactor, the root first; a dependency on one of them is workspace code.
      const modules = [pomPath, ...[...reactor.values()].filter((m) => m !== resolve(pomPath))];
      for (const m of modules) deps.push(...maven.resolveProject(m, internal, reactor).dependencies);
    }
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
 * The reactor under the root pom: groupId:artifactId -> pom.xml path of the root project and of
 * every `<modules>` entry, recursively, that lies inside the workspace folder.
 */
export function reactorModules(maven: MavenResolver, root: string, pomPath: string, problems: DiscoveryProblem[]): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (pom: string) => {
    const key = resolve(pom);
    if (seen.has(key)) return;
    seen.add(key);
    const model = maven.model(key);
    if ('problem' in model) { if (key !== resolve(pomPath)) problems.push({ path: key, reason: `module: ${model.problem}` }); return; }
    out.set(`${model.coordinates.groupId}:${model.coordinates.artifactId}`, key);
    for (const m of model.modules) {
      if (!hostPaths.inside(root, m)) { problems.push({ path: m, reason: 'module outside the workspace folder: not read as workspace code' }); continue; }
      if (!existsSync(m)) { problems.push({ path: m, reason: 'module without a pom.xml: skipped' }); continue; }
      visit(m);
    }
  };
  visit(pomPath);
  return out;
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

/** One entry per jar (or artifact): the first, unless a later one is read where the first is not (test scope in one module, compile in another). */
function dedupe(deps: Dependency[]): Dependency[] {
  const byKey = new Map<string, number>();
  const out: Dependency[] = [];
  for (const d of deps) {
    const key = d.jar ?? (d.coordinates ? `${d.coordinates.groupId}:${d.coordinates.artifactId}` : d.declaredIn);
    const at = byKey.get(key);
    if (at === undefined) { byKey.set(key, out.length); out.push(d); } else if (out[at].problem && !d.problem) out[at] = d;
  }
  return out;
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
