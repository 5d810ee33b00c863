// The one place where file: URIs become paths and paths become URIs, and where two paths are
// compared or one is checked to lie inside a workspace folder. The path flavour (path.win32 or
// path.posix) is a parameter, so the Windows rules run in tests on Linux too:
// - URIs as VS Code sends them on Windows (`file:///c%3A/Users/...`), with either drive-letter
//   case, and UNC URIs (`file://server/share/...`);
// - paths canonical per flavour: separators normalized, `..` resolved, no trailing separator,
//   the drive letter upper case, `\\?\` long-path prefixes dropped;
// - names compared case-insensitively where the folder's file system is (detected per folder);
// - confinement that a textual prefix check alone would get wrong: `..\`, another drive, a UNC
//   path, and 8.3 short names (`PROGRA~1`), which can name a long folder without spelling it.

import { statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BoundedMemo } from '../text/boundedMemo';

export type PathFlavour = typeof nodePath.posix;

/** A URI or path that names no file this server may use; the message says why. */
export class PathError extends Error {}

/** 8.3 short-name components as Windows generates them: up to six characters, `~`, a digit run. */
const SHORT_NAME = /^[^~.\\/]{1,6}~\d{1,6}(\.[^.\\/]{0,3})?$/;

export class FilePaths {
  readonly windows: boolean;
  private caseInsensitiveMemo = new Map<string, boolean>();
  /** toUri is a pure function of the path, asked for the same files on every request (pathToFileURL was ~8 % of the gate's time). Bounded: cleared when full. */
  private uriMemo = new BoundedMemo<string, string>(50_000);

  /**
   * `caseInsensitive(folder)`: whether names under a workspace folder compare case-insensitively;
   * by default detected on disk (see `detectCaseInsensitive`).
   */
  constructor(readonly flavour: PathFlavour = nodePath, private readonly caseInsensitive: (folder: string) => boolean = detectCaseInsensitive) {
    this.windows = flavour.sep === '\\';
  }

  /** The canonical path of a file: URI; throws PathError for anything else. */
  toPath(uri: unknown): string {
    if (typeof uri !== 'string' || !uri) throw new PathError('the URI must be a non-empty string');
    if (!/^file:/i.test(uri)) throw new PathError(`only file: URIs are supported, got ${shorten(uri, 80)}`);
    let path: string;
    try {
      path = fileURLToPath(uri, { windows: this.windows });
    } catch (e) {
      throw new PathError(`malformed URI ${shorten(uri, 80)}: ${shorten((e as Error).message, 120)}`);
    }
    if (path.includes('\0')) throw new PathError(`malformed URI ${shorten(uri, 80)}: a NUL character`);
    return this.canonical(path);
  }

  /** The file: URI of an absolute path (VS Code's spelling on Windows: `file:///c%3A/...`). */
  toUri(path: string): string {
    return this.uriMemo.get(path, (p) => {
      const href = pathToFileURL(this.canonical(p), { windows: this.windows }).href;
      // VS Code writes the drive letter lower case with the colon escaped; it reads either form.
      return this.windows ? href.replace(/^file:\/\/\/([A-Za-z]):/, (_, d: string) => `file:///${d.toLowerCase()}%3A`) : href;
    });
  }

  /** A path given by a user (CLI, MCP): resolved against `base` when relative, then canonical. */
  resolve(base: string, path: string): string {
    return this.canonical(this.flavour.isAbsolute(path) ? path : this.flavour.join(base, path));
  }

  /**
   * Separators normalized, `.`/`..` resolved, no trailing separator (but a root keeps its own),
   * the drive letter upper case, a `\\?\` prefix removed. Throws PathError for a relative path.
   */
  canonical(path: string): string {
    const f = this.flavour;
    let p = path;
    if (this.windows) {
      p = p.replace(/\//g, '\\');
      if (/^\\\\[.?]\\/.test(p)) {
        // Long-path and device namespaces: \\?\C:\x is C:\x, \\?\UNC\s\x is \\s\x; devices are no files.
        if (/^\\\\\?\\[A-Za-z]:\\/.test(p)) p = p.slice(4);
        else if (/^\\\\\?\\UNC\\/i.test(p)) p = '\\' + p.slice(7);
        else throw new PathError(`device path ${shorten(path, 80)} is not a file of a workspace`);
      }
      // C:foo is relative to the current directory of drive C; \foo to the current drive.
      if (!/^[A-Za-z]:\\/.test(p) && !/^\\\\[^\\]+\\[^\\]+/.test(p)) throw new PathError(`not an absolute path: ${shorten(path, 80)}`);
      // A colon past the drive is a drive-relative path joined on (C:\ws\d:x) or an alternate data stream.
      if (p.indexOf(':', 2) >= 0) throw new PathError(`a colon inside a path: ${shorten(path, 80)}`);
    } else if (!p.startsWith('/')) throw new PathError(`not an absolute path: ${shorten(path, 80)}`);
    p = f.normalize(p);
    if (this.windows && /^[a-z]:/.test(p)) p = p[0].toUpperCase() + p.slice(1);
    const root = f.parse(p).root;
    while (p.length > root.length && p.endsWith(f.sep)) p = p.slice(0, -1);
    return p;
  }

  /** Whether names under `folder` compare case-insensitively (detected once per folder). */
  caseInsensitiveAt(folder: string): boolean {
    let v = this.caseInsensitiveMemo.get(folder);
    if (v === undefined) this.caseInsensitiveMemo.set(folder, (v = this.caseInsensitive(folder)));
    return v;
  }

  /**
   * The path below `folder` relative to it ('' for the folder itself), or undefined when `path` is
   * not inside it. Both are canonical paths. Another drive, another UNC share, a path that leaves
   * through `..`, and (on Windows) 8.3 short-name components below the folder are all outside:
   * a short name may stand for any long name, so it cannot be checked by spelling.
   */
  relativeInside(folder: string, path: string): string | undefined {
    const sep = this.flavour.sep;
    const fold = this.caseInsensitiveAt(folder);
    // Component by component: lower-casing can change a string's length, a prefix test would slip.
    const parts = (p: string) => { const c = p.split(sep); if (c.length > 1 && c[c.length - 1] === '') c.pop(); return c; };
    const outer = parts(folder);
    const inner = parts(path);
    if (inner.length < outer.length) return undefined;
    const unc = this.windows && outer[0] === '' && outer[1] === '';
    for (let i = 0; i < outer.length; i++) {
      const a = outer[i], b = inner[i];
      // The drive letter and a UNC server and share never depend on case.
      const insensitive = fold || (this.windows && i === 0) || (unc && i < 4);
      if (a !== b && !(insensitive && a.toLowerCase() === b.toLowerCase())) return undefined;
    }
    const below = inner.slice(outer.length);
    if (below.some((c) => c === '..' || c === '.' || c === '')) return undefined;
    if (this.windows && below.some((c) => SHORT_NAME.test(c))) return undefined;
    return below.join(sep);
  }

  inside(folder: string, path: string): boolean {
    return this.relativeInside(folder, path) !== undefined;
  }

  /** Whether two canonical paths under `folder` name the same file. */
  same(folder: string, a: string, b: string): boolean {
    return a === b || (this.caseInsensitiveAt(folder) && a.toLowerCase() === b.toLowerCase());
  }
}

/**
 * Whether a folder's file system ignores case: the folder is looked up again with the case of its
 * last letter-bearing component swapped; the same directory (device and inode) means it does.
 * Where no component has a letter, the platform's usual answer (Windows and macOS: yes).
 */
export function detectCaseInsensitive(folder: string): boolean {
  const f = nodePath;
  const parts = folder.split(f.sep);
  for (let i = parts.length - 1; i >= 0; i--) {
    const c = parts[i];
    const swapped = [...c].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
    if (swapped === c) continue;
    try {
      const a = statSync(folder);
      const b = statSync([...parts.slice(0, i), swapped, ...parts.slice(i + 1)].join(f.sep));
      return a.dev === b.dev && a.ino === b.ino;
    } catch {
      return false; // the swapped spelling does not exist (or the folder does not): case-sensitive
    }
  }
  return process.platform === 'win32' || process.platform === 'darwin';
}

/** A string as error messages show it: never more than `max` characters (a 1 MB URI made a 1 MB message). */
export function shorten(s: string, max = 160): string {
  return s.length <= max ? s : `${s.slice(0, max - 21)}…(${s.length} characters)`;
}

/** The paths of this process's platform; the server's default. */
export const hostPaths = new FilePaths();
