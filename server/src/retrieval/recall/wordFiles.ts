// Which indexed files contain a word, kept in step with the index: on a new index.version only
// the files whose facts changed are read again, and only the words they gained or lost move. Lexical recall uses it to hand ripgrep the files
// that can hit a term instead of every file of the folders (on the JDK's java.base, 54 MB read
// per request). A word is a maximal run of word characters as ripgrep's --word-regexp sees them
// (Unicode \w), so a file holds a word exactly when `rg -w -F word` finds it there.

import type { WorkspaceIndex } from '../../index/workspaceIndex';
import { hashText } from '../../index/files';
import type { PipelineRequest } from '../request';

const WORD_CHAR = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
const WORDS = new RegExp(`[${WORD_CHAR}]+`, 'gu');
const ONE_WORD = new RegExp(`^[${WORD_CHAR}]+$`, 'u');
/** The same words in an ASCII-only text (most sources), several times faster to find. */
const ASCII_WORDS = /[A-Za-z0-9_]+/g;

function distinctWords(text: string): Set<string> {
  return new Set(text.match(/[^\x00-\x7f]/.test(text) ? WORDS : ASCII_WORDS));
}

/** One file's distinct words, with the content hash of the text they were read from. */
export interface FileWords { hash: string; words: readonly string[] }

/** Whether a search term is one word (then the map answers which files can hit it). */
export function isOneWord(term: string): boolean {
  return ONE_WORD.test(term);
}

interface Posting { word: string; paths: string[] }
interface WordMap {
  version: number;
  /**
   * Per file: the facts object its words were read for, its distinct words, and the hash of the
   * text they were read from when it is known to be the indexed file's (what fileWords saves).
   */
  files: Map<string, { facts: object; words: string[]; hash?: string }>;
  /** word -> the files holding it, sorted by path. */
  byWord: Map<string, Posting>;
}
const maps = new WeakMap<WorkspaceIndex, WordMap>();

/** The indexed files holding `word`, sorted by path (the order ripgrep --sort path reports). */
export function filesWithWord(req: Pick<PipelineRequest, 'index' | 'textOf'>): (word: string) => readonly string[] {
  const m = wordMap(req);
  return (word) => m.byWord.get(word)?.paths ?? [];
}

/**
 * Builds the map (retrieval's prepare stage). `saved` (preparedCache.ts) holds words read on an
 * earlier run: a file whose indexed hash equals the saved one takes them instead of reading its
 * text, which is what a warm start spends this stage on. Any other file is read as always.
 */
export function prepareWordFiles(req: Pick<PipelineRequest, 'index' | 'textOf'>, saved?: ReadonlyMap<string, FileWords>): void {
  wordMap(req, saved);
}

/** Every file's words whose text is known to be the indexed one (what a later start may reuse). */
export function fileWords(req: Pick<PipelineRequest, 'index' | 'textOf'>): Map<string, FileWords> {
  const out = new Map<string, FileWords>();
  for (const [path, e] of wordMap(req).files) if (e.hash !== undefined) out.set(path, { hash: e.hash, words: e.words });
  return out;
}

function wordMap(req: Pick<PipelineRequest, 'index' | 'textOf'>, saved?: ReadonlyMap<string, FileWords>): WordMap {
  let m = maps.get(req.index);
  if (m && m.version === req.index.version) return m;
  if (!m) maps.set(req.index, (m = { version: -1, files: new Map(), byWord: new Map() }));
  const live = new Set<string>();
  // Path order: a first build appends to every list instead of inserting into it.
  for (const f of [...req.index.allFiles()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    live.add(f.path);
    const old = m.files.get(f.path);
    if (old && old.facts === f.facts) continue;
    const kept = saved?.get(f.path);
    let next: readonly string[], hash: string | undefined;
    if (kept && kept.hash === f.hash) ({ words: next, hash } = kept);
    else {
      const text = req.textOf(f.path);
      next = text === undefined ? [] : [...distinctWords(text)];
      // The text read may be ahead of the index (an edit on its way): then its words are not the hash's.
      hash = text !== undefined && hashText(text) === f.hash ? f.hash : undefined;
    }
    // An edited file: only the words it gained or lost move (an edit changes few of a file's words).
    const before = old && new Set(old.words);
    if (old) {
      const after = new Set(next);
      for (const w of old.words) if (!after.has(w)) remove(m.byWord, w, f.path);
    }
    const words = next.map((w) => (before?.has(w) ? m!.byWord.get(w)!.word : add(m!.byWord, w, f.path)));
    m.files.set(f.path, hash === undefined ? { facts: f.facts, words } : { facts: f.facts, words, hash });
  }
  for (const [p, e] of [...m.files]) {
    if (live.has(p)) continue;
    for (const w of e.words) remove(m.byWord, w, p);
    m.files.delete(p);
  }
  // A first build grew every list by pushes: give back their spare room (most words are in one file).
  if (m.version < 0) for (const p of m.byWord.values()) p.paths = p.paths.slice();
  m.version = req.index.version;
  return m;
}

/** Adds a path to a word's list; returns the word as stored (a copy, so the file's text is not kept alive by it). */
function add(byWord: Map<string, Posting>, word: string, path: string): string {
  let p = byWord.get(word);
  if (!p) {
    const own = Buffer.from(word, 'utf8').toString('utf8');
    byWord.set(own, { word: own, paths: [path] }); // exact size
    return own;
  }
  const n = p.paths.length;
  if (!n || p.paths[n - 1] < path) p.paths.push(path); // files come in path order on a first build
  else {
    const at = lowerBound(p.paths, path);
    if (p.paths[at] !== path) p.paths.splice(at, 0, path);
  }
  return p.word;
}

function remove(byWord: Map<string, Posting>, word: string, path: string): void {
  const p = byWord.get(word);
  if (!p) return;
  const at = lowerBound(p.paths, path);
  if (p.paths[at] === path) p.paths.splice(at, 1);
  if (!p.paths.length) byWord.delete(word);
}

function lowerBound(xs: string[], x: string): number {
  let lo = 0, hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}
