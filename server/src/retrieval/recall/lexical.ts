// Stage 2a (The Needle and the Noise §4 (2)): ripgrep lexical recall, the primary retriever (GrepRAG: zero index,
// never stale). Fixed strings, word match, restricted to the chosen workspace folders, Java
// sources plus config files. Open documents whose text differs from disk are excluded from the
// disk search and searched in memory instead. A hit on a declaration's name line recalls that
// declaration; a hit elsewhere recalls the enclosing indexed symbol at a lower weight.

import type { PipelineRequest } from '../request';
import type { Query } from '../query';
import { addCandidate, type Candidate } from '../types';
import { declarationsByName } from '../symbols';
import { chunkTextFile } from '../chunks';
import type { Chunk } from '../chunks/types';
import { filesWithEveryWord, filesWithWord, isOneWord } from './wordFiles';
import { findRipgrepHere } from '../../platform/ripgrep';
import { CONFIG_FILE_EXTENSIONS } from '../../index/files';
import { runProgram } from '../../platform/spawner';

export interface LexicalHit { path: string; line: number; text: string; term: string }

/** Declarations hit by name weigh this much; a usage inside another symbol much less. */
const DECLARATION_WEIGHT = 1.0;
const USAGE_WEIGHT = 0.15;
/** Patterns per search and hits kept per term bound the work on large repositories. */
const MAX_TERMS = 40;
const MAX_HITS_PER_TERM = 60;
/** ripgrep keeps this many times the cap per term before open documents are merged in. */
const RAW_CAP_FACTOR = 10;

/** The first `max` hits of each term in (path, line) order. */
export function capPerTerm(hits: LexicalHit[], max = MAX_HITS_PER_TERM): LexicalHit[] {
  const n = new Map<string, number>();
  return hits.filter((h) => {
    const k = (n.get(h.term) ?? 0) + 1;
    n.set(h.term, k);
    return k <= max;
  });
}
const CONFIG_FILE_GLOBS = CONFIG_FILE_EXTENSIONS.map((e) => `*${e}`);
const CONFIG_GLOBS = ['*.java', ...CONFIG_FILE_GLOBS];

/** The terms to grep for: task identifiers, strings, error names, test names, Javadoc links. */
export function lexicalTerms(q: Query): string[] {
  const terms = [
    ...q.queryIdentifiers, ...q.errors, ...q.tests.flatMap((t) => [t.type, t.method ?? '']),
    ...q.strings, ...q.javadocNames,
    ...q.paths.map((p) => p.replace(/^.*\//, '').replace(/\.\w+$/, '')),
  ].filter((t) => t && t.length >= 3);
  return [...new Set(terms)].slice(0, MAX_TERMS);
}

let rgCached: string | null | undefined;

/**
 * The ripgrep binary (platform/ripgrep.ts: NEEDLE_RIPGREP, the copy the package carries beside
 * the bundle, @vscode/ripgrep's platform package, the PATH), else none — then lexical recall is
 * empty but the server keeps serving (the other sources still answer).
 */
export function ripgrepPath(): string | null {
  if (rgCached === undefined) rgCached = findRipgrepHere()?.path ?? null;
  return rgCached;
}

/**
 * ripgrep output (characters) read at most per search. The work is bounded by what is read, never by a clock:
 * output comes in path order, so where a search stops depends on the files alone, not on the
 * machine's load (a timer made the same request give fewer hits on a busy machine).
 */
export const MAX_RIPGREP_OUTPUT_CHARS = 64 << 20;

/**
 * Runs ripgrep (fixed strings, word match) over folders (or files), on the files `globs` name;
 * results sorted by path, line. Stops early once every term has all the hits it can keep, or
 * after `maxOutputChars` characters of output.
 */
export function ripgrep(terms: string[], folders: string[], exclude: string[] = [], globs = CONFIG_GLOBS, maxOutputChars = MAX_RIPGREP_OUTPUT_CHARS): Promise<LexicalHit[]> {
  if (!terms.length || !folders.length) return Promise.resolve([]);
  // --sort path: ripgrep's parallel walk emits files in a racy order; the per-term cap below must see a stable one.
  const args = ['--json', '--sort', 'path', '--fixed-strings', '--word-regexp', '--no-config', '--max-columns', '400', '--max-filesize', '2M'];
  for (const g of globs) args.push('-g', g);
  for (const t of terms) args.push('-e', t);
  args.push('--', ...folders);
  const excluded = new Set(exclude);
  return new Promise((resolve) => {
    const rg = ripgrepPath();
    if (!rg) { resolve([]); return; }
    const hits: LexicalHit[] = [];
    const perTerm = new Map<string, number>();
    // Generous raw cap: the real per-term cap is applied after open documents are merged in, so a
    // file gives the same hits whether it is open (searched in memory) or not (searched on disk).
    const rawCap = MAX_HITS_PER_TERM * RAW_CAP_FACTOR;
    let buf = '';
    let read = 0;
    let stopped = false;
    /** Terms that reached the raw cap: once all have, nothing further can be kept. */
    let full = 0;
    const stop = () => { if (!stopped) { stopped = true; program.kill(); } };
    const onLine = (line: string) => {
      if (!line.startsWith('{"type":"match"')) return;
      try {
        const m = JSON.parse(line).data;
        const path: string = m.path.text;
        if (excluded.has(path)) return;
        const text: string = m.lines.text ?? '';
        const seen = new Set<string>();
        for (const sm of m.submatches ?? []) {
          const term: string = sm.match.text;
          if (seen.has(term)) continue; // one hit per line and term, as searchTexts gives
          seen.add(term);
          const n = perTerm.get(term) ?? 0;
          if (n >= rawCap) continue;
          perTerm.set(term, n + 1);
          if (n + 1 === rawCap && ++full === terms.length) stop();
          hits.push({ path, line: m.line_number - 1, text: text.replace(/\r?\n$/, ''), term });
        }
      } catch { /* a malformed line is skipped */ }
    };
    // ripgrep runs through the spawn helper (platform/spawner.ts): forking the server itself
    // blocked its thread for milliseconds per search on a large workspace.
    const program = runProgram(rg, args, {
      data: (d) => {
        buf += d;
        let i: number;
        while (!stopped && (i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          // Counted in whole lines of the path-ordered stream: the cut falls at the same line whatever the chunking.
          read += line.length + 1;
          if (read > maxOutputChars) { stop(); break; }
          onLine(line);
        }
      },
      close: () => { if (buf && !stopped) onLine(buf); resolve(sortHits(hits)); },
      error: () => resolve([]),
      // The helper died mid-search: the search starts again from nothing.
      restart: () => { hits.length = 0; perTerm.clear(); buf = ''; read = 0; stopped = false; full = 0; },
    });
  });
}

/** The same search over in-memory texts (open documents). */
export function searchTexts(terms: string[], docs: { path: string; text: string }[]): LexicalHit[] {
  const hits: LexicalHit[] = [];
  for (const d of docs) {
    d.text.split('\n').forEach((text, line) => {
      for (const term of terms) {
        let from = 0;
        for (;;) {
          const i = text.indexOf(term, from);
          if (i < 0) break;
          const before = text[i - 1], after = text[i + term.length];
          if (!isWord(before) && !isWord(after)) { hits.push({ path: d.path, line, text, term }); break; }
          from = i + 1;
        }
      }
    });
  }
  return sortHits(hits);
}

function isWord(ch: string | undefined): boolean {
  return !!ch && /[A-Za-z0-9_$]/.test(ch);
}

function sortHits(h: LexicalHit[]): LexicalHit[] {
  return h.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)));
}

/** Maps hits to candidates: declarations named by the term first, else the enclosing symbol. */
export function hitsToCandidates(req: PipelineRequest, hits: LexicalHit[]): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const byName = declarationsByName(req.index);
  for (const h of hits) {
    const f = req.index.file(h.path);
    if (!f) continue;
    const decl = f.facts.symbols.find((s) => s.name === h.term && s.nameSpan.sl === h.line);
    // IDF-like: a term declared in many places (equals, get) says little about each declaration.
    const spread = Math.sqrt(Math.max(1, byName.get(h.term)?.length ?? 1));
    if (decl) { addCandidate(out, decl.id, DECLARATION_WEIGHT / spread, 'lexical', `declares ${h.term}`, false, 'declaresTerm'); continue; }
    const enc = req.index.enclosingSymbol(h.path, h.line, Math.max(0, h.text.indexOf(h.term)));
    if (enc && enc.file.path !== req.path) addCandidate(out, enc.sym.id, USAGE_WEIGHT, 'lexical', `mentions ${h.term}`, false, 'mentionsTerm');
  }
  // Terms that name a declaration anywhere recall it even when ripgrep capped the hits.
  const terms = new Set(hits.map((h) => h.term));
  for (const t of [...terms].sort()) {
    const ids = byName.get(t) ?? [];
    if (ids.length <= 8) for (const id of ids) addCandidate(out, id, DECLARATION_WEIGHT * 0.5 / Math.sqrt(ids.length), 'lexical', `named ${t}`, false, 'namedTerm');
  }
  return out;
}

/** Config/doc chunks hit by the task's terms: at most this many, each scored by distinct terms hit. */
export const MAX_CONFIG_CHUNKS = 3;
export const CONFIG_WEIGHT = 0.5;

export interface ConfigHit { chunk: Chunk; score: number; terms: string[] }

/** Hits outside Java files map to the chunk (properties key group, YAML key, OpenAPI endpoint, ...) holding them. */
export function configChunks(req: PipelineRequest, hits: LexicalHit[]): ConfigHit[] {
  const byChunk = new Map<string, ConfigHit>();
  const chunksOf = new Map<string, Chunk[]>();
  for (const h of hits) {
    if (h.path.endsWith('.java')) continue;
    let chunks = chunksOf.get(h.path);
    if (!chunks) {
      const text = req.textOf(h.path);
      chunks = text === undefined ? [] : chunkTextFile(h.path, text);
      chunksOf.set(h.path, chunks);
    }
    const c = chunks.find((x) => x.startLine <= h.line && h.line <= x.endLine);
    if (!c) continue;
    const key = `${c.path}:${c.startLine}`;
    let e = byChunk.get(key);
    if (!e) byChunk.set(key, (e = { chunk: c, score: 0, terms: [] }));
    if (!e.terms.includes(h.term)) { e.terms.push(h.term); e.score += CONFIG_WEIGHT; }
  }
  return [...byChunk.values()]
    .sort((a, b) => b.score - a.score || (a.chunk.path < b.chunk.path ? -1 : a.chunk.path > b.chunk.path ? 1 : a.chunk.startLine - b.chunk.startLine))
    .slice(0, MAX_CONFIG_CHUNKS);
}

export interface LexicalResult { candidates: Map<string, Candidate>; config: ConfigHit[] }

/** Command lines longer than this are not built (Windows allows 32767 characters); the folders are searched instead. */
const MAX_ARGS_CHARS = process.platform === 'win32' ? 24_000 : 1_000_000;

/**
 * The hits of `terms` on disk (open documents excluded), as ripgrep over the folders finds them
 * once each term is cut to its first MAX_HITS_PER_TERM hits, but reading only the files that can
 * hit a term:
 * - a one-word term: the Java files holding the word (wordFiles.ts), and of those at most the first
 *   MAX_HITS_PER_TERM in path order (each holds at least one hit, so the cut cannot reach past them);
 * - a term of several words: the Java files holding every one of its words (filesWithEveryWord);
 * - the configuration files the indexer lists (`req.configFiles`), else (no list, or more than a
 *   command line holds) those a walk of the folders finds.
 * A term with no word at all is searched in every file of the folders, as is everything when the
 * command line would be too long. (ripgrep reports matches that do not overlap; a word inside a
 * several-word term on the same line is reported here too, as the two are searched apart. Java
 * files the index does not hold are not read: their hits recalled nothing.)
 */
export async function diskHits(req: PipelineRequest, terms: string[], folders: string[], open: string[]): Promise<LexicalHit[]> {
  const words = terms.filter(isOneWord);
  const others = terms.filter((t) => !isOneWord(t));
  const filesOf = filesWithWord(req);
  const excluded = new Set(open);
  const searched = (p: string) => !excluded.has(p) && folders.some((f) => p.startsWith(f));
  /** Word -> the last file searched for it, when its files were cut. */
  const cut = new Map<string, string>();
  const files = new Set<string>();
  for (const w of words) {
    let n = 0, last = '';
    for (const p of filesOf(w)) {
      if (!searched(p)) continue;
      if (n === MAX_HITS_PER_TERM) { cut.set(w, last); break; }
      files.add(p);
      last = p;
      n++;
    }
  }
  const otherFiles = new Set<string>();
  let wordless = false;
  for (const t of others) {
    const can = filesWithEveryWord(filesOf, t);
    if (!can) { wordless = true; break; }
    for (const p of can) if (searched(p)) otherFiles.add(p);
  }
  const length = (paths: Iterable<string>) => { let n = 0; for (const p of paths) n += p.length + 1; return n; };
  const javaChars = length(files) + length(otherFiles);
  if (javaChars > MAX_ARGS_CHARS) return ripgrep(terms, folders, open);
  // More config files than a command line holds (Windows allows few): the folders are walked for them.
  const listed = req.configFiles?.filter(searched);
  const configs = listed && javaChars + length(listed) <= MAX_ARGS_CHARS ? listed : undefined;
  // Files named on the command line are searched whatever the globs say; the globs pick the
  // config files of the folders where they are walked. One list in path order, as a walk reports.
  const named = (java: Set<string>) => (configs ? [...java, ...configs].sort() : [...[...java].sort(), ...folders]);
  const [wordHits, otherHits] = await Promise.all([
    ripgrep(words, named(files), open, CONFIG_FILE_GLOBS),
    wordless ? ripgrep(others, folders, open) : ripgrep(others, named(otherFiles), open, CONFIG_FILE_GLOBS),
  ]);
  // A file that held the word but gave ripgrep no hit (a line past --max-columns): the cut may
  // have left hits out, so that search is done in full.
  const kept = new Map<string, number>();
  for (const h of wordHits) {
    const last = cut.get(h.term);
    if (last !== undefined && h.path.endsWith('.java') && h.path <= last) kept.set(h.term, (kept.get(h.term) ?? 0) + 1);
  }
  if ([...cut.keys()].some((w) => (kept.get(w) ?? 0) < MAX_HITS_PER_TERM)) return ripgrep(terms, folders, open);
  return sortHits([...wordHits, ...otherHits]);
}

export async function lexicalRecall(req: PipelineRequest, q: Query, folders: string[]): Promise<LexicalResult> {
  const terms = lexicalTerms(q);
  // The word map is brought up to date on every request, terms or not, so its cost falls on the
  // first request after a change rather than on whichever later one first has terms.
  filesWithWord(req);
  if (!terms.length) return { candidates: new Map(), config: [] };
  const open = req.openPaths.filter((p) => folders.some((f) => p.startsWith(f)));
  const disk = await diskHits(req, terms, folders, open);
  const mem = searchTexts(terms, open.map((p) => ({ path: p, text: req.textOf(p) ?? '' })));
  const hits = capPerTerm(sortHits([...disk, ...mem]));
  return { candidates: hitsToCandidates(req, hits), config: configChunks(req, hits) };
}
