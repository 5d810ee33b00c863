// Finding and reading the workspace's files: .gitignore respected, build output skipped,
// symlinks never followed out of the folder or round in a loop, and every file we do not
// index listed with a reason. This is an I/O edge: the index core only sees its results.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { SkippedFile } from '../../../shared/protocol';
import { hostPaths } from '../platform/paths';
import { normalizeLineEndings } from '../text/lines';
import { BoundedMemo } from '../text/boundedMemo';

/** Files larger than this are generated or data, not code someone writes (issue: over 2 MB skipped). */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** Directory names that hold build output or tooling state, never sources. */
export const SKIPPED_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', 'target', 'build', 'out', 'bin', '.gradle', '.idea', '.vscode', '.mvn', '.needle', 'dist']);

export interface DiscoveredFiles { files: string[]; skipped: SkippedFile[] }

export interface DiscoverOptions {
  /** Extra gitignore-style patterns (the `needle.exclude` setting). */
  exclude?: string[];
  /** File name predicate; defaults to `.java`. */
  accept?: (name: string) => boolean;
}

export function isJavaFile(name: string): boolean {
  return name.endsWith('.java');
}

/**
 * The configuration and data files lexical recall searches beside the Java sources (their hits map
 * to chunks: a properties key group, a YAML key, an OpenAPI endpoint). Discovery lists them with
 * the Java files, and the watcher reports them, so a request need not walk the folders for them.
 */
export const CONFIG_FILE_EXTENSIONS: readonly string[] = ['.properties', '.yml', '.yaml', '.xml', '.json'];

export function isConfigFile(name: string): boolean {
  return CONFIG_FILE_EXTENSIONS.some((e) => name.endsWith(e));
}

/** Walks a workspace folder; paths are absolute and sorted. */
export function discoverFiles(root: string, options: DiscoverOptions = {}): DiscoveredFiles {
  const accept = options.accept ?? isJavaFile;
  const files: string[] = [];
  const skipped: SkippedFile[] = [];
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch (e) {
    return { files, skipped: [{ path: root, reason: `cannot read folder: ${(e as Error).message}` }] };
  }
  const seenDirs = new Set<string>();
  const base = ignore();
  const excluding = !!options.exclude?.length;
  if (excluding) base.add(options.exclude!);

  const walk = (dir: string, rules: { dir: string; ig: Ignore }[]): void => {
    let real: string;
    try { real = realpathSync(dir); } catch (e) { skipped.push({ path: dir, reason: `unreadable folder: ${(e as Error).message}` }); return; }
    if (seenDirs.has(real)) { skipped.push({ path: dir, reason: 'symlink loop' }); return; }
    if (!hostPaths.inside(rootReal, real)) { skipped.push({ path: dir, reason: 'symlink leads outside the workspace folder' }); return; }
    seenDirs.add(real);
    const gi = join(dir, '.gitignore');
    if (existsSync(gi)) {
      try { rules = [...rules, { dir, ig: ignore().add(readFileSync(gi, 'utf8')) }]; } catch { /* unreadable .gitignore: ignore nothing extra */ }
    }
    let entries: Dirent[];
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch (e) { skipped.push({ path: dir, reason: `unreadable folder: ${(e as Error).message}` }); return; }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = realpathSync(full);
          if (!hostPaths.inside(rootReal, target)) { skipped.push({ path: full, reason: 'symlink leads outside the workspace folder' }); continue; }
          const st = statSync(full);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          skipped.push({ path: full, reason: 'broken symlink' });
          continue;
        }
      }
      if (isDir && SKIPPED_DIRS.has(entry.name)) continue;
      // No patterns anywhere (most folders have no .gitignore): nothing to ask for each entry.
      if ((rules.length || excluding) && ignoredBy(rules, base, root, full, isDir)) continue;
      if (isDir) walk(full, rules);
      else if (isFile && accept(entry.name)) files.push(full);
      // A FIFO, socket or device under a source name: reported, never opened (reading a FIFO blocks).
      else if (!isFile && accept(entry.name)) skipped.push({ path: full, reason: 'not a regular file' });
    }
  };
  walk(root, []);
  files.sort();
  return { files, skipped };
}

function ignoredBy(rules: { dir: string; ig: Ignore }[], base: Ignore, root: string, full: string, isDir: boolean): boolean {
  const rel = relative(root, full).split(sep).join('/') + (isDir ? '/' : '');
  if (rel && base.ignores(rel)) return true;
  for (const r of rules) {
    const p = relative(r.dir, full).split(sep).join('/') + (isDir ? '/' : '');
    if (p && !p.startsWith('..') && r.ig.ignores(p)) return true;
  }
  return false;
}

/** What a stat says about a file's content without reading it: a warm start skips hashing files whose stamp is unchanged. */
export interface FileStamp { size: number; mtimeMs: number }

/**
 * A stamp is only recorded for a file last modified well before it was read: an edit within the
 * file system's timestamp granularity of the read could otherwise keep size and mtime unchanged.
 */
const STAMP_MARGIN_MS = 2000;

export type ReadResult = { ok: true; text: string; hash: string; stamp?: FileStamp } | { ok: false; reason: string };

/** Reads a source file, refusing what is too big, binary or gone; undecodable bytes become U+FFFD. */
export function readSourceFile(path: string, withHash = true): ReadResult {
  let buf: Buffer;
  let stamp: FileStamp | undefined;
  try {
    const st = statSync(path);
    if (st.mtimeMs < Date.now() - STAMP_MARGIN_MS) stamp = { size: st.size, mtimeMs: st.mtimeMs };
    if (!st.isFile()) return { ok: false, reason: 'not a regular file' };
    if (st.size > MAX_FILE_BYTES) return { ok: false, reason: `too large (${st.size} bytes > ${MAX_FILE_BYTES})` };
    buf = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? 'vanished while indexing' : `unreadable: ${code ?? (e as Error).message}` };
  }
  if (buf.length > MAX_FILE_BYTES) return { ok: false, reason: `too large (${buf.length} bytes > ${MAX_FILE_BYTES})` };
  if (looksBinary(buf)) return { ok: false, reason: 'binary file' };
  const text = normalizeLineEndings(buf.toString('utf8'));
  return { ok: true, text, hash: withHash ? hashText(text) : '', stamp };
}

/**
 * Texts of files read recently, each with the stamp it was read at: reading an unchanged file
 * again (same size and mtime, last modified well before it was read: the warm start's rule) costs
 * a stat instead of a read, a decode and a copy. Retrieval reads the files its candidates come
 * from at every request: on the whole JDK about a hundred, and their garbage, per request.
 * Bounded by characters held, in two generations (text/boundedMemo.ts): the files a session keeps
 * coming back to stay, where a cache cleared when full forgot them with the rest.
 */
export class RecentTexts {
  private readonly texts: BoundedMemo<string, { stamp: FileStamp; text: string }>;

  constructor(maxChars: number) {
    this.texts = BoundedMemo.weighed(maxChars, (t) => t.text.length);
  }

  /** The text remembered for the file if its stamp is unchanged, without reading it. */
  held(path: string): string | undefined {
    const known = this.texts.peek(path);
    if (!known) return undefined;
    const now = stampOf(path);
    return now && now.size === known.stamp.size && now.mtimeMs === known.stamp.mtimeMs ? known.text : undefined;
  }

  /** readSourceFile(path, false)'s text, or undefined where it refuses the file. */
  read(path: string): string | undefined {
    return this.held(path) ?? this.load(path);
  }

  /** Reads the file from disk (whatever is held) and remembers its text with its stamp. */
  load(path: string): string | undefined {
    const r = readSourceFile(path, false);
    if (!r.ok) return undefined;
    if (r.stamp) this.texts.set(path, { stamp: r.stamp, text: r.text });
    return r.text;
  }
}

/** The file's stamp, or undefined when it cannot be stat'ed or is not a regular file. */
export function stampOf(path: string): FileStamp | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

export function looksBinary(buf: Buffer): boolean {
  const n = Math.min(buf.length, 8000);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

export function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
