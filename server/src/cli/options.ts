import { resolve } from 'node:path';
import { defaultDependencySettings, type DependencySettings } from '../deps/discover';
import { defaultCacheDir } from '../index/persist';
import type { ParsedArgs } from './args';

/** --no-cache disables the persisted index; --cache-dir moves it. */
export function cacheDirOf(args: ParsedArgs): string | null {
  if (args.flags.has('no-cache')) return null;
  const d = args.flags.get('cache-dir');
  return typeof d === 'string' ? resolve(d) : defaultCacheDir();
}

/**
 * The dependency settings of the command line: --dependencies, --internal-groups and --maven-repo
 * take comma-separated lists (the needle.dependencies, needle.internalGroups and
 * needle.mavenRepositories settings), --use-mvn asks `mvn -o`, --no-dependencies reads no jars.
 */
export function dependencySettingsOf(args: ParsedArgs): DependencySettings | false {
  if (args.flags.has('no-dependencies')) return false;
  const list = (name: string) => {
    const v = args.flags.get(name);
    return typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : [];
  };
  return {
    ...defaultDependencySettings(),
    dependencies: list('dependencies'),
    internalGroups: list('internal-groups'),
    mavenRepositories: list('maven-repo').map((r) => resolve(r)),
    useMavenCommand: args.flags.has('use-mvn'),
  };
}

/** The organisation index to read (--org-index, else NEEDLE_ORG_INDEX): a postgres:// URL without password, or a PGlite folder. */
export function orgIndexOf(args: ParsedArgs): string | undefined {
  const v = args.flags.get('org-index');
  return typeof v === 'string' && v.trim() ? v.trim() : process.env.NEEDLE_ORG_INDEX || undefined;
}
