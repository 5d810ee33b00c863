// Stage 7 (The Needle and the Noise §4 (7)): the hard token cap, counted with a real tokenizer (o200k_base via
// gpt-tokenizer). Whole lowest-weight items are dropped until the set fits; never mid-item,
// never mid-line. The first item (the cursor's own context) is kept whenever it fits at all.

import { countTokens as countEncoded } from 'gpt-tokenizer/encoding/o200k_base';
import type { ContextItem } from '../../../shared/protocol';
import { BoundedMemo } from '../text/boundedMemo';

export const TOKENIZER = 'o200k_base (gpt-tokenizer)';

const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

/** The definition of a text's token count: the tokens o200k_base encodes it into. */
export function encodedTokens(text: string): number {
  // Retrieved code is data: a comment holding `<|endoftext|>` is counted as the text it is. By
  // default the encoder throws on a special token's text, which would fail the whole request.
  // Counted as encode() would make them, without the array of tokens.
  return countEncoded(text, NO_SPECIAL_TOKENS);
}

/**
 * Token counts of recent pieces (mostly one line and its newline): the same source lines recur
 * in every item, packing step and request that shows them, and BPE is costly. Pieces, not whole
 * texts: a packed group's text is new at every step, its lines are not.
 */
const pieceTokens = BoundedMemo.ofSlices<number>(100_000);

/**
 * Where o200k_base's pre-tokenizer always cuts: after a '\n' whose next line starts with
 * neither '/' nor whitespace, or with whitespace (no CR or LF) up to a non-whitespace character.
 * The only pre-tokens that hold a newline are punctuation followed by [\r\n/]* and whitespace
 * ending in newlines; before such a line both end at that '\n' (a line starting with '/', or
 * blank, would extend them), and matching from a position reads only what follows it. So a
 * text's count is the sum of its pieces' counts between such cuts: exact, not a bound (the test
 * holds it against encodedTokens on random texts and on rendered contexts).
 */
const CUT_BEFORE = /(?:[^\s/]|[^\S\r\n]+\S)/uy;

/** encodedTokens(text), from the memoised counts of its pieces. */
export function countTokens(text: string): number {
  let total = 0;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
    CUT_BEFORE.lastIndex = nl + 1;
    if (!CUT_BEFORE.test(text)) continue;
    total += countPiece(text.slice(start, nl + 1));
    start = nl + 1;
  }
  return total + (start < text.length ? countPiece(start ? text.slice(start) : text) : 0);
}

function countPiece(piece: string): number {
  return pieceTokens.get(piece, encodedTokens);
}

export function totalTokens(items: { tokens: number }[]): number {
  return items.reduce((s, i) => s + i.tokens, 0);
}

/**
 * Drops whole items, lowest score first (ties: later position first), until the total fits.
 * Keeps `pinned` leading items (the cursor's context) unless they alone exceed the budget.
 * Item order is preserved.
 */
export function fitToBudget<T extends ContextItem>(items: T[], budget: number, pinned = 0): T[] {
  const keep = items.map(() => true);
  let total = totalTokens(items);
  const order = items.map((it, i) => ({ it, i })).filter(({ i }) => i >= pinned)
    .sort((a, b) => a.it.score - b.it.score || b.i - a.i);
  for (const { it, i } of order) {
    if (total <= budget) break;
    keep[i] = false;
    total -= it.tokens;
  }
  for (let i = pinned - 1; i >= 0 && total > budget; i--) { if (keep[i]) { keep[i] = false; total -= items[i].tokens; } }
  return items.filter((_, i) => keep[i]);
}
