// Stage 7 (The Needle and the Noise §4 (7)): the hard token cap, counted with a real tokenizer (o200k_base via
// gpt-tokenizer). Whole lowest-weight items are dropped until the set fits; never mid-item,
// never mid-line. The first item (the cursor's own context) is kept whenever it fits at all.

import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ContextItem } from '../../../shared/protocol';
import { BoundedMemo } from '../text/boundedMemo';

export const TOKENIZER = 'o200k_base (gpt-tokenizer)';

/** Token counts of recent texts: the same type outlines recur across requests, and BPE is costly. */
const tokenCache = new BoundedMemo<string, number>(20_000);

export function countTokens(text: string): number {
  return tokenCache.get(text, (t) => encode(t).length);
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
