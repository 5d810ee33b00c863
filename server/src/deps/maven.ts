// Maven dependencies without Maven and without network: a project's pom.xml read with its parent
// chain (relativePath, then the local repository), properties (${project.version} and the rest),
// dependencyManagement (import-scoped BOMs included), and the transitive closure against local
// repositories, each artifact's own .pom read there: nearest wins (breadth first, declaration
// order), exclusions apply below where they are declared, optional and test/provided dependencies
// of dependencies are not followed. Profiles that are active merge in (activeByDefault when no
// other profile of the pom is active; property activation against the activation properties;
// settings.xml's activeProfiles by id). A version range picks the highest version the local
// repositories hold. `<modules>` lists the reactor: discover.ts resolves a dependency on a module
// inside the workspace folder as workspace code. Every problem is listed; nothing throws.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { scanXml, type XmlElement } from '../retrieval/chunks/xml';
import { availableVersions, findArtifact, parseVersionRange, pickVersion, type RepositoryLayout } from './repository';
import { coordinatesText, type Coordinates, type Dependency, type DiscoveryProblem } from './types';

interface PomDependency {
  groupId: string;
  artifactId: string;
  version?: string;
  scope?: string;
  type?: string;
  classifier?: string;
  optional: boolean;
  exclusions: { groupId: string; artifactId: string }[];
}

/** What a pom, or one of its profiles, contributes. */
interface PomContent {
  properties: Map<string, string>;
  managed: PomDependency[];
  dependencies: PomDependency[];
  modules: string[];
}

interface RawProfile extends PomContent {
  id: string;
  activeByDefault: boolean;
  /** `<activation><property>`: name (`!name` for absent) and the value wanted, if any. */
  property?: { name: string; value?: string };
}

interface RawPom extends PomContent {
  path: string;
  groupId?: string;
  artifactId?: string;
  version?: string;
  parent?: { groupId: string; artifactId: string; version: string; relativePath?: string };
  profiles: RawProfile[];
}

/** What activates profiles: settings.xml's activeProfiles, and the properties property activation reads (env.* included). */
export interface ProfileActivation {
  activeProfiles: string[];
  properties: Map<string, string>;
}

/** A pom with its parents merged and properties substituted. */
export interface EffectivePom {
  path: string;
  coordinates: Coordinates;
  /** groupId:artifactId -> the managed entry (version, scope, exclusions). */
  managed: Map<string, PomDependency>;
  dependencies: PomDependency[];
  /** `<modules>` of the pom and its active profiles, as pom.xml paths. */
  modules: string[];
  /** Ids of the profiles that were active. */
  activeProfiles: string[];
}

const child = (e: XmlElement | undefined, name: string) => e?.children.find((c) => c.name === name);
const text = (e: XmlElement | undefined, name: string) => child(e, name)?.text.trim() || undefined;

function parsePomText(path: string, source: string): RawPom {
  const project = scanXml(source).find((e) => e.name === 'project');
  if (!project) throw new Error('no <project> element');
  const p = child(project, 'parent');
  const deps = (list: XmlElement | undefined): PomDependency[] =>
    (list?.children ?? []).filter((d) => d.name === 'dependency').map((d) => ({
      groupId: text(d, 'groupId') ?? '', artifactId: text(d, 'artifactId') ?? '', version: text(d, 'version'),
      scope: text(d, 'scope'), type: text(d, 'type'), classifier: text(d, 'classifier'), optional: text(d, 'optional') === 'true',
      exclusions: (child(d, 'exclusions')?.children ?? []).filter((x) => x.name === 'exclusion')
        .map((x) => ({ groupId: text(x, 'groupId') ?? '*', artifactId: text(x, 'artifactId') ?? '*' })),
    }));
  const content = (e: XmlElement | undefined): PomContent => {
    const properties = new Map<string, string>();
    for (const prop of child(e, 'properties')?.children ?? []) properties.set(prop.name, prop.text.trim());
    return {
      properties,
      managed: deps(child(child(e, 'dependencyManagement'), 'dependencies')),
      dependencies: deps(child(e, 'dependencies')),
      modules: (child(e, 'modules')?.children ?? []).filter((m) => m.name === 'module' && m.text.trim()).map((m) => m.text.trim()),
    };
  };
  const profiles: RawProfile[] = (child(project, 'profiles')?.children ?? []).filter((x) => x.name === 'profile').map((x) => {
    const activation = child(x, 'activation');
    const prop = child(activation, 'property');
    return {
      id: text(x, 'id') ?? 'default', activeByDefault: text(activation, 'activeByDefault') === 'true',
      property: prop && text(prop, 'name') ? { name: text(prop, 'name')!, value: text(prop, 'value') } : undefined,
      ...content(x),
    };
  });
  return {
    path,
    groupId: text(project, 'groupId'), artifactId: text(project, 'artifactId'), version: text(project, 'version'),
    parent: p && text(p, 'artifactId') ? {
      groupId: text(p, 'groupId') ?? '', artifactId: text(p, 'artifactId')!, version: text(p, 'version') ?? '',
      relativePath: child(p, 'relativePath') ? (child(p, 'relativePath')!.text.trim()) : undefined,
    } : undefined,
    profiles,
    ...content(project),
  };
}

/**
 * The profiles of a pom that are active: named in activeProfiles, or whose property activation
 * holds; the activeByDefault ones only when no other is (Maven's rule).
 */
function activeProfiles(raw: RawPom, activation: ProfileActivation): RawProfile[] {
  const holds = (pr: RawProfile) => {
    if (activation.activeProfiles.includes(pr.id)) return true;
    if (!pr.property) return false;
    const negated = pr.property.name.startsWith('!');
    const value = activation.properties.get(negated ? pr.property.name.slice(1) : pr.property.name);
    if (negated) return value === undefined;
    if (pr.property.value === undefined) return value !== undefined;
    return pr.property.value.startsWith('!') ? value !== pr.property.value.slice(1) : value === pr.property.value;
  };
  const explicit = raw.profiles.filter(holds);
  return explicit.length ? explicit : raw.profiles.filter((pr) => pr.activeByDefault);
}

/** The pom's own content with its active profiles merged in (a profile's properties and dependencies win). */
function withProfiles(raw: RawPom, active: RawProfile[]): PomContent {
  const properties = new Map(raw.properties);
  const managed = [...raw.managed];
  let dependencies = [...raw.dependencies];
  const modules = [...raw.modules];
  for (const pr of active) {
    for (const [k, v] of pr.properties) properties.set(k, v);
    managed.push(...pr.managed);
    const keys = new Set(pr.dependencies.map((d) => `${d.groupId}:${d.artifactId}`));
    dependencies = [...dependencies.filter((d) => !keys.has(`${d.groupId}:${d.artifactId}`)), ...pr.dependencies];
    modules.push(...pr.modules.filter((m) => !modules.includes(m)));
  }
  return { properties, managed, dependencies, modules };
}

interface ResolveItem { dep: PomDependency; scope: string; via: string[]; excluded: PomDependency['exclusions']; ancestors: string[] }

export class MavenResolver {
  private poms = new Map<string, RawPom | { problem: string }>();
  private effective = new Map<string, EffectivePom | { problem: string }>();
  readonly problems: DiscoveryProblem[] = [];

  constructor(private repos: RepositoryLayout, private activation: ProfileActivation = { activeProfiles: [], properties: new Map() }) {}

  private readPom(path: string): RawPom | { problem: string } {
    const key = resolve(path);
    let r = this.poms.get(key);
    if (!r) {
      try { r = parsePomText(key, readFileSync(key, 'utf8')); } catch (e) { r = { problem: `unreadable pom ${key}: ${(e as Error).message}` }; }
      this.poms.set(key, r);
    }
    return r;
  }

  /** The effective model of a pom file; a problem string when the pom itself cannot be read. */
  model(path: string, chain: string[] = []): EffectivePom | { problem: string } {
    const key = resolve(path);
    const cached = this.effective.get(key);
    if (cached) return cached;
    if (chain.includes(key)) return { problem: `parent cycle: ${[...chain, key].join(' -> ')}` };
    const raw = this.readPom(key);
    if ('problem' in raw) return raw;
    const active = activeProfiles(raw, this.activation);
    const own = withProfiles(raw, active);
    // Parents first: their properties, management and dependencies are inherited.
    let parent: EffectivePom | undefined;
    let parentProps = new Map<string, string>();
    if (raw.parent) {
      const found = this.parentPom(raw, [...chain, key]);
      if ('problem' in found) this.problems.push({ path: key, reason: found.problem });
      else { parent = found.model; parentProps = found.properties; }
    }
    const groupId = raw.groupId ?? raw.parent?.groupId ?? '';
    const version = raw.version ?? raw.parent?.version ?? '';
    const props = new Map<string, string>(parentProps);
    for (const [k, v] of own.properties) props.set(k, v);
    for (const [k, v] of [['project.groupId', groupId], ['project.artifactId', raw.artifactId ?? ''], ['project.version', version],
      ['pom.version', version], ['version', version], ['pom.groupId', groupId],
      ['project.parent.version', raw.parent?.version ?? ''], ['project.parent.groupId', raw.parent?.groupId ?? '']] as const) props.set(k, v);
    const sub = (s: string | undefined) => (s === undefined ? undefined : interpolate(s, props));
    const subDep = (d: PomDependency): PomDependency => ({ ...d, groupId: sub(d.groupId)!, artifactId: sub(d.artifactId)!, version: sub(d.version), scope: sub(d.scope), classifier: sub(d.classifier) });
    const managed = new Map<string, PomDependency>(parent?.managed);
    for (const d of own.managed.map(subDep)) {
      if (d.scope === 'import' && d.type === 'pom' && d.version) {
        // A BOM: its managed versions join ours (declared ones win).
        const bom = this.artifactModel({ groupId: d.groupId, artifactId: d.artifactId, version: d.version }, [...chain, key]);
        if ('problem' in bom) this.problems.push({ path: key, reason: bom.problem });
        else for (const [k, m] of bom.managed) if (!managed.has(k)) managed.set(k, m);
        continue;
      }
      managed.set(`${d.groupId}:${d.artifactId}`, d);
    }
    const ownDeps = own.dependencies.map(subDep);
    const ownKeys = new Set(ownDeps.map((d) => `${d.groupId}:${d.artifactId}`));
    const dependencies = [...(parent?.dependencies ?? []).filter((d) => !ownKeys.has(`${d.groupId}:${d.artifactId}`)), ...ownDeps];
    const modules = own.modules.map((m) => {
      const dir = resolve(dirname(key), sub(m)!);
      return dir.endsWith('.xml') ? dir : join(dir, 'pom.xml');
    });
    const model: EffectivePom = {
      path: key, coordinates: { groupId: sub(groupId)!, artifactId: sub(raw.artifactId ?? '')!, version: sub(version)! }, managed, dependencies,
      modules, activeProfiles: active.map((p) => p.id),
    };
    this.effective.set(key, model);
    this.propsOf.set(key, props);
    return model;
  }

  private propsOf = new Map<string, Map<string, string>>();

  private parentPom(raw: RawPom, chain: string[]): { model: EffectivePom; properties: Map<string, string> } | { problem: string } {
    const p = raw.parent!;
    const want = { groupId: p.groupId, artifactId: p.artifactId, version: p.version };
    // relativePath (default ../pom.xml) when it holds the named parent; an empty relativePath skips it.
    if (p.relativePath !== '') {
      let rel = resolve(dirname(raw.path), p.relativePath ?? '../pom.xml');
      if (!rel.endsWith('.xml')) rel = join(rel, 'pom.xml');
      const local = this.readPom(rel);
      if (!('problem' in local) && local.artifactId === p.artifactId && (local.groupId ?? local.parent?.groupId) === p.groupId) {
        const m = this.model(rel, chain);
        return 'problem' in m ? m : { model: m, properties: this.propsOf.get(resolve(rel))! };
      }
    }
    const found = findArtifact(this.repos, want, 'pom');
    if (!found.path) return { problem: `missing parent ${coordinatesText(want)}: looked in ${p.relativePath ?? '../pom.xml'} and ${found.looked.join(', ') || 'no local repository'}` };
    const m = this.model(found.path, chain);
    return 'problem' in m ? m : { model: m, properties: this.propsOf.get(resolve(found.path))! };
  }

  /** The effective model of an artifact's .pom in the local repositories. */
  artifactModel(c: Coordinates, chain: string[] = []): EffectivePom | { problem: string } {
    const found = findArtifact(this.repos, c, 'pom');
    if (!found.path) return { problem: `no pom for ${coordinatesText(c)} (looked at ${found.looked.join(', ') || 'no local repository'})` };
    return this.model(found.path, chain);
  }

  /**
   * The project's dependencies, direct and transitive, as Maven's nearest-wins mediation picks them.
   * Test-scoped dependencies are listed but marked: the main code cannot see them.
   */
  resolveProject(pomPath: string, internal: (groupId: string) => boolean, reactor: Map<string, string> = new Map()): { dependencies: Dependency[]; project?: Coordinates } {
    const root = this.model(pomPath);
    if ('problem' in root) { this.problems.push({ path: resolve(pomPath), reason: root.problem }); return { dependencies: [] }; }
    const out: Dependency[] = [];
    const chosen = new Set<string>([`${root.coordinates.groupId}:${root.coordinates.artifactId}`]);
    let level: ResolveItem[] = root.dependencies.map((dep) => ({ dep, scope: dep.scope ?? root.managed.get(`${dep.groupId}:${dep.artifactId}`)?.scope ?? 'compile', via: [], excluded: [], ancestors: [`${root.coordinates.groupId}:${root.coordinates.artifactId}`] }));
    while (level.length) {
      const next: ResolveItem[] = [];
      for (const item of level) {
        const { dep } = item;
        const ga = `${dep.groupId}:${dep.artifactId}`;
        if (item.ancestors.includes(ga)) {
          this.problems.push({ path: resolve(pomPath), reason: `dependency cycle ${[...item.ancestors, ga].join(' -> ')}: not followed again` });
          continue;
        }
        if (chosen.has(ga)) continue; // nearest wins
        chosen.add(ga);
        if ((dep.type && dep.type !== 'jar' && dep.type !== 'bundle') || dep.scope === 'import') continue;
        const managed = root.managed.get(ga);
        const written = (item.via.length ? managed?.version ?? dep.version : dep.version ?? managed?.version) ?? '';
        const module = reactor.get(ga);
        const picked = module ? undefined : this.versionIn(written, dep.groupId, dep.artifactId);
        const moduleModel = module ? this.model(module) : undefined;
        const c: Coordinates = { groupId: dep.groupId, artifactId: dep.artifactId, version: picked?.version ?? (moduleModel && !('problem' in moduleModel) ? moduleModel.coordinates.version : written), classifier: dep.classifier };
        const entry: Dependency = { source: 'maven', declaredIn: resolve(pomPath), coordinates: c, scope: item.scope, internal: internal(dep.groupId) };
        if (item.via.length) entry.via = item.via;
        out.push(entry);
        if (module) {
          // A module of the reactor inside the workspace: its code is workspace code; its dependencies come one level further.
          entry.module = dirname(module);
          if (item.scope === 'test') { entry.problem = 'test scope: not visible to main code'; continue; }
          if (!moduleModel || 'problem' in moduleModel) continue;
          this.follow(moduleModel, item, dep, managed, c, next);
          continue;
        }
        if (picked?.problem) { entry.problem = picked.problem; continue; }
        if (!c.version || /\$\{/.test(c.version)) { entry.problem = `no version for ${ga}${c.version ? ` (unresolved ${c.version})` : ''}`; continue; }
        if (item.scope === 'test') { entry.problem = 'test scope: not visible to main code'; continue; }
        if (item.scope === 'system') { entry.problem = 'system scope: not read'; continue; }
        const jar = findArtifact(this.repos, c, 'jar');
        if (jar.path) {
          entry.jar = jar.path;
          const src = findArtifact(this.repos, c, 'jar', 'sources');
          if (src.path) entry.sourcesJar = src.path;
        } else entry.problem = `missing artifact ${coordinatesText(c)}: looked at ${jar.looked.join(', ') || 'no local repository'}`;
        // Its own dependencies (compile and runtime, not optional) come one level further.
        const m = this.artifactModel({ groupId: c.groupId, artifactId: c.artifactId, version: c.version });
        if ('problem' in m) { if (jar.path) entry.problem = m.problem; continue; }
        this.follow(m, item, dep, managed, c, next);
      }
      level = next;
    }
    return { dependencies: out, project: root.coordinates };
  }

  /** Queues the compile and runtime, non-optional, non-excluded dependencies of `m` one level further. */
  private follow(m: EffectivePom, item: ResolveItem, dep: PomDependency, managed: PomDependency | undefined, c: Coordinates, next: ResolveItem[]): void {
    const ga = `${dep.groupId}:${dep.artifactId}`;
    const excluded = [...item.excluded, ...dep.exclusions, ...(managed?.exclusions ?? [])];
    for (const d of m.dependencies) {
      const s = d.scope ?? m.managed.get(`${d.groupId}:${d.artifactId}`)?.scope ?? 'compile';
      if (d.optional || (s !== 'compile' && s !== 'runtime')) continue;
      if (excluded.some((x) => (x.groupId === '*' || x.groupId === d.groupId) && (x.artifactId === '*' || x.artifactId === d.artifactId))) continue;
      // A transitive dependency's version comes from its declaring pom's management unless ours says otherwise.
      const version = d.version ?? m.managed.get(`${d.groupId}:${d.artifactId}`)?.version;
      next.push({ dep: { ...d, version }, scope: item.scope === 'runtime' || s === 'runtime' ? 'runtime' : item.scope, via: [...item.via, coordinatesText(c)], excluded, ancestors: [...item.ancestors, ga] });
    }
  }

  /** A written version: a range picks the highest version the local repositories hold; a plain one stands. */
  private versionIn(written: string, groupId: string, artifactId: string): { version?: string; problem?: string } | undefined {
    const ranges = parseVersionRange(written);
    if (!ranges) return undefined;
    const available = availableVersions(this.repos, groupId, artifactId);
    const version = pickVersion(available, ranges);
    if (version) return { version };
    return { problem: `no version of ${groupId}:${artifactId} in ${written} in the local repositories (available: ${available.join(', ') || 'none'})` };
  }
}

/** Substitutes ${name} from the properties, repeatedly (a property may name another), leaving unknown ones. */
function interpolate(s: string, props: Map<string, string>): string {
  let out = s;
  for (let round = 0; round < 10 && out.includes('${'); round++) {
    const next = out.replace(/\$\{([^}]+)\}/g, (m, name: string) => props.get(name) ?? m);
    if (next === out) break;
    out = next;
  }
  return out;
}
