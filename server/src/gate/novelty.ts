// Novelty: how far a symbol lies outside a code model's public prior (RCL §3 "prior-gap risk",
// §4 "novelty score"). A symbol the model has seen countless times (String#isEmpty) can be used
// correctly even when retrieval missed it; an undocumented internal helper with made-up words
// (ZxTextKit#zxIsBlankish) cannot. Three deterministic signals, each in [0,1]:
//   lexical   - distance of the identifier's word parts from the public-prior lexicon (JDK
//               document frequencies + well-known library vocabulary); an exact JDK/library name
//               match discounts it strongly;
//   naming    - organisation origin (internal declaration, package outside the JDK and well-known
//               public libraries, or forced by orgPrefixes) plus the share of out-of-lexicon tokens;
//   structure - internal-only and undocumented, so nothing public describes it;
// plus an optional model-assessed familiarity (the FamiliaritySignal seam), combined as a
// weighted mean. No I/O beyond the lexicon, which is loaded once.
import { splitIdentifier } from '../text/identifiers';
import { identifierFamiliarity, partFamiliarity } from './lexicon';

export interface NoveltyInput {
  name: string; // simple name, e.g. "roundHalfEvenToCents" or "MoneyMath"
  ownerName?: string; // declaring type's simple name
  packageName?: string; // e.g. "com.acme.platform.money"
  internal: boolean; // declared in the workspace
  /** From a dependency discovery found public (not the organisation's): a public library whatever its package. */
  publicLibrary?: boolean;
  documented: boolean; // has Javadoc
  kind: string; // method, constructor, field, class, ...
}

export interface NoveltySignals {
  lexical: number;
  naming: number;
  structure: number;
  model?: number;
}

/** The seam for a model-based signal: familiarity in [0,1], or undefined when it has no opinion. */
export interface FamiliaritySignal {
  familiarity(input: NoveltyInput): number | undefined;
}

// ---- Combination weights -------------------------------------------------------------------
/**
 * Lexical distance is the strongest evidence the paper names (identifier frequency) and the only
 * one that separates a conventional internal name from an invented one, so it gets the largest
 * share. Naming and structure each get 0.3: they say the symbol is organisation code without
 * public documentation, which matters, but an internal `findById` is still guessable, so
 * they must not on their own push a symbol to the top (internal + undocumented + familiar words
 * scores ~0.5, "in between").
 */
export const WEIGHT_LEXICAL = 0.4;
export const WEIGHT_NAMING = 0.3;
export const WEIGHT_STRUCTURE = 0.3;
/**
 * A model's own familiarity judgement is useful but circular (the model estimating its own gaps,
 * RCL §9), so when present it is one signal of four, with a quarter of the total weight.
 */
export const WEIGHT_MODEL = 1 / 3; // = 0.25 after normalising with the three weights above

// ---- Lexical ---------------------------------------------------------------------------------
/** Parts novelty blends the mean (overall strangeness) with the max (one invented word suffices). */
const PARTS_MAX_SHARE = 0.5;
/** An exact JDK/library identifier match removes up to this share of the lexical distance. */
const WHOLE_NAME_DISCOUNT = 0.85;
/** The member's own name carries most of the lexical evidence; the owner type adds context. */
const OWNER_SHARE = 0.25;
/** Lexical distance of a name with no word parts at all (e.g. "_"): no evidence either way. */
const NO_PARTS_LEXICAL = 0.5;

// ---- Naming ----------------------------------------------------------------------------------
/** Origin dominates naming; the out-of-lexicon token share refines it. */
const ORIGIN_SHARE = 0.7;

/** JDK and platform namespaces (familiar by construction). */
const PUBLIC_PLATFORM_PREFIXES = ['java', 'javax', 'jdk', 'sun', 'com.sun', 'org.w3c', 'org.xml', 'org.ietf', 'org.omg'];
/** Well-known public libraries: a model has seen their APIs many times. */
const PUBLIC_LIBRARY_PREFIXES = [
  'org.apache', 'com.google.common', 'com.google.gson', 'com.google.protobuf', 'com.google.inject',
  'org.springframework', 'org.junit', 'junit', 'org.mockito', 'org.assertj', 'org.hamcrest', 'org.slf4j',
  'ch.qos.logback', 'com.fasterxml.jackson', 'org.hibernate', 'jakarta', 'lombok', 'io.netty', 'reactor',
  'io.reactivex', 'io.micrometer', 'org.jetbrains', 'kotlin', 'scala', 'org.joda', 'okhttp3', 'com.squareup',
  'io.grpc', 'org.eclipse', 'org.yaml', 'org.json', 'io.swagger', 'org.aspectj', 'org.testng',
];

/**
 * Origin score by (package class, internal?). Internal code in a public namespace is someone
 * developing the JDK or the library itself: a little more novel than the published artifact.
 * External code in an unrecognised namespace is likely a private dependency, but could be a
 * lesser-known public library, so it stays below internal organisation code.
 */
const ORIGIN = {
  platform: { internal: 0.2, external: 0 },
  library: { internal: 0.25, external: 0.1 },
  organisation: { internal: 1, external: 0.8 },
  forced: { internal: 1, external: 1 },
  unknownPackage: { internal: 0.9, external: 0.4 },
} as const;

// ---- Structure -------------------------------------------------------------------------------
/**
 * Internal-only code has no public description at all; missing Javadoc removes the last local
 * hint. For external symbols, missing Javadoc is weak evidence (binary dependencies rarely ship
 * it), so it only adds a little.
 */
const STRUCTURE_INTERNAL = 0.6;
const STRUCTURE_INTERNAL_UNDOCUMENTED = 0.4;
const STRUCTURE_EXTERNAL_UNDOCUMENTED = 0.2;

// ---- Aggregation -----------------------------------------------------------------------------
/** Share of the (weight-scaled) peak in aggregateNovelty; the rest is the weighted mean. */
export const AGGREGATE_PEAK_SHARE = 0.5;

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

function matchesPrefix(pkg: string, prefix: string): boolean {
  const p = prefix.replace(/\.+$/, '');
  return p.length > 0 && (pkg === p || pkg.startsWith(p + '.'));
}

type PackageClass = 'platform' | 'library' | 'organisation' | 'forced' | 'unknownPackage';

export function classifyPackage(packageName: string | undefined, orgPrefixes: string[] = []): PackageClass {
  const pkg = (packageName ?? '').trim();
  if (!pkg) return 'unknownPackage';
  if (orgPrefixes.some((p) => matchesPrefix(pkg, p))) return 'forced';
  if (PUBLIC_PLATFORM_PREFIXES.some((p) => matchesPrefix(pkg, p))) return 'platform';
  if (PUBLIC_LIBRARY_PREFIXES.some((p) => matchesPrefix(pkg, p))) return 'library';
  return 'organisation';
}

/** The name whose words describe the symbol: a constructor is named after its type. */
function effectiveName(input: NoveltyInput): string {
  const n = input.name?.trim() ?? '';
  if (input.kind === 'constructor' && (!n || n === '<init>') && input.ownerName) return input.ownerName;
  return n;
}

/** Lexical distance of one identifier from the lexicon, in [0,1]. */
function identifierDistance(name: string): number {
  const parts = splitIdentifier(name);
  if (parts.length === 0) return NO_PARTS_LEXICAL;
  let sum = 0;
  let max = 0;
  for (const p of parts) {
    const d = 1 - partFamiliarity(p);
    sum += d;
    if (d > max) max = d;
  }
  const partsDistance = (1 - PARTS_MAX_SHARE) * (sum / parts.length) + PARTS_MAX_SHARE * max;
  return clamp01(partsDistance * (1 - WHOLE_NAME_DISCOUNT * identifierFamiliarity(name)));
}

/** Share of word parts (digits excluded) that the lexicon has never seen. */
function outOfLexiconShare(names: string[]): number {
  const words = new Set<string>();
  for (const n of names) for (const p of splitIdentifier(n)) if (!/^[0-9]+$/.test(p)) words.add(p);
  if (words.size === 0) return 0;
  let unknown = 0;
  for (const w of words) if (partFamiliarity(w) === 0) unknown++;
  return unknown / words.size;
}

export function noveltySignals(input: NoveltyInput, orgPrefixes?: string[]): NoveltySignals {
  const name = effectiveName(input);
  const owner = input.ownerName?.trim() || undefined;
  const useOwner = owner !== undefined && owner !== name;

  const nameLexical = identifierDistance(name);
  const lexical = useOwner ? (1 - OWNER_SHARE) * nameLexical + OWNER_SHARE * identifierDistance(owner) : nameLexical;

  const cls = input.publicLibrary ? 'library' : classifyPackage(input.packageName, orgPrefixes);
  const origin = ORIGIN[cls][input.internal ? 'internal' : 'external'];
  const oov = outOfLexiconShare(useOwner ? [name, owner] : [name]);
  const naming = ORIGIN_SHARE * origin + (1 - ORIGIN_SHARE) * oov;

  const undocumented = input.documented ? 0 : 1;
  const structure = input.internal
    ? STRUCTURE_INTERNAL + STRUCTURE_INTERNAL_UNDOCUMENTED * undocumented
    : STRUCTURE_EXTERNAL_UNDOCUMENTED * undocumented;

  return { lexical: clamp01(lexical), naming: clamp01(naming), structure: clamp01(structure) };
}

/** Combined novelty in [0,1]: the weighted mean of the signals (the model's only when it answers). */
export function noveltyOf(input: NoveltyInput, options: { orgPrefixes?: string[]; model?: FamiliaritySignal } = {}): number {
  const s = noveltySignals(input, options.orgPrefixes);
  let total = WEIGHT_LEXICAL * s.lexical + WEIGHT_NAMING * s.naming + WEIGHT_STRUCTURE * s.structure;
  let weight = WEIGHT_LEXICAL + WEIGHT_NAMING + WEIGHT_STRUCTURE;
  const fam = options.model?.familiarity(input);
  if (fam !== undefined && Number.isFinite(fam)) {
    total += WEIGHT_MODEL * (1 - clamp01(fam));
    weight += WEIGHT_MODEL;
  }
  return clamp01(total / weight);
}

/**
 * Novelty of the uncovered dependency surface, in [0,1].
 *
 * A plain weighted mean dilutes one invented, undocumented helper among many familiar JDK calls,
 * although that one helper is enough to make generation guess; a plain max ignores the weights
 * and how much of the surface is unfamiliar. So we blend the weighted mean with a weight-scaled
 * peak, max(novelty_i * weight_i / maxWeight): a heavy novel symbol counts fully, a marginal
 * one proportionally less. Properties: 0 for an empty surface (nothing uncovered, no prior-gap
 * risk); equals the novelty for a single symbol or for equal novelties; within [min, max] of
 * the novelties; non-decreasing in each novelty; invariant to scaling all weights and to order.
 * Entries with non-positive or non-finite weight are ignored.
 */
export function aggregateNovelty(values: { novelty: number; weight: number }[]): number {
  const items = values.filter((v) => Number.isFinite(v.weight) && v.weight > 0);
  if (items.length === 0) return 0;
  let maxWeight = 0;
  for (const v of items) if (v.weight > maxWeight) maxWeight = v.weight;
  let sum = 0;
  let wsum = 0;
  let peak = 0;
  for (const v of items) {
    const n = clamp01(v.novelty);
    sum += v.weight * n;
    wsum += v.weight;
    peak = Math.max(peak, (n * v.weight) / maxWeight);
  }
  return clamp01(AGGREGATE_PEAK_SHARE * peak + (1 - AGGREGATE_PEAK_SHARE) * (sum / wsum));
}
