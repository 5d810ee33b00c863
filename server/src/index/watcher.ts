// Watches workspace folders with chokidar and forwards Java file events to the indexer, and those
// of the configuration files lexical recall searches (files.ts isConfigFile), whose list it keeps.
// The same skip rules as discovery apply (build output, VCS folders, .gitignore at the root).
// The files dependency discovery reads (pom.xml, .classpath, the Gradle classpath file, lib/*.jar)
// are watched too and reported apart, so the dependencies are found again when they change.

import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import ignore from 'ignore';
import { isDependencyFile } from '../deps/discover';
import { isConfigFile, isJavaFile, SKIPPED_DIRS } from './files';

export interface WatchHandlers {
  changed: (path: string) => void;
  deleted: (path: string) => void;
  /** The folder itself was deleted and is back: the watch must be renewed and the folder indexed again. */
  restored?: () => void;
  /** A file dependency discovery reads was added, changed or deleted. */
  dependencyFile?: (path: string) => void;
}

/** How often the folder's own existence is checked (chokidar loses a folder that is deleted and recreated). */
export const ROOT_POLL_MS = Number(process.env.NEEDLE_ROOT_POLL_MS ?? 1000);

/**
 * How long a file's size must hold still before its change is reported. A tool that saves in place
 * truncates first and writes after: reported at once, the index would read the empty file, and
 * chokidar folds the write that follows within its throttle into the same event, so the empty state
 * would stay until the next change. Waiting for the write to settle reports the written file.
 */
export const WRITE_SETTLE_MS = Number(process.env.NEEDLE_WRITE_SETTLE_MS ?? 75);

export function watchFolder(root: string, handlers: WatchHandlers, exclude: string[] = []): FSWatcher {
  const ig = ignore().add(exclude);
  const gi = join(root, '.gitignore');
  if (existsSync(gi)) { try { ig.add(readFileSync(gi, 'utf8')); } catch { /* unreadable: nothing extra ignored */ } }
  const ignored = (path: string, stats?: { isFile(): boolean; isDirectory(): boolean }): boolean => {
    if (path === root) return false;
    const rel = relative(root, path);
    if (rel.startsWith('..')) return true;
    const parts = rel.split(sep);
    // build/ is output, but build/needle-classpath.txt is what a Gradle task writes for us.
    const gradleOutput = handlers.dependencyFile && parts[0] === 'build' && (parts.length === 1 ? !stats?.isFile() : isDependencyFile(parts));
    if (!gradleOutput && parts.some((part) => SKIPPED_DIRS.has(part))) return true;
    const posix = parts.join('/');
    if (ig.ignores(posix) || (stats?.isDirectory() && ig.ignores(posix + '/'))) return true;
    const name = basename(path);
    return !!stats?.isFile() && !isJavaFile(name) && !isConfigFile(name) && !(handlers.dependencyFile && isDependencyFile(parts));
  };
  const isDep = (path: string) => !!handlers.dependencyFile && !isJavaFile(basename(path)) && isDependencyFile(relative(root, path).split(sep));
  /** A dependency file goes to dependencyFile; one that is also a config file (pom.xml) to changed/deleted too. */
  const report = (path: string, present: boolean) => {
    const dep = isDep(path);
    if (dep) handlers.dependencyFile!(path);
    if (!dep || isConfigFile(basename(path))) (present ? handlers.changed : handlers.deleted)(path);
  };
  const watcher = chokidar.watch(root, {
    ignored, ignoreInitial: true, followSymlinks: false, persistent: true,
    awaitWriteFinish: WRITE_SETTLE_MS > 0 ? { stabilityThreshold: WRITE_SETTLE_MS, pollInterval: Math.max(5, Math.round(WRITE_SETTLE_MS / 3)) } : false,
  });
  watcher.on('add', (p) => report(p, true));
  watcher.on('change', (p) => report(p, true));
  watcher.on('unlink', (p) => report(p, false));
  watcher.on('unlinkDir', handlers.deleted);
  watcher.on('error', () => { /* e.g. EACCES on a folder: the folder stays as last indexed */ });
  let missing = false;
  const check = () => {
    const present = existsSync(root);
    if (!present && !missing) { missing = true; handlers.deleted(root); }
    else if (present && missing) { missing = false; handlers.restored?.(); }
  };
  // Deletions may be the folder going away: noticed at once, even if it is back before the next poll.
  watcher.on('unlinkDir', () => { if (!missing) check(); });
  const poll = setInterval(check, ROOT_POLL_MS);
  poll.unref();
  const close = watcher.close.bind(watcher);
  watcher.close = () => { clearInterval(poll); return close(); };
  return watcher;
}
