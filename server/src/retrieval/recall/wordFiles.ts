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
import { filesToCompare } from '../symbols';
import { SlotTable } from '../../text/slotTable';

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

/**
 * The files that can hit a term of several words (`filesOf`: filesWithWord's answer), sorted by
 * path; undefined when the term holds no word. Every maximal run of word characters in a term is a
 * whole word wherever `rg -w -F` matches it (the match is bounded at both ends, and inside the term
 * each run is bounded by the term's own other characters), so only a file holding them all can.
 */
export function filesWithEveryWord(filesOf: (word: string) => readonly string[], term: string): readonly string[] | undefined {
  const words = [...new Set(term.match(WORDS) ?? [])];
  if (!words.length) return undefined;
  // Rarest first: the intersection never grows.
  const lists = words.map(filesOf).sort((a, b) => a.length - b.length);
  let files = lists[0];
  for (const other of lists.slice(1)) {
    if (!files.length) break;
    const has = new Set(other);
    files = files.filter((p) => has.has(p));
  }
  return files;
}

interface FileEntry {
  /** The file's id: its index in `paths`, what postings hold. */
  id: number;
  /** The facts object its words were read for. */
  facts: object;
  /** Its distinct words, as slots of `words`, in the order they were read. */
  words: Int32Array;
  /** The hash of the text they were read from, when it is known to be the indexed file's (what SAVED_WORDS saves). */
  hash?: string;
}
/**
 * A file's ids by word, kept small (issue 16 §2: on the whole JDK the map of words to path lists
 * held 160 MB): each path is held once (`paths`), each word once (`words`), and every word's file
 * ids are one range of a single pool (`pool`, by slot: `listAt`, `listLength`) — not an Int32Array
 * per word, whose header and backing store cost ~40 times its entries on the JDK's 215k words in
 * two or more files. An update edits the lists it touches as plain arrays (`editing`) and puts
 * them back when it ends: in place when they did not grow, else at the pool's end (the room left
 * behind is counted, and the pool is packed again once it exceeds the live entries).
 */
export interface WordMap {
  version: number;
  /** The index's changeSeq when it last looked (filesToCompare). */
  seq: number;
  files: Map<string, FileEntry>;
  /** file id -> its path (undefined: a free id). */
  paths: (string | undefined)[];
  freeIds: number[];
  /** Words by slot, which indexes `listAt` and `listLength`; slots are reused once a word is gone. */
  words: SlotTable;
  /** slot -> where the ids of the files holding the word (sorted by path) start in `pool`, and how many. */
  listAt: Int32Array;
  listLength: Int32Array;
  pool: Int32Array;
  /** Entries of `pool` in use (the rest is room to grow into). */
  poolEnd: number;
  /** Entries of `pool` below poolEnd that no list holds (left by lists that moved or shrank). */
  poolGarbage: number;
  /** slot -> its list while an update edits it (put back into the pool when the update ends). */
  editing: Map<number, number[]>;
}
const maps = new WeakMap<WorkspaceIndex, WordMap>();

/** The indexed files holding `word`, sorted by path (the order ripgrep --sort path reports). */
export function filesWithWord(req: Pick<PipelineRequest, 'index' | 'textOf'>): (word: string) => readonly string[] {
  const m = wordMap(req);
  return (word) => {
    const slot = m.words.slotOf(word);
    if (slot === undefined) return [];
    const from = m.listAt[slot], out = new Array<string>(m.listLength[slot]);
    for (let i = 0; i < out.length; i++) out[i] = m.paths[m.pool[from + i]]!;
    return out;
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
 * The map in its finished form (preparedCache.ts): the paths by file id, the words by slot (a
 * SlotTable), every slot's file ids pooled in one array (by offsets), and per file its id, hash
 * (when its words are known to be the indexed text's) and word slots. Loading reads no text and
 * sorts nothing.
 */
export const SAVED_WORDS: SavedKind<WordMap> = {
  name: 'saved words', suffix: '.words',
  write: (w, m) => {
    w.list(m.paths, (p) => w.optStr(p));
    w.int32s(Int32Array.from(m.freeIds));
    m.words.write(w);
    // Slot by slot, without the room between lists (the saved form is the same for any pool layout).
    const slots = m.words.length;
    let total = 0;
    for (let slot = 0; slot < slots; slot++) total += listOf(m, slot).length;
    const at = new Int32Array(slots + 1), pool = new Int32Array(total);
    let n = 0;
    for (let slot = 0; slot < slots; slot++) {
      at[slot] = n;
      const list = listOf(m, slot);
      for (let i = 0; i < list.length; i++) pool[n++] = list[i];
    }
    at[slots] = n;
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
    const words = SlotTable.read(r);
    const slots = words.length;
    const at = r.int32s(), pool = r.int32s();
    const bad = (what: string) => { throw new CorruptCache(`saved words malformed: ${what}`); };
    if (at.length !== slots + 1 || at[0] !== 0 || at[slots] !== pool.length) bad('offsets');
    for (const id of pool) if (!(id >= 0 && id < paths.length) || paths[id] === undefined) bad('a file id');
    const held = words.heldSlots();
    const listAt = at.slice(0, slots), listLength = new Int32Array(slots);
    for (let slot = 0; slot < slots; slot++) {
      const from = at[slot], to = at[slot + 1];
      if (to < from || !held[slot] !== (to === from)) bad('a word\'s files');
      listLength[slot] = to - from;
    }
    const files = new Map<string, FileEntry>();
    const n = r.count();
    for (let i = 0; i < n; i++) {
      const path = r.str(), id = r.int(), hash = r.optStr(), fileWords = r.int32s();
      if (paths[id] !== path) bad('a file id');
      for (const s of fileWords) if (!(s >= 0 && s < slots) || !held[s]) bad('a word slot');
      files.set(path, hash === undefined ? { id, facts: NOT_YET_MATCHED, words: fileWords } : { id, facts: NOT_YET_MATCHED, words: fileWords, hash });
    }
    if (files.size !== paths.length - freeIds.length) bad('files without an id');
    return { version: -1, seq: 0, files, paths, freeIds, words, listAt, listLength, pool, poolEnd: pool.length, poolGarbage: 0, editing: new Map() };
  },
  hashes: (m) => knownHashes(m.files),
};

/** Every file's words whose text is known to be the indexed one (tests compare a loaded map with a fresh build's by it). */
export function fileWords(req: Pick<PipelineRequest, 'index' | 'textOf'>): Map<string, FileWords> {
  const m = wordMap(req);
  const out = new Map<string, FileWords>();
  for (const [path, e] of m.files) if (e.hash !== undefined) out.set(path, { hash: e.hash, words: Array.from(e.words, (s) => m.words.stringAt(s)!) });
  return out;
}

/** The pool's entries in use (`end`, room left behind included) and those lists hold (`live`): tests bound the room left behind. */
export function wordPoolUse(req: Pick<PipelineRequest, 'index' | 'textOf'>): { end: number; live: number } {
  const m = wordMap(req);
  return { end: m.poolEnd, live: m.poolEnd - m.poolGarbage };
}

function wordMap(req: Pick<PipelineRequest, 'index' | 'textOf'>): WordMap {
  let m = maps.get(req.index);
  if (m && m.version === req.index.version) return m;
  if (!m) maps.set(req.index, (m = { version: -1, seq: 0, files: new Map(), paths: [], freeIds: [], words: new SlotTable(), listAt: new Int32Array(0), listLength: new Int32Array(0), pool: new Int32Array(0), poolEnd: 0, poolGarbage: 0, editing: new Map() }));
  const map = m;
  /** Slots whose lists this update edited (packed again at its end). */
  const touched = new Set<number>();
  // From an empty map every list holds only files of this update, which come in path order: a
  // file joins a list at its end, without comparing paths (on the whole JDK, most of a first build).
  const appendOnly = map.files.size === 0;
  // Path order: a first build appends to every list instead of inserting into it.
  const { files, gone } = filesToCompare(req.index, map.version < 0 ? undefined : map.seq, map.files);
  map.seq = req.index.changeSeq;
  for (const f of files) {
    const old = map.files.get(f.path);
    if (old && old.facts === f.facts) continue;
    const text = req.textOf(f.path);
    const next = text === undefined ? [] : [...distinctWords(text)];
    // The text read may be ahead of the index (an edit on its way): then its words are not the hash's.
    const hash = text !== undefined && hashText(text) === f.hash ? f.hash : undefined;
    const id = old ? old.id : newId(map, f.path);
    // An edited file: only the words it gained or lost move (an edit changes few of a file's words).
    const before = old && new Map(Array.from(old.words, (s) => [map.words.stringAt(s)!, s]));
    if (old) {
      const after = new Set(next);
      for (const [w, s] of before!) if (!after.has(w)) remove(map, s, id, touched);
    }
    const words = Int32Array.from(next, (w) => before?.get(w) ?? add(map, w, id, touched, appendOnly));
    map.files.set(f.path, hash === undefined ? { id, facts: f.facts, words } : { id, facts: f.facts, words, hash });
  }
  for (const p of gone) {
    const e = map.files.get(p)!;
    for (const s of e.words) remove(map, s, e.id, touched);
    map.files.delete(p);
    map.paths[e.id] = undefined;
    map.freeIds.push(e.id);
  }
  putBack(map, touched);
  map.version = req.index.version;
  return map;
}

function newId(m: WordMap, path: string): number {
  const id = m.freeIds.pop() ?? m.paths.length;
  m.paths[id] = path;
  return id;
}

/** A slot's file ids: the list being edited, else its range of the pool. */
function listOf(m: WordMap, slot: number): ArrayLike<number> {
  const list = m.editing.get(slot);
  if (list) return list;
  return slot < m.listLength.length && m.listLength[slot] ? m.pool.subarray(m.listAt[slot], m.listAt[slot] + m.listLength[slot]) : [];
}

/** A slot's list as a plain array to edit (put back into the pool when the update ends). */
function editable(m: WordMap, slot: number, touched: Set<number>): number[] {
  let list = m.editing.get(slot);
  if (list) return list;
  list = Array.from(listOf(m, slot));
  m.editing.set(slot, list);
  touched.add(slot);
  return list;
}

/**
 * Puts the edited lists back into the pool (in slot order, so that a first build lays them out
 * as the saved form does): a list that did not grow stays where it was, one that grew goes to the
 * end. Once the room left behind exceeds the live entries, the pool is packed again.
 */
function putBack(m: WordMap, touched: Set<number>): void {
  const slots = m.words.length;
  if (m.listAt.length < slots) {
    const size = Math.max(slots, m.listAt.length + (m.listAt.length >> 2));
    const at = new Int32Array(size), length = new Int32Array(size);
    at.set(m.listAt); length.set(m.listLength);
    m.listAt = at; m.listLength = length;
  }
  let grown = 0;
  for (const s of touched) {
    const n = m.editing.get(s)!.length;
    if (n > m.listLength[s]) grown += n;
  }
  if (m.poolEnd + grown > m.pool.length) {
    const pool = new Int32Array(Math.max(m.poolEnd + grown, m.pool.length + (m.pool.length >> 2)));
    pool.set(m.pool.subarray(0, m.poolEnd));
    m.pool = pool;
  }
  for (const s of [...touched].sort((a, b) => a - b)) {
    const list = m.editing.get(s)!;
    let at = m.listAt[s];
    if (list.length > m.listLength[s]) {
      m.poolGarbage += m.listLength[s];
      at = m.poolEnd;
      m.poolEnd += list.length;
    } else m.poolGarbage += m.listLength[s] - list.length;
    m.pool.set(list, at);
    m.listAt[s] = at;
    m.listLength[s] = list.length;
  }
  m.editing.clear();
  if (m.poolGarbage > Math.max(COMPACT_FLOOR, m.poolEnd - m.poolGarbage)) compact(m);
}

/** Room left behind in the pool beyond the live entries (and this floor) makes it packed again. */
const COMPACT_FLOOR = 4096;

/** The pool packed exactly, the lists in slot order. */
function compact(m: WordMap): void {
  const pool = new Int32Array(m.poolEnd - m.poolGarbage);
  let n = 0;
  for (let s = 0; s < m.words.length; s++) {
    const from = m.listAt[s], count = m.listLength[s];
    m.listAt[s] = n;
    for (let i = 0; i < count; i++) pool[n++] = m.pool[from + i];
  }
  m.pool = pool;
  m.poolEnd = n;
  m.poolGarbage = 0;
}

/**
 * Adds a file to a word's list; returns the word's slot (a new word is stored as a copy, so the
 * file's text is not kept alive by it). `last`: the file comes after every file in the list.
 */
function add(m: WordMap, word: string, id: number, touched: Set<number>, last: boolean): number {
  let slot = m.words.slotOf(word);
  if (slot === undefined) {
    slot = m.words.add(word);
    // A reused slot's old list is gone with its word: the new one starts from this file.
    m.editing.set(slot, [id]);
    touched.add(slot);
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
  if (!m.words.holds(slot)) return;
  const list = editable(m, slot, touched);
  const at = lowerBound(m, list, m.paths[id]!);
  if (list[at] === id) list.splice(at, 1);
  if (list.length) return;
  m.words.delete(slot);
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
