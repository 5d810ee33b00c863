// Watches workspace folders with chokidar and forwards Java file events to the indexer.
// The same skip rules as discovery apply (build output, VCS folders, .gitignore at the root).

import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import ignore from 'ignore';
import { isJavaFile, SKIPPED_DIRS } from './files';

export interface WatchHandlers {
  changed: (path: string) => void;
  deleted: (path: string) => void;
}

export function watchFolder(root: string, handlers: WatchHandlers, exclude: string[] = []): FSWatcher {
  const ig = ignore().add(exclude);
  const gi = join(root, '.gitignore');
  if (existsSync(gi)) { try { ig.add(readFileSync(gi, 'utf8')); } catch { /* unreadable: nothing extra ignored */ } }
  const ignored = (path: string, stats?: { isFile(): boolean; isDirectory(): boolean }): boolean => {
    if (path === root) return false;
    const rel = relative(root, path);
    if (rel.startsWith('..')) return true;
    if (rel.split(sep).some((part) => SKIPPED_DIRS.has(part))) return true;
    const posix = rel.split(sep).join('/');
    if (ig.ignores(posix) || (stats?.isDirectory() && ig.ignores(posix + '/'))) return true;
    return !!stats?.isFile() && !isJavaFile(basename(path));
  };
  const watcher = chokidar.watch(root, { ignored, ignoreInitial: true, followSymlinks: false, persistent: true });
  watcher.on('add', handlers.changed);
  watcher.on('change', handlers.changed);
  watcher.on('unlink', handlers.deleted);
  watcher.on('unlinkDir', handlers.deleted);
  watcher.on('error', () => { /* e.g. EACCES on a folder: the folder stays as last indexed */ });
  return watcher;
}
