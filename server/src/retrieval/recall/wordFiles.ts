// Which indexed files contain a word, kept in step with the index: on a new index.version only
// the files whose facts changed are read again, and only the words they gained or lost move. Lexical recall uses it to hand ripgrep the files
// that can hit a term instead of every file of the folders (on the JDK's java.base, 54 MB read
// per request). A word is a maximal run of word characters as ripgrep's --word-regexp sees them
// (Unicode \w), so a file holds a word exactly when `rg -w -F word` finds it there.

import type { WorkspaceIndex } from '../../index/workspaceIndex';
import { hashText } from '../../index/files';
import type { PipelineRequest } from '../request';
import { CorruptCache } from '../../index/cacheCodec';
import { knownHashes, type SavedKind } from '../preparedCache';

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

interface FileEntry {
  /** The file's id: its index in `paths`, what postings hold. */
  id: number;
  /** The facts object its words were read for. */
  facts: object;
  /** Its distinct words, as slots (indexes of `wordOf`), in the order they were read. */
  words: Int32Array;
  /** The hash of the text they were read from, when it is known to be the indexed file's (what SAVED_WORDS saves). */
  hash?: string;
}
/**
 * A file's ids by word, kept small (issue 16 §2: on the whole JDK the map of words to path lists
 * held 160 MB): each path is held once (`paths`), each word once (`wordOf`), and a word's files
 * are file ids — one number when it is in one file (most words), else an Int32Array. An update
 * edits the lists it touches as plain arrays and packs them again when it ends.
 */
export interface WordMap {
  version: number;
  files: Map<string, FileEntry>;
  /** file id -> its path (undefined: a free id). */
  paths: (string | undefined)[];
  freeIds: number[];
  /** word -> its slot, which indexes `wordOf` and `postings`; slots are reused once a word is gone. */
  slotOf: Map<string, number>;
  wordOf: (string | undefined)[];
  /** slot -> the ids of the files holding the word, sorted by path (number[] only while an update runs). */
  postings: (number | Int32Array | number[] | undefined)[];
  freeSlots: number[];
}
const maps = new WeakMap<WorkspaceIndex, WordMap>();

/** The indexed files holding `word`, sorted by path (the order ripgrep --sort path reports). */
export function filesWithWord(req: Pick<PipelineRequest, 'index' | 'textOf'>): (word: string) => readonly string[] {
  const m = wordMap(req);
  return (word) => {
    const slot = m.slotOf.get(word);
    const p = slot === undefined ? undefined : m.postings[slot];
    if (p === undefined) return [];
    return typeof p === 'number' ? [m.paths[p]!] : Array.from(p, (id) => m.paths[id]!);
  };
}

/**
 * Builds the map (retrieval's prepare stage). `saved`: the map in its finished form as an earlier
 * start left it (SAVED_WORDS): taken as it is for every file whose indexed hash is the one its
 * words were read from; every other file is read again and its words moved as after an edit
 * (and a file gone is taken out), so the map is the one a fresh build makes.
 */
export function prepareWordFiles(req: Pick<PipelineRequest, 'index' | 'textOf'>, saved?: WordMap): void {
  if (saved && !maps.has(req.index)) {
    for (const [path, e] of saved.files) {
      const f = req.index.file(path);
      if (f && e.hash !== undefined && e.hash === f.hash) e.facts = f.facts;
    }
    saved.version = -1;
    maps.set(req.index, saved);
  }
  wordMap(req);
}

/** The map of the index as it is now, to save (what a later start may load). */
export function currentWordMap(req: Pick<PipelineRequest, 'index' | 'textOf'>): WordMap {
  return wordMap(req);
}

/** Read from a saved map: its words' source is no file's facts until prepareWordFiles finds the file's hash unchanged. */
const NOT_YET_MATCHED = Object.freeze({});

/**
 * The map in its finished form (preparedCache.ts): the paths by file id, the words by slot, every
 * slot's file ids pooled in one array (by offsets), and per file its id, hash (when its words are
 * known to be the indexed text's) and word slots. Loading reads no text and sorts nothing.
 */
export const SAVED_WORDS: SavedKind<WordMap> = {
  name: 'saved words', suffix: '.words',
  write: (w, m) => {
    w.list(m.paths, (p) => w.optStr(p));
    w.int32s(Int32Array.from(m.freeIds));
    w.list(m.wordOf, (word) => w.optStr(word));
    w.int32s(Int32Array.from(m.freeSlots));
    let total = 0;
    for (const p of m.postings) total += p === undefined ? 0 : typeof p === 'number' ? 1 : p.length;
    const at = new Int32Array(m.postings.length + 1), pool = new Int32Array(total);
    let n = 0;
    for (const [slot, p] of m.postings.entries()) {
      at[slot] = n;
      if (typeof p === 'number') pool[n++] = p;
      else if (p) for (const id of p) pool[n++] = id;
    }
    at[m.postings.length] = n;
    w.int32s(at);
    w.int32s(pool);
    w.list([...m.files.keys()].sort(), (path) => {
      const e = m.files.get(path)!;
      w.str(path); w.int(e.id); w.optStr(e.hash); w.int32s(e.words);
    });
  },
  read: (r) => {
    const paths = r.list(() => r.optStr());
    const freeIds = Array.from(r.int32s());
    const wordOf = r.list(() => r.optStr());
    const freeSlots = Array.from(r.int32s());
    const at = r.int32s(), pool = r.int32s();
    const bad = (what: string) => { throw new CorruptCache(`saved words malformed: ${what}`); };
    if (at.length !== wordOf.length + 1 || at[0] !== 0 || at[wordOf.length] !== pool.length) bad('offsets');
    for (const id of pool) if (!(id >= 0 && id < paths.length) || paths[id] === undefined) bad('a file id');
    const slotOf = new Map<string, number>();
    const postings: WordMap['postings'] = new Array(wordOf.length);
    for (let slot = 0; slot < wordOf.length; slot++) {
      const from = at[slot], to = at[slot + 1], word = wordOf[slot];
      if (to < from || (word === undefined) !== (to === from)) bad('a word\'s files');
      if (word === undefined) continue;
      if (slotOf.has(word)) bad('a word twice');
      slotOf.set(word, slot);
      postings[slot] = to - from === 1 ? pool[from] : pool.subarray(from, to);
    }
    const files = new Map<string, FileEntry>();
    const n = r.count();
    for (let i = 0; i < n; i++) {
      const path = r.str(), id = r.int(), hash = r.optStr(), words = r.int32s();
      if (paths[id] !== path) bad('a file id');
      for (const s of words) if (!(s >= 0 && s < wordOf.length) || wordOf[s] === undefined) bad('a word slot');
      files.set(path, hash === undefined ? { id, facts: NOT_YET_MATCHED, words } : { id, facts: NOT_YET_MATCHED, words, hash });
    }
    if (files.size !== paths.length - freeIds.length) bad('files without an id');
    return { version: -1, files, paths, freeIds, slotOf, wordOf, postings, freeSlots };
  },
  hashes: (m) => knownHashes(m.files),
};

/** Every file's words whose text is known to be the indexed one (tests compare a loaded map with a fresh build's by it). */
export function fileWords(req: Pick<PipelineRequest, 'index' | 'textOf'>): Map<string, FileWords> {
  const m = wordMap(req);
  const out = new Map<string, FileWords>();
  for (const [path, e] of m.files) if (e.hash !== undefined) out.set(path, { hash: e.hash, words: Array.from(e.words, (s) => m.wordOf[s]!) });
  return out;
}

function wordMap(req: Pick<PipelineRequest, 'index' | 'textOf'>): WordMap {
  let m = maps.get(req.index);
  if (m && m.version === req.index.version) return m;
  if (!m) maps.set(req.index, (m = { version: -1, files: new Map(), paths: [], freeIds: [], slotOf: new Map(), wordOf: [], postings: [], freeSlots: [] }));
  const map = m;
  /** Slots whose lists this update edited (packed again at its end). */
  const touched = new Set<number>();
  // From an empty map every list holds only files of this update, which come in path order: a
  // file joins a list at its end, without comparing paths (on the whole JDK, most of a first build).
  const appendOnly = map.files.size === 0;
  const live = new Set<string>();
  // Path order: a first build appends to every list instead of inserting into it.
  for (const f of [...req.index.allFiles()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    live.add(f.path);
    const old = map.files.get(f.path);
    if (old && old.facts === f.facts) continue;
    const text = req.textOf(f.path);
    const next = text === undefined ? [] : [...distinctWords(text)];
    // The text read may be ahead of the index (an edit on its way): then its words are not the hash's.
    const hash = text !== undefined && hashText(text) === f.hash ? f.hash : undefined;
    const id = old ? old.id : newId(map, f.path);
    // An edited file: only the words it gained or lost move (an edit changes few of a file's words).
    const before = old && new Set(Array.from(old.words, (s) => map.wordOf[s]!));
    if (old) {
      const after = new Set(next);
      for (const s of old.words) if (!after.has(map.wordOf[s]!)) remove(map, s, id, touched);
    }
    const words = Int32Array.from(next, (w) => (before?.has(w) ? map.slotOf.get(w)! : add(map, w, id, touched, appendOnly)));
    map.files.set(f.path, hash === undefined ? { id, facts: f.facts, words } : { id, facts: f.facts, words, hash });
  }
  for (const [p, e] of [...map.files]) {
    if (live.has(p)) continue;
    for (const s of e.words) remove(map, s, e.id, touched);
    map.files.delete(p);
    map.paths[e.id] = undefined;
    map.freeIds.push(e.id);
  }
  // Pack the lists edited: one file's id as a number, more as an exact-size Int32Array.
  for (const s of touched) {
    const p = map.postings[s];
    if (Array.isArray(p)) map.postings[s] = p.length === 1 ? p[0] : Int32Array.from(p);
  }
  map.version = req.index.version;
  return map;
}

function newId(m: WordMap, path: string): number {
  const id = m.freeIds.pop() ?? m.paths.length;
  m.paths[id] = path;
  return id;
}

/** A slot's list as a plain array to edit (it is packed again when the update ends). */
function editable(m: WordMap, slot: number, touched: Set<number>): number[] {
  const p = m.postings[slot];
  if (Array.isArray(p)) return p;
  const list = p === undefined ? [] : typeof p === 'number' ? [p] : Array.from(p);
  m.postings[slot] = list;
  touched.add(slot);
  return list;
}

/**
 * Adds a file to a word's list; returns the word's slot (a new word is stored as a copy, so the
 * file's text is not kept alive by it). `last`: the file comes after every file in the list.
 */
function add(m: WordMap, word: string, id: number, touched: Set<number>, last: boolean): number {
  let slot = m.slotOf.get(word);
  if (slot === undefined) {
    const own = Buffer.from(word, 'utf8').toString('utf8');
    slot = m.freeSlots.pop() ?? m.wordOf.length;
    m.slotOf.set(own, slot);
    m.wordOf[slot] = own;
    m.postings[slot] = id;
    return slot;
  }
  const list = editable(m, slot, touched);
  if (last) { list.push(id); return slot; }
  const path = m.paths[id]!;
  const n = list.length;
  if (!n || m.paths[list[n - 1]]! < path) list.push(id);
  else {
    const at = lowerBound(m, list, path);
    if (list[at] !== id) list.splice(at, 0, id);
  }
  return slot;
}

function remove(m: WordMap, slot: number, id: number, touched: Set<number>): void {
  if (m.postings[slot] === undefined) return;
  const list = editable(m, slot, touched);
  const at = lowerBound(m, list, m.paths[id]!);
  if (list[at] === id) list.splice(at, 1);
  if (list.length) return;
  m.slotOf.delete(m.wordOf[slot]!);
  m.wordOf[slot] = undefined;
  m.postings[slot] = undefined;
  m.freeSlots.push(slot);
}

/** The first place in `list` (file ids sorted by path) whose path is not before `path`. */
function lowerBound(m: WordMap, list: number[], path: string): number {
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (m.paths[list[mid]]! < path) lo = mid + 1; else hi = mid;
  }
  return lo;
}
