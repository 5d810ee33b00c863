// Reads dependency jars as read-only code. A `-sources.jar` gives Java files, read exactly like
// workspace code; without one, each compiled class becomes a declarations-only Java file
// (stubs.ts). Either way the files are written once to a read-only cache folder named by the
// jar's content hash (an editor opens what retrieval shows; a changed jar, a new SNAPSHOT, gets a
// new folder), and only the types the workspace can reach are taken: the types its imports name,
// the packages it imports on demand or shares, then the types those files import and extend.

import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileFacts } from '../java/facts';
import { ClassFileError, readClassFile, type ClassInfo } from './classFile';
import { holdsSorted, lowerBound } from './sorted';
import { stubSource } from './stubs';
import { coordinatesText, type Dependency } from './types';
import { ZipArchive, ZipError } from './zip';

/** What the workspace asks for: qualified type names and packages. */
export interface Reach {
  types: Set<string>;
  packages: Set<string>;
}

export interface LibraryFile {
  /** The extracted (or generated) Java file in the read-only cache. */
  path: string;
  text: string;
  /** The cache folder of this jar: the file's index root. */
  root: string;
  dependency: Dependency;
  /** From a -sources.jar (true) or a compiled class (false). */
  fromSources: boolean;
}

export interface JarProblem { path: string; reason: string }

/** Imports of loaded files are followed this many rounds; supertypes up to MAX_ROUNDS. */
const IMPORT_ROUNDS = 2;
export const MAX_ROUNDS = 10;

/**
 * What a loaded type's own declarations need, added to `next`: its supertypes always (inherited
 * members resolve through them), and in the first IMPORT_ROUNDS rounds its imports and the types
 * its non-private signatures name.
 */
export function addNeeds(next: Reach, f: FileFacts, round: number): void {
  const named = (typeText: string) => {
    for (const word of typeText.match(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g) ?? []) {
      const head = word.split('.')[0];
      const imported = f.imports.find((i) => !i.wildcard && !i.static && i.name.endsWith('.' + head));
      next.types.add(imported ? imported.name : word.includes('.') ? word : `${f.package}.${word}`);
    }
  };
  for (const s of f.symbols) for (const sup of [s.superclass, ...(s.interfaces ?? [])]) if (sup) named(sup);
  if (round < IMPORT_ROUNDS) {
    for (const imp of f.imports) if (!imp.wildcard) next.types.add(imp.static ? imp.name.slice(0, imp.name.lastIndexOf('.')) : imp.name);
    for (const s of f.symbols) {
      if (s.modifiers.includes('private')) continue;
      for (const t of [s.type, s.returnType, ...(s.params ?? []).map((p) => p.type)]) if (t) named(t);
    }
  }
}

/** The reach of a set of workspace files: what their imports name and the packages they live in. */
export function reachOf(files: Iterable<FileFacts>): Reach {
  const reach: Reach = { types: new Set(), packages: new Set() };
  for (const f of files) addReach(reach, f);
  return reach;
}

function addReach(reach: Reach, f: FileFacts): void {
  reach.packages.add(f.package);
  for (const imp of f.imports) {
    if (imp.wildcard) { reach.packages.add(imp.name); reach.types.add(imp.name); continue; } // `import static a.B.*` names a type
    reach.types.add(imp.static ? imp.name.slice(0, imp.name.lastIndexOf('.')) : imp.name);
  }
}

const JAVA_PATH = /^[A-Za-z_$][\w$]*(?:\/[A-Za-z_$][\w$]*)*$/;

/**
 * What a previous run learnt of a jar: its top-level types and content hash, trusted while the
 * jar's size and mtime are unchanged, so a warm start reads no jar whose types are already cached.
 */
interface JarListing { size: number; mtimeMs: number; sources: boolean; tops: string[]; hash?: string }

const LISTINGS_FILE = 'jars.json';

function readListings(cacheRoot: string): Map<string, JarListing> {
  try {
    const o = JSON.parse(readFileSync(join(cacheRoot, LISTINGS_FILE), 'utf8')) as { jars?: Record<string, JarListing> };
    return new Map(Object.entries(o.jars ?? {}).filter(([, l]) => Array.isArray(l?.tops) && typeof l.size === 'number'));
  } catch {
    return new Map(); // absent or malformed: every jar is listed again
  }
}

function saveListings(cacheRoot: string, listings: Map<string, JarListing>): void {
  try {
    mkdirSync(cacheRoot, { recursive: true });
    const tmp = join(cacheRoot, `${LISTINGS_FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify({ jars: Object.fromEntries([...listings].sort((x, y) => (x[0] < y[0] ? -1 : 1))) }));
    renameSync(tmp, join(cacheRoot, LISTINGS_FILE));
  } catch { /* a read-only cache only costs the next start its listings */ }
}

/** One jar: its source or class entries by top-level type name; the archive itself opened only when needed. */
class OpenJar {
  /** Top-level types by internal name (`a/b/C`), sorted. */
  readonly tops: string[];
  private classes = new Map<string, ClassInfo | null>();

  constructor(readonly label: string, readonly listing: JarListing, readonly problems: JarProblem[], private archive?: ZipArchive) {
    this.tops = listing.tops;
  }

  get sources(): boolean { return this.listing.sources; }

  /** The archive; throws ZipError when it cannot be read. */
  zip(): ZipArchive {
    return (this.archive ??= ZipArchive.open(this.label));
  }

  close(): void {
    this.archive?.close();
  }

  /** The jar's content hash (read once, then kept in the listing). */
  hash(): string {
    return (this.listing.hash ??= createHash('sha256').update(readFileSync(this.label)).digest('hex').slice(0, 24));
  }

  /** Qualified names of the top-level types of a package (dotted), sorted. */
  typesIn(pkg: string): string[] {
    const prefix = pkg ? pkg.replaceAll('.', '/') + '/' : '';
    const out: string[] = [];
    for (let i = lowerBound(this.tops, prefix); i < this.tops.length && this.tops[i].startsWith(prefix); i++) {
      if (!this.tops[i].includes('/', prefix.length)) out.push(this.tops[i].replaceAll('/', '.'));
    }
    return out;
  }

  /** The top-level type a qualified name means, trying `a.b.Outer.Inner` as `a.b.Outer`. */
  topOf(name: string): string | undefined {
    for (let n = name; n.includes('.'); n = n.slice(0, n.lastIndexOf('.'))) if (holdsSorted(this.tops, n.replaceAll('.', '/'))) return n;
    return undefined;
  }

  private entry(name: string): Buffer | undefined {
    try {
      const r = this.zip().read(name);
      if (r.ok) return r.data;
      this.problems.push({ path: `${this.label}!/${name}`, reason: r.reason });
    } catch (e) {
      this.problems.push({ path: this.label, reason: `corrupt jar: ${(e as Error).message}` });
    }
    return undefined;
  }

  classInfo(internal: string): ClassInfo | undefined {
    if (this.classes.has(internal)) return this.classes.get(internal) ?? undefined;
    let info: ClassInfo | null = null;
    const data = this.entry(internal + '.class');
    if (data) {
      try { info = readClassFile(data); } catch (e) {
        this.problems.push({ path: `${this.label}!/${internal}.class`, reason: e instanceof ClassFileError ? e.message : `unreadable class file: ${(e as Error).message}` });
      }
    }
    this.classes.set(internal, info);
    return info ?? undefined;
  }

  /** The Java text of one top-level type, or undefined (the reason is in problems). */
  text(qualified: string): string | undefined {
    const bare = qualified.replaceAll('.', '/');
    if (this.sources) return this.entry(bare + '.java')?.toString('utf8');
    const info = this.classInfo(bare);
    if (!info) return undefined;
    try {
      return stubSource(info, (n) => this.classInfo(n), `${this.label}!/${bare}.class`);
    } catch (e) {
      this.problems.push({ path: `${this.label}!/${bare}.class`, reason: `unreadable signature: ${(e as Error).message}` });
      return undefined;
    }
  }
}

/** The top-level types of an opened archive (entry names that can be Java types only). */
function listTops(zip: ZipArchive, sources: boolean): string[] {
  const ext = sources ? '.java' : '.class';
  const tops: string[] = [];
  for (const name of zip.entries.keys()) {
    if (!name.endsWith(ext)) continue;
    const bare = name.slice(0, -ext.length);
    // Member and anonymous classes come with their top-level class; module and package descriptors declare no type.
    if ((!sources && bare.includes('$')) || bare.startsWith('META-INF/') || bare.endsWith('-info')) continue;
    // Only names that can be Java types: a hostile entry name never becomes a path outside the cache.
    if (JAVA_PATH.test(bare)) tops.push(bare);
  }
  return tops.sort();
}

export interface LoadResult {
  files: LibraryFile[];
  problems: JarProblem[];
  /** Per dependency (by jar path): types loaded. */
  typesLoaded: Map<string, number>;
  /** Per jar, every top-level type it holds, loaded or not (internal names, `a/b/C`, sorted): real APIs the index has not read. */
  jarTypes: string[][];
  jarsOpened: number;
}

/**
 * Loads the types of the dependencies' jars that the reach names, then the types those files
 * import or extend (for IMPORT_ROUNDS rounds; supertypes in the same package always).
 * `factsOf` gives the facts of the text that goes to a cache path (the index's own extraction, or
 * what the index already holds for that path and text).
 */
export async function loadLibraries(deps: Dependency[], reach: Reach, cacheRoot: string, factsOf: (text: string, path: string) => Promise<FileFacts>): Promise<LoadResult & { facts: Map<string, FileFacts> }> {
  const problems: JarProblem[] = [];
  const listings = readListings(cacheRoot);
  const knownHashes = new Map([...listings].map(([path, l]) => [path, l.hash]));
  const jars: { dep: Dependency; jar: OpenJar }[] = [];
  for (const dep of deps) {
    const path = dep.sourcesJar ?? dep.jar;
    if (!path || dep.problem) continue;
    // A broken -sources.jar falls back to the classes.
    const jar = openJar(path, !!dep.sourcesJar, problems, listings) ?? (dep.sourcesJar && dep.jar ? openJar(dep.jar, false, problems, listings) : undefined);
    if (jar) jars.push({ dep, jar });
  }
  try {
    const files: LibraryFile[] = [];
    const facts = new Map<string, FileFacts>();
    const typesLoaded = new Map<string, number>();
    const taken = new Set<string>(); // qualified top-level names already loaded (the first jar on the classpath wins)
    let wanted = reach;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const next: Reach = { types: new Set(), packages: new Set() };
      let any = false;
      for (const { dep, jar } of jars) {
        const names = new Set<string>();
        for (const t of wanted.types) { const top = jar.topOf(t); if (top) names.add(top); }
        for (const p of wanted.packages) for (const t of jar.typesIn(p)) names.add(t);
        for (const name of [...names].sort()) {
          if (taken.has(name)) continue;
          taken.add(name);
          // Hashed only once a type is taken from it: unreached jars are never read whole. A type
          // already in the jar's cache folder is read from there, without opening the jar.
          const root = join(cacheRoot, jar.hash());
          const path = join(root, jar.sources ? 'sources' : 'classes', ...name.split('.')) + '.java';
          let text = cachedText(path);
          if (text === undefined) {
            text = jar.text(name);
            if (text === undefined) continue;
            writeReadOnly(path, text);
          }
          const f = await factsOf(text, path);
          facts.set(path, f);
          files.push({ path, text, root, dependency: dep, fromSources: jar.sources });
          typesLoaded.set(dep.jar ?? dep.sourcesJar!, (typesLoaded.get(dep.jar ?? dep.sourcesJar!) ?? 0) + 1);
          any = true;
          addNeeds(next, f, round);
        }
      }
      if (!any) break;
      wanted = next;
    }
    const jarTypes = jars.map(({ jar }) => jar.tops);
    return { files, facts, problems, typesLoaded, jarsOpened: jars.length, jarTypes };
  } finally {
    for (const { jar } of jars) jar.close();
    // Saved when a jar was listed anew or hashed for the first time.
    if ([...listings].some(([path, l]) => !knownHashes.has(path) || knownHashes.get(path) !== l.hash)) saveListings(cacheRoot, listings);
  }
}

function openJar(path: string, sources: boolean, problems: JarProblem[], listings: Map<string, JarListing>): OpenJar | undefined {
  let st;
  try { st = statSync(path); } catch (e) {
    problems.push({ path, reason: `unreadable jar (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` });
    return undefined;
  }
  const known = listings.get(path);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs && known.sources === sources) return new OpenJar(path, known, problems);
  try {
    const zip = ZipArchive.open(path);
    const listing: JarListing = { size: st.size, mtimeMs: st.mtimeMs, sources, tops: listTops(zip, sources) };
    listings.set(path, listing);
    return new OpenJar(path, listing, problems, zip);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    problems.push({ path, reason: e instanceof ZipError ? `corrupt jar: ${e.message}` : code ? `unreadable jar (${code})` : `unreadable jar: ${(e as Error).message}` });
    return undefined;
  }
}

/** A type's text from the jar's cache folder (written by an earlier run from the same jar content). */
export function cachedText(path: string): string | undefined {
  try { return readFileSync(path, 'utf8'); } catch { return undefined; }
}

/** Writes a cache file read-only, unless it already holds this text (same jar hash, same name). */
export function writeReadOnly(path: string, text: string): void {
  try { if (readFileSync(path, 'utf8') === text) return; } catch { /* absent: write it */ }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  chmodSync(tmp, 0o444);
  renameSync(tmp, path);
}

export function dependencyLabel(d: Dependency): string {
  return d.coordinates ? coordinatesText(d.coordinates) : (d.jar ?? d.declaredIn);
}
