// The public-prior lexicon: how familiar a word part or a whole identifier is to a model trained on
// public Java code. Built by scripts/build-lexicon.mjs from the JDK's public sources (document
// frequencies quantised as level = round(log2(df + 1)), kept when df >= 2) plus a small curated
// list of words and names from ubiquitous public libraries. Shipped as data/lexicon.json next to
// the bundle, loaded once, lazily, on first use.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface LexiconFile {
  format: number;
  files: number;
  maxLevel: number;
  library: { parts: string[]; identifiers: string[] };
  parts: Record<string, number>;
  identifiers: Record<string, number>;
}

interface Lexicon {
  loaded: boolean;
  path?: string;
  files: number;
  maxLevel: number;
  parts: Map<string, number>;
  identifiers: Map<string, number>;
}

/**
 * Level given to curated public-library entries. Level 8 is a df of roughly 180-360 JDK files:
 * words like "repository" or "autowired" are everyday vocabulary in public Java code even though
 * the JDK rarely uses them.
 */
export const LIBRARY_LEVEL = 8;

/**
 * Part familiarity is linear in the level between these two points. Any part present at all
 * (level 2, df 2-4) is a real token of public code, hence a floor above zero; from level 9
 * (df >= ~360, i.e. in several percent of the JDK's files) a word is treated as fully familiar.
 */
const PART_FLOOR = 0.3;
const PART_MIN_LEVEL = 2;
const PART_SATURATION_LEVEL = 9;
/**
 * A whole identifier that the JDK itself declares or calls in >= 2 files is a known public API
 * name, so the floor is higher than for parts; level 7 (df ~90-180) saturates.
 */
const IDENT_FLOOR = 0.5;
const IDENT_SATURATION_LEVEL = 7;

let lexicon: Lexicon | undefined;

function candidatePaths(): string[] {
  const out: string[] = [];
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
  // dist/ (data copied beside the bundle), dist/test/** (bundled tests) and the source tree.
  out.push(join(here, 'data/lexicon.json'), join(here, '../data/lexicon.json'), join(here, '../../server/data/lexicon.json'));
  let dir = here;
  for (let i = 0; i < 6; i++) {
    out.push(join(dir, 'data/lexicon.json'), join(dir, 'server/data/lexicon.json'));
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return out;
}

function parse(path: string): Lexicon {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as LexiconFile;
  const parts = new Map<string, number>(Object.entries(raw.parts));
  const identifiers = new Map<string, number>(Object.entries(raw.identifiers));
  for (const p of raw.library?.parts ?? []) parts.set(p, Math.max(parts.get(p) ?? 0, LIBRARY_LEVEL));
  for (const id of raw.library?.identifiers ?? []) identifiers.set(id, Math.max(identifiers.get(id) ?? 0, LIBRARY_LEVEL));
  return { loaded: true, path, files: raw.files, maxLevel: raw.maxLevel, parts, identifiers };
}

/** The lexicon, loaded on first call. Without a data file every word counts as unknown (warned once on stderr). */
export function getLexicon(): Lexicon {
  if (lexicon) return lexicon;
  for (const p of candidatePaths()) {
    if (existsSync(p)) {
      lexicon = parse(p);
      return lexicon;
    }
  }
  console.error('needle: data/lexicon.json not found; novelty will treat every identifier as unknown');
  lexicon = { loaded: false, files: 0, maxLevel: 0, parts: new Map(), identifiers: new Map() };
  return lexicon;
}

/** Replace the lexicon with the file at `path` (tests, tools). */
export function loadLexiconFrom(path: string): void {
  lexicon = parse(path);
}

export function lexiconStats(): { loaded: boolean; path?: string; files: number; parts: number; identifiers: number } {
  const l = getLexicon();
  return { loaded: l.loaded, path: l.path, files: l.files, parts: l.parts.size, identifiers: l.identifiers.size };
}

function ramp(level: number, minLevel: number, saturation: number, floor: number): number {
  if (level <= 0) return 0;
  const t = (level - minLevel) / (saturation - minLevel);
  return Math.min(1, Math.max(0, floor + (1 - floor) * t));
}

/** Quantised document-frequency level of a part (0 = not in the lexicon). */
export function partLevel(part: string): number {
  return getLexicon().parts.get(part.toLowerCase()) ?? 0;
}

/** Familiarity of a lower-case identifier part in [0,1]: 0 = never seen in public code, 1 = very common. */
export function partFamiliarity(part: string): number {
  return ramp(partLevel(part), PART_MIN_LEVEL, PART_SATURATION_LEVEL, PART_FLOOR);
}

/**
 * Familiarity of a whole identifier (simple type or method name, case-sensitive) in [0,1]:
 * 0 unless the exact name is a JDK or well-known library name. `a.b.C` and `C#m` use the last segment.
 */
export function identifierFamiliarity(name: string): number {
  const simple = name.split(/[.#]/).pop() ?? name;
  const level = getLexicon().identifiers.get(simple) ?? 0;
  return ramp(level, PART_MIN_LEVEL, IDENT_SATURATION_LEVEL, IDENT_FLOOR);
}
