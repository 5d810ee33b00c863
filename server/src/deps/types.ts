// What dependency discovery finds: one entry per dependency, with where it came from, the jar
// and sources found for it, or the coordinates that were looked for in vain.

export type DependencySource = 'maven' | 'mvn' | 'gradle' | 'eclipse' | 'lib' | 'setting';

export interface Coordinates { groupId: string; artifactId: string; version: string; classifier?: string }

export interface Dependency {
  source: DependencySource;
  /** The file that declared it (pom.xml, .classpath, the classpath file), or the setting. */
  declaredIn: string;
  coordinates?: Coordinates;
  scope?: string;
  /** For a transitive Maven dependency: the chain of artifacts that brought it, nearest first. */
  via?: string[];
  jar?: string;
  sourcesJar?: string;
  /** A module of the Maven reactor inside the workspace folder (its folder): workspace code, no jar. */
  module?: string;
  /** The internal-versus-public decision (internalGroups setting or the project's organisation prefix). */
  internal: boolean;
  /** Why the dependency is not read: missing artifact (with what was looked for), test scope, … */
  problem?: string;
}

/** A problem of the build description itself (a pom cycle, a missing parent, an unreadable folder). */
export interface DiscoveryProblem { path: string; reason: string }

export interface Discovery {
  dependencies: Dependency[];
  problems: DiscoveryProblem[];
  /** Group ids of the workspace's own projects (the organisation prefix is taken from them). */
  projectGroups: string[];
}

export function coordinatesText(c: Coordinates): string {
  return `${c.groupId}:${c.artifactId}:${c.version}${c.classifier ? ':' + c.classifier : ''}`;
}
