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
  /** The folder itself was deleted and is back: the watch must be renewed and the folder indexed again. */
  restored?: () => void;
}

/** How often the folder's own existence is checked (chokidar loses a folder that is deleted and recreated). */
export const ROOT_POLL_MS = Number(process.env.NEEDLE_ROOT_POLL_MS ?? 1000);

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
