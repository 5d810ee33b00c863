// The I/O edge around WorkspaceIndex: owns the ground state (which folders, which open
// documents), reads files, runs the worker pool for cold indexing, persists the cache, and
// turns watcher events and editor edits into index updates. Everything it learns about a file
// it can't index goes into `skipped` with a reason.

import { realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { DependencyStatus, OrgLoadStatus, StatusResult } from '../../../shared/protocol';
import type { FileFacts } from '../java/facts';
import type { OrgTypeLoader } from '../org/library';
import { defaultDependencySettings, discoverDependencies, type DependencySettings } from '../deps/discover';
import { cachedText, dependencyLabel, loadLibraries, reachOf } from '../deps/library';
import { discoverFiles, hashText, isConfigFile, isJavaFile, readSourceFile, RecentTexts, stampOf, type FileStamp } from './files';
import { javaParser } from '../java/parser';
import { OpenTrees } from './incrementalParse';
import { factsOfText, refsOfText } from './parseFile';
import { loadCache, saveCache, type CachedFile } from './persist';
import type { ParseOutcome } from './parseFile';
import { deriveAll, parseAll, type KnownFile } from './pool';
import { relaxHeapGrowth } from '../platform/heapGrowth';
import type { Derivation } from './worker';
import { WorkspaceIndex, type LibraryMark } from './workspaceIndex';
import { FilePaths, hostPaths } from '../platform/paths';
import { normalizeLineEndings } from '../text/lines';

/** realpath by one system call, or by the JavaScript walk where the native call fails. */
function realPath(path: string): string {
  try { return realpathSync.native(path); } catch { return realpathSync(path); }
}

/**
 * Wall time per phase of a folder's indexing. `parse` is the wall time of the workers' parsing,
 * and `takeIn` the main thread's share of it: decoding the workers' results and adding them to
 * the symbol table. The rest runs after the parse, one phase after the other.
 */
export interface IndexPhases { discover: number; parse: number; takeIn: number; dependencies: number; resolve: number; prepare: number; save: number }

function cpuMsNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export interface IndexerOptions {
  /** Where the per-folder cache lives; null disables persistence. */
  cacheDir: string | null;
  workers?: number;
  exclude?: string[];
  log?: (msg: string) => void;
  onProgress?: (done: number, total: number) => void;
  /** How paths compare and what lies inside a folder (platform/paths.ts); this platform's by default. */
  paths?: FilePaths;
  /** How dependency jars are found and classified; false leaves them out. */
  dependencies?: DependencySettings | false;
  /**
   * The last phase of a folder's index, before the folder counts as ready: the server builds
   * retrieval's workspace-wide structures there (service.ts prepareIndexer), so the first request
   * answers at its usual latency. The index module itself knows nothing of them.
   */
  prepare?: (indexer: Indexer) => Promise<void>;
  /** Types other repositories declare, from the organisation index (org/library.ts); absent: none. */
  orgLibrary?: OrgTypeLoader;
  /**
   * A derivation the parsing workers run on every file they parse (index/worker.ts); the results
   * wait in takeDerived until taken. Publishing uses it to vet and chunk while the index is built.
   */
  derive?: Derivation;
  /** Called with each file's derivation as it arrives from its worker (it is also kept for takeDerived). */
  onDerived?: (path: string, derived: unknown) => void;
}

declare const __NEEDLE_INDEXER_VERSION__: string | undefined;

/** A hash of the extraction and resolution sources, set by the build; caches of other versions are rebuilt. */
export function indexerVersion(): string {
  return typeof __NEEDLE_INDEXER_VERSION__ === 'string' ? __NEEDLE_INDEXER_VERSION__ : 'dev';
}

/** Characters of disk texts textOf keeps (a few hundred typical files; the linesOf cache of retrieval/items.ts holds 500). */
const DISK_TEXT_CHARS = 32_000_000;

export class Indexer {
  readonly index = new WorkspaceIndex();
  readonly folders: string[] = [];
  private skipped = new Map<string, string>();
  private overlays = new Map<string, string>();
  /**
   * Per workspace folder, its configuration files (files.ts isConfigFile) as discovery found them and
   * watcher events since changed them: lexical recall searches these instead of walking the folders.
   */
  private configFiles = new Map<string, Set<string>>();
  /** configFilesIn's last answer, until the folders or their config files change. */
  private configList?: { folders: string; files: readonly string[] };
  /** Disk stamps of files as last read, with the hash read then. */
  private stamps = new Map<string, { stamp: FileStamp; hash: string }>();
  /** Per folder, the index version its cache file reflects. */
  private savedVersion = new Map<string, number>();
  private pending = 0;
  /** What the workers derived (options.derive), per path, with the hash of the text it came from. */
  private derived = new Map<string, unknown>();
  private firstIndexDone = new Set<string>();
  paused = false;
  /** Per workspace folder: its dependencies as last discovered, and the library files read for it. */
  private dependencies = new Map<string, { status: DependencyStatus[]; files: string[] }>();
  /** Timing and size of the last dependency load (benchmarks and `needle index` report it). */
  dependencyLoad?: { jars: number; types: number; ms: number };
  indexMs?: number;
  /** Of indexMs, the time the prepare phase took (the last folder indexed). */
  prepareMs?: number;
  /** Where the last folder's indexing went, in ms of wall time (benchmarks and `needle index` report it). */
  phases?: IndexPhases;
  /** The same in CPU time of the whole process (all threads: during `parse` the workers' too; `takeIn` is not measured). */
  phasesCpu?: IndexPhases;
  lastUpdateMs?: number;
  private readonly version = indexerVersion();
  readonly paths: FilePaths;

  /** Where the caches are kept (null: none). */
  get cacheDir(): string | null { return this.options.cacheDir; }
  /** Writes a message to the indexer's log. */
  note(message: string): void { this.log(message); }

  constructor(private options: IndexerOptions) {
    // Reference sites are only needed while resolving: released afterwards, re-extracted on demand.
    this.paths = options.paths ?? hostPaths;
    this.index.releaseRefs = true;
    this.index.refsLoader = (path, hash) => refsOfText(this.textOf(path), hash);
  }

  /** Gitignore-style patterns of the `needle.exclude` setting, applied from the next scan on. */
  setExclude(patterns: string[]): void {
    this.options.exclude = patterns;
  }

  /** The dependency settings (needle.dependencies, needle.internalGroups, …), applied from the next folder indexed on. */
  setDependencySettings(settings: DependencySettings): void {
    this.options.dependencies = settings;
  }

  /** Progress of cold indexing: files done out of files found. */
  setProgressListener(listener: ((done: number, total: number) => void) | undefined): void {
    this.options.onProgress = listener;
  }

  private log(msg: string): void {
    this.options.log?.(msg);
  }

  /** Folders announced (e.g. at LSP initialize) but not yet indexed: the state is 'indexing' until they are. */
  private expected = new Set<string>();

  expectFolders(roots: string[]): void {
    for (const r of roots) this.expected.add(r);
  }

  get state(): 'indexing' | 'ready' {
    return this.pending > 0 || this.expected.size > 0 || this.folders.some((f) => !this.firstIndexDone.has(f)) ? 'indexing' : 'ready';
  }

  /** The innermost workspace folder holding `path` (paths.ts decides what is inside), if any. */
  rootOf(path: string): string | undefined {
    let best: string | undefined;
    for (const f of this.folders) if (this.paths.inside(f, path) && (!best || f.length > best.length)) best = f;
    return best;
  }

  /**
   * The path as the index spells it: on a case-insensitive folder a request may spell an indexed
   * file differently (`src\\main` for `src\\Main`); the indexed spelling is the one stages look up.
   */
  spelledAsIndexed(path: string): string {
    const root = this.rootOf(path);
    if (!root || this.index.file(path) || this.overlays.has(path) || !this.paths.caseInsensitiveAt(root)) return path;
    for (const f of this.index.allFiles()) if (f.root === root && this.paths.same(root, f.path, path)) return f.path;
    for (const p of this.overlays.keys()) if (this.paths.same(root, p, path)) return p;
    return path;
  }

  /** Cold-indexes a folder (reusing the cache for unchanged files) and resolves everything. */
  async addFolder(root: string): Promise<void> {
    if (this.folders.includes(root)) { this.expected.delete(root); return; }
    this.folders.push(root);
    this.pending++;
    this.expected.delete(root);
    const started = performance.now();
    const phases: IndexPhases = { discover: 0, parse: 0, takeIn: 0, dependencies: 0, resolve: 0, prepare: 0, save: 0 };
    const phasesCpu: IndexPhases = { ...phases };
    let mark = started;
    let cpuMark = cpuMsNow();
    const lap = (phase: keyof IndexPhases) => {
      const now = performance.now(), cpu = cpuMsNow();
      phases[phase] += now - mark; phasesCpu[phase] += cpu - cpuMark;
      mark = now; cpuMark = cpu;
    };
    // The heap only grows while a folder's index is built, from the cache or by parsing, until
    // resolution is done: V8's own growing factor till then (a tight one collects the growing heap
    // again and again: on the whole JDK's warm start, 13 full collections while the cache loads).
    const restoreHeapGrowth = relaxHeapGrowth();
    try {
      await javaParser(); // re-extraction of released reference sites parses synchronously
      const discovered = discoverFiles(root, { exclude: this.options.exclude, accept: (name) => isJavaFile(name) || isConfigFile(name) });
      const files = discovered.files.filter(isJavaFile);
      this.configFiles.set(root, new Set(discovered.files.filter((p) => !isJavaFile(p))));
      this.configList = undefined;
      for (const s of discovered.skipped) this.skipped.set(s.path, s.reason);
      const cache = this.options.cacheDir ? loadCache(this.options.cacheDir, root, this.version) : { files: new Map<string, CachedFile>() };
      if ('problem' in cache && cache.problem) this.log(cache.problem);
      // Warm start: the saved snapshot is restored exactly (facts and edges), then whatever changed
      // since is applied as ordinary incremental updates, which keeps "incremental = fresh build".
      // Only for the first folder: a snapshot's edges assume the other folders it was saved with.
      const entries = [...cache.files.entries()];
      const warm = this.index.allFiles().length === 0 && entries.length > 0 && entries.every(([, e]) => e.resolution);
      if (warm) {
        const libraries: string[] = [];
        for (const [path, e] of entries) {
          this.index.putResolved(path, e.library?.root ?? root, e.hash, e.facts, e.resolution!);
          if (!e.library) continue;
          const { root: _libRoot, ...mark } = e.library;
          this.index.markLibrary(path, mark);
          libraries.push(path);
        }
        // loadDependencies keeps those still reached (same jar, same text: nothing to redo) and removes the rest.
        if (libraries.length) this.dependencies.set(root, { status: [], files: libraries });
      }
      const jobs: { path: string; text?: string; hash?: string }[] = [];
      const present = new Set<string>();
      let done = 0;
      let stampsChanged = false;
      const reuse = (path: string, cached: CachedFile) => {
        present.add(path);
        if (!warm) this.index.put(path, root, cached.hash, cached.facts);
        done++;
      };
      for (const path of files) {
        const overlay = this.overlays.get(path);
        const cached = cache.files.get(path);
        if (overlay !== undefined) {
          const hash = hashText(overlay);
          if (cached?.hash === hash) reuse(path, cached);
          else { present.add(path); jobs.push({ path, text: overlay, hash }); }
          continue;
        }
        if (!cached) { jobs.push({ path }); continue; } // the worker reads it
        // Same size and mtime as when it was read: the cached content, without reading it again.
        if (cached.stamp && sameStamp(stampOf(path), cached.stamp)) {
          this.stamps.set(path, { stamp: cached.stamp, hash: cached.hash });
          reuse(path, cached);
          continue;
        }
        // The content hash is the truth: a touched file with the same text is unchanged.
        const r = readSourceFile(path);
        if (!r.ok) { this.skipped.set(path, r.reason); done++; continue; }
        this.noteStamp(path, r.stamp, r.hash);
        if (!sameStamp(r.stamp, cached.stamp)) stampsChanged = true;
        if (cached.hash === r.hash) reuse(path, cached);
        else { present.add(path); jobs.push({ path }); }
      }
      const removed = warm ? entries.filter(([p, e]) => !e.library && !present.has(p)).map(([p]) => p) : [];
      // Many changes (a branch switch): one full resolution beats many cascaded updates.
      const incremental = warm && jobs.length + removed.length <= Math.max(20, files.length * 0.05);
      this.options.onProgress?.(done, files.length);
      lap('discover');
      // Results are taken in as they arrive, so building the symbol table overlaps parsing.
      const take = (r: ParseOutcome) => {
        if (!this.folders.includes(root)) return; // folder removed meanwhile
        if (r.ok) {
          this.noteStamp(r.path, r.stamp, r.hash);
          if (incremental) this.index.update(r.path, root, r.hash, r.facts);
          else this.index.put(r.path, root, r.hash, r.facts);
          this.skipped.delete(r.path);
        } else {
          this.skipped.set(r.path, r.reason);
          if (this.index.file(r.path)) incremental ? this.index.remove(r.path) : this.index.drop(r.path);
        }
      };
      for (const p of removed) incremental ? this.index.remove(p) : this.index.drop(p);
      const timing = { decodeMs: 0 };
      try {
        await parseAll(jobs, {
          workers: this.options.workers,
          timing,
          shouldPause: () => this.paused,
          derive: this.options.derive,
          onResult: (r, derived) => {
            const t = performance.now();
            take(r);
            if (derived !== undefined) { this.derived.set(r.path, derived); this.options.onDerived?.(r.path, derived); }
            this.options.onProgress?.(++done, files.length);
            phases.takeIn += performance.now() - t;
          },
        });
        lap('parse');
        phases.takeIn += timing.decodeMs;
        if (!this.folders.includes(root)) return;
        await this.loadDependencies(root, incremental);
        lap('dependencies');
        if (!this.folders.includes(root)) return;
        if (!incremental) this.index.resolveAll();
        lap('resolve');
      } finally {
        restoreHeapGrowth();
      }
      if (this.options.prepare) {
        const t = performance.now();
        await this.options.prepare(this);
        this.prepareMs = performance.now() - t;
        lap('prepare');
        if (!this.folders.includes(root)) return;
      }
      this.indexMs = performance.now() - started;
      this.firstIndexDone.add(root);
      // A warm start that changed nothing leaves the cache as it is on disk.
      if (warm && !jobs.length && !removed.length && !stampsChanged) this.savedVersion.set(root, this.index.version);
      this.saveFolderCache(root);
      lap('save');
      this.phases = phases;
      this.phasesCpu = phasesCpu;
      this.log(`indexed ${root}: ${files.length} files (${jobs.length} parsed, ${files.length - jobs.length} from cache${warm ? ', edges restored' : ''}) in ${Math.round(this.indexMs)} ms${this.prepareMs !== undefined ? ` (${Math.round(this.prepareMs)} ms of it preparing retrieval)` : ''}`);
    } finally {
      restoreHeapGrowth();
      this.pending--;
    }
  }

  /**
   * Finds the folder's dependency jars and indexes the types its code can reach, as read-only
   * files in the dependency cache (never watched; a changed jar has a new hash, so a new folder);
   * then the types it still reaches that another repository of the organisation index declares
   * (org/library.ts). Before the folder's resolution, so one pass resolves workspace and libraries together.
   */
  private async loadDependencies(root: string, incremental: boolean): Promise<void> {
    const settings = this.options.dependencies;
    const org = this.options.orgLibrary;
    const previous = new Set(this.dependencies.get(root)?.files ?? []);
    if (settings === false && !org) {
      // Library types a warm start restored from a run that read dependencies leave with them.
      for (const p of previous) incremental ? this.index.remove(p) : this.index.drop(p);
      this.dependencies.delete(root);
      this.orgLoads.delete(root);
      return;
    }
    const started = performance.now();
    const discovery = settings === false ? { dependencies: [], problems: [] } : discoverDependencies(root, settings ?? defaultDependencySettings());
    // The problems of the previous discovery of this folder go; this one's are listed.
    for (const p of this.dependencyProblems.get(root) ?? []) this.skipped.delete(p);
    const problemPaths: string[] = [];
    this.dependencyProblems.set(root, problemPaths);
    for (const p of discovery.problems) { this.skipped.set(p.path, p.reason); problemPaths.push(p.path); }
    const reach = reachOf(this.index.allFiles().filter((f) => f.root === root && !this.index.libraryOf(f.path)).map((f) => f.facts));
    const cacheRoot = join(this.options.cacheDir ?? join(tmpdir(), `needle-${process.getuid?.() ?? 'user'}`), 'deps');
    // A warm start restored the reached types with their facts: the same text is not parsed again.
    const factsOf = async (text: string, path: string) => {
      const known = this.index.file(path);
      return known && known.hash === hashText(text) ? known.facts : factsOfText(text);
    };
    const loaded = await loadLibraries(discovery.dependencies, reach, cacheRoot, factsOf);
    for (const p of loaded.problems) { this.skipped.set(p.path, p.reason); problemPaths.push(p.path); }
    const files: string[] = [];
    const taken = new Set<string>();
    const add = (lib: { path: string; text: string; root: string }, f: FileFacts, mark: LibraryMark) => {
      const hash = hashText(lib.text);
      files.push(lib.path);
      previous.delete(lib.path);
      this.libraryText.set(lib.path, lib.text);
      if (this.index.file(lib.path)?.hash !== hash) {
        if (incremental) this.index.update(lib.path, lib.root, hash, f);
        else this.index.put(lib.path, lib.root, hash, f);
      }
      this.index.markLibrary(lib.path, mark);
      for (const s of f.symbols) if (s.parent === -1) taken.add(s.id);
    };
    for (const lib of loaded.files) add(lib, loaded.facts.get(lib.path)!, { dependency: dependencyLabel(lib.dependency), internal: lib.dependency.internal, fromSources: lib.fromSources });
    let listings = loaded.jarTypes;
    if (org) {
      // A type counts as declared when workspace code or a jar declares it; a type an earlier org
      // load (warm start) put in the index is not, so it is taken again from the org index.
      const declared = (q: string) => taken.has(q) || (!!this.index.symbol(q) && !this.isOrgLibrary(this.index.symbol(q)!.file.path));
      const o = await org({ reach, declared, cacheRoot, factsOf, excludeRepo: basename(root) });
      for (const p of o.problems) { this.skipped.set(p.path, p.reason); problemPaths.push(p.path); }
      for (const lib of o.files) add(lib, o.facts.get(lib.path)!, { dependency: lib.label, internal: true, fromSources: true });
      // Unreadable now: the org types a warm start restored stay, as last loaded, rather than vanish.
      if (o.skipped) {
        for (const p of [...previous].filter((p) => this.isOrgLibrary(p))) {
          const text = cachedText(p);
          if (text === undefined) continue;
          files.push(p);
          previous.delete(p);
          this.libraryText.set(p, text);
        }
      }
      if (o.listing.length) listings = [...listings, o.listing];
      this.orgLoads.set(root, { types: o.files.length, repositories: o.repositories, ms: Math.round(o.ms), ...(o.skipped ? { skipped: o.skipped } : {}) });
      this.log(o.skipped ?? `org index for ${root}: ${o.files.length} types from ${o.repositories.join(', ') || 'no repository'} in ${Math.round(o.ms)} ms`);
    }
    // Types no longer reached (or from a jar that changed) leave the index.
    for (const p of previous) { this.libraryText.delete(p); incremental ? this.index.remove(p) : this.index.drop(p); }
    const status: DependencyStatus[] = discovery.dependencies.map((d) => {
      const jarProblem = loaded.problems.find((p) => p.path === d.jar || p.path === d.sourcesJar);
      const s: DependencyStatus = {
        name: dependencyLabel(d), source: d.source, declaredIn: d.declaredIn, sourcesFound: !!d.sourcesJar, internal: d.internal,
        typesLoaded: loaded.typesLoaded.get(d.jar ?? d.sourcesJar ?? '') ?? 0,
      };
      if (d.scope) s.scope = d.scope;
      if (d.via) s.via = d.via;
      if (d.jar) s.jar = d.jar;
      if (d.module) s.module = d.module;
      if (d.problem ?? jarProblem) s.problem = d.problem ?? jarProblem!.reason;
      return s;
    });
    this.dependencies.set(root, { status, files });
    this.index.setJarTypes(root, listings);
    this.dependencyLoad = { jars: loaded.jarsOpened, types: loaded.files.length, ms: performance.now() - started };
    if (discovery.dependencies.length) this.log(`dependencies of ${root}: ${discovery.dependencies.length} found, ${loaded.jarsOpened} jars read, ${loaded.files.length} types loaded in ${Math.round(this.dependencyLoad.ms)} ms`);
  }

  /**
   * A file dependency discovery reads changed (a watcher event on pom.xml, .classpath, the Gradle
   * classpath file, lib/*.jar): the folder's dependencies are found and loaded again, incrementally,
   * so the workspace files whose names now mean something else are re-resolved. Before the
   * folder's first index this is left to that index.
   */
  async dependencyFileChanged(path: string): Promise<void> {
    const root = this.rootOf(path);
    if (!root || !this.firstIndexDone.has(root)) return;
    this.pending++;
    try {
      await this.loadDependencies(root, true);
      this.saveFolderCache(root);
    } finally {
      this.pending--;
    }
  }

  /** Paths the folder's last dependency discovery listed as skipped (cleared when it runs again). */
  private dependencyProblems = new Map<string, string[]>();

  /** Per workspace folder: what the last org type load gave (status reports it). */
  private orgLoads = new Map<string, OrgLoadStatus>();

  /** Whether an indexed file came from the org index (its library mark names an org repository). */
  private isOrgLibrary(path: string): boolean {
    return this.index.libraryOf(path)?.dependency.startsWith('org ') ?? false;
  }

  /** Where the organisation index's types come from (org/library.ts orgTypeLoader), from the next folder indexed on; undefined: none. */
  setOrgLibrary(loader: OrgTypeLoader | undefined): void {
    this.options.orgLibrary = loader;
  }

  /** Texts of the library files (read-only; kept so retrieval never re-reads the cache folder). */
  private libraryText = new Map<string, string>();

  /** Saves the folder's cache unless nothing changed since it was last saved or restored. */
  saveFolderCache(root: string): void {
    if (!this.options.cacheDir || this.savedVersion.get(root) === this.index.version) return;
    const entries = new Map<string, CachedFile>();
    for (const f of this.index.allFiles()) {
      if (f.root !== root) continue;
      const disk = this.stamps.get(f.path);
      entries.set(f.path, { hash: f.hash, facts: f.facts, resolution: f.resolution, stamp: disk?.hash === f.hash ? disk.stamp : undefined });
    }
    for (const path of this.dependencies.get(root)?.files ?? []) {
      const f = this.index.file(path), mark = this.index.libraryOf(path);
      if (f && mark) entries.set(path, { hash: f.hash, facts: f.facts, resolution: f.resolution, library: { root: f.root, ...mark } });
    }
    const problem = saveCache(this.options.cacheDir, root, this.version, entries);
    if (problem) this.log(problem);
    else this.savedVersion.set(root, this.index.version);
  }

  /** The disk stamp that goes with a hash read from disk; the cache keeps it only while the index holds that hash. */
  private noteStamp(path: string, stamp: FileStamp | undefined, hash: string): void {
    if (stamp) this.stamps.set(path, { stamp, hash });
    else this.stamps.delete(path);
  }

  removeFolder(root: string): void {
    this.expected.delete(root);
    const i = this.folders.indexOf(root);
    if (i < 0) return;
    this.folders.splice(i, 1);
    this.firstIndexDone.delete(root);
    this.configFiles.delete(root);
    this.configList = undefined;
    for (const p of [...this.skipped.keys()]) if (this.paths.inside(root, p)) this.skipped.delete(p);
    const libs = this.dependencies.get(root)?.files ?? [];
    this.dependencies.delete(root);
    this.orgLoads.delete(root);
    this.index.setJarTypes(root, undefined);
    const stillUsed = new Set([...this.dependencies.values()].flatMap((d) => d.files));
    for (const p of libs) if (!stillUsed.has(p)) { this.libraryText.delete(p); this.index.drop(p); }
    this.index.removeFolder(root);
  }

  /**
   * False when the path resolves (through symlinks) outside its workspace folder: such a file is
   * never read, whatever asks for it (a request's URI, a watcher event, a pipeline stage).
   */
  confined(path: string): boolean {
    const root = this.rootOf(path);
    if (!root) return false;
    let real: string;
    // The native realpath: one system call, where the JavaScript one lstats every component. Some
    // Windows drives (mapped, virtual) refuse the native call; the JavaScript one still answers there.
    try { real = realPath(path); } catch { return true; } // missing: the read reports it
    let rootReal: string;
    try { rootReal = realPath(root); } catch { return false; }
    try { return this.paths.inside(this.paths.canonical(rootReal), this.paths.canonical(real)); } catch { return false; }
  }

  /** The file's current text: the open document if any, else disk (never through a symlink out of the folder). */
  /**
   * Runs the indexer's derivation (options.derive) in the worker threads on indexed files no worker
   * derived from (their facts came from the cache): each worker reads the file and derives from it
   * and the facts sent, into takeDerived and onDerived as if it had parsed it. Only files whose text
   * is on disk inside their folder (no open document); whatever stays underived is the caller's.
   */
  async deriveInWorkers(paths: readonly string[]): Promise<void> {
    const derive = this.options.derive;
    if (!derive) return;
    const files: KnownFile[] = [];
    for (const path of paths) {
      const f = this.index.file(path);
      if (!f || this.derived.has(path) || this.overlays.has(path) || this.libraryText.has(path) || !this.confined(path)) continue;
      files.push({ path, hash: f.hash, facts: f.facts });
    }
    await deriveAll(files, derive, {
      workers: this.options.workers,
      shouldPause: () => this.paused,
      onDerived: (path, derived) => { this.derived.set(path, derived); this.options.onDerived?.(path, derived); },
    });
  }

  /** What a worker derived from `path` when it parsed it (options.derive), handed over once; undefined if none did. */
  takeDerived(path: string): unknown {
    const d = this.derived.get(path);
    this.derived.delete(path);
    return d;
  }

  textOf(path: string): string | undefined {
    const overlay = this.overlays.get(path);
    if (overlay !== undefined) return overlay;
    const library = this.libraryText.get(path);
    if (library !== undefined) return library;
    if (!this.rootOf(path)) return undefined;
    // A text still held was read when the path was confined, and is served only while the file's
    // stamp is unchanged: the confinement check (two realpath calls) is for reading the disk.
    const held = this.diskTexts.held(path);
    if (held !== undefined) return held;
    if (!this.confined(path)) return undefined;
    return this.diskTexts.load(path);
  }

  /** Disk texts textOf read recently (retrieval asks for the same files request after request). */
  private diskTexts = new RecentTexts(DISK_TEXT_CHARS);

  openPaths(): string[] {
    return [...this.overlays.keys()].sort();
  }

  /** The configuration files of these folders (each as discovery and the watcher know it), sorted. */
  configFilesIn(folders: readonly string[]): readonly string[] {
    const key = folders.join('\0');
    if (this.configList?.folders !== key) {
      const files: string[] = [];
      for (const f of new Set(folders)) for (const p of this.configFiles.get(f) ?? []) files.push(p);
      this.configList = { folders: key, files: [...new Set(files)].sort() };
    }
    return this.configList.files;
  }

  /** A watcher event on a configuration file: listed while it is a regular file inside its folder. */
  private configFileEvent(path: string): void {
    const root = this.rootOf(path);
    const files = root === undefined ? undefined : this.configFiles.get(root);
    if (!files) return;
    let present = false;
    try { present = statSync(path).isFile() && this.confined(path); } catch { /* gone */ }
    if (present === files.has(path)) return;
    if (present) files.add(path);
    else files.delete(path);
    this.configList = undefined;
  }

  // ---- ground-state changes ----

  /** An open document's text (didOpen/didChange). It supersedes disk until closed. */
  async setDocument(path: string, raw: string): Promise<void> {
    const text = normalizeLineEndings(raw);
    this.overlays.set(path, text);
    if (isJavaFile(path) && this.rootOf(path)) await this.reindex(path, text, hashText(text), true);
  }

  async closeDocument(path: string): Promise<void> {
    this.openTrees.close(path);
    if (!this.overlays.delete(path)) return;
    await this.diskChanged(path);
  }

  /** A watcher event or a save: re-read from disk unless an open document supersedes it. */
  async diskChanged(path: string): Promise<void> {
    if (isConfigFile(path)) { this.configFileEvent(path); return; }
    if (this.overlays.has(path) || !isJavaFile(path) || !this.rootOf(path)) return;
    if (!this.confined(path)) {
      this.skipped.set(path, 'symlink leads outside the workspace folder');
      if (this.index.file(path)) this.index.remove(path);
      return;
    }
    const r = readSourceFile(path);
    if (!r.ok) {
      if (r.reason === 'vanished while indexing') { this.diskDeleted(path); return; }
      this.skipped.set(path, r.reason);
      if (this.index.file(path)) this.index.remove(path);
      return;
    }
    this.noteStamp(path, r.stamp, r.hash);
    await this.reindex(path, r.text, r.hash);
  }

  diskDeleted(path: string): void {
    // The disk's list of config files, whether or not an open document supersedes the text.
    for (const files of this.configFiles.values()) {
      for (const p of files) if (p === path || this.paths.inside(path, p)) { files.delete(p); this.configList = undefined; }
    }
    if (this.overlays.has(path)) return;
    this.skipped.delete(path);
    const started = performance.now();
    // A deleted folder: drop everything beneath it.
    for (const f of this.index.allFiles()) if (f.path !== path && this.paths.inside(path, f.path)) this.index.remove(f.path);
    this.index.remove(path);
    this.lastUpdateMs = performance.now() - started;
  }

  /** Open documents keep their syntax tree, so an edit re-parses only the changed region. */
  private openTrees = new OpenTrees();

  private async reindex(path: string, text: string, hash = hashText(text), open = false): Promise<void> {
    const root = this.rootOf(path);
    if (!root) return;
    if (this.index.file(path)?.hash === hash) {
      // Opened with the text already indexed: keep its tree for the edits to come.
      if (open && !this.openTrees.has(path)) await this.openTrees.factsOf(path, text).catch(() => undefined);
      return;
    }
    const started = performance.now();
    this.pending++;
    try {
      const facts = open ? await this.openTrees.factsOf(path, text) : await factsOfText(text);
      // A newer text may have arrived while we parsed: only the latest wins.
      const latest = this.overlays.get(path);
      if (latest !== undefined && latest !== text) return;
      this.index.update(path, root, hash, facts);
      this.skipped.delete(path);
    } catch (e) {
      this.skipped.set(path, `parser failure: ${(e as Error).message}`);
    } finally {
      this.pending--;
    }
    this.lastUpdateMs = performance.now() - started;
  }

  status(): StatusResult {
    const s = this.index.stats();
    const skipped = [...this.skipped.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([path, reason]) => ({ path, reason }));
    const deps = [...this.dependencies.keys()].sort().flatMap((root) => this.dependencies.get(root)!.status);
    const org = [...this.orgLoads.keys()].sort().map((root) => this.orgLoads.get(root)!);
    return {
      state: this.state, files: s.files, symbols: s.symbols, edges: s.edges,
      skipped, indexMs: this.indexMs, lastUpdateMs: this.lastUpdateMs,
      resolvedShare: s.resolvedShare, paused: this.paused,
      ...(deps.length ? { dependencies: deps } : {}),
      ...(org.length ? { org } : {}),
    };
  }
}

function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  return a === b || (!!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs);
}
