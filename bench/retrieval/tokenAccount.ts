// The token account of one context: every shown line's tokens put in one category by what the
// line is (the cursor's member, its class context, a ranked member's signature, a body line, a
// Javadoc summary, a gap marker, a group header, a follow-up group, a non-Java chunk), each with
// the share of its tokens inside gold declarations (attribution.ts). It answers which parts of a
// context buy the least recall per token; noise-breakdown.bench.ts prints it.

import type { ContextItem } from '../../shared/protocol';
import type { IndexedFile, SymbolRef } from '../../server/src/index/workspaceIndex';
import type { SymbolFact } from '../../server/src/java/facts';
import { isTypeKind } from '../../server/src/java/symbols';
import { countTokens } from '../../server/src/retrieval/cap';
import { enclosingContext } from '../../server/src/retrieval/prune';
import { docStartLine, signatureLines } from '../../server/src/retrieval/symbols';
import { shownLineSources, type GoldRegion } from './attribution';

/** The categories, in the order they are printed. */
export const ACCOUNT_CATEGORIES = [
  'cursor member',
  'class context: type header',
  'class context: fields',
  'type header',
  'member signature',
  'field or constant',
  'body or other code',
  'javadoc verbatim',
  'javadoc summary',
  'marker: javadoc',
  'marker: members',
  'marker: lines',
  'group header',
  'follow-up group',
  'non-java chunk',
] as const;
export type AccountCategory = (typeof ACCOUNT_CATEGORIES)[number];

export type Account = Map<AccountCategory, { tokens: number; signal: number }>;

export interface AccountInput {
  items: ContextItem[];
  /** A file of the index by the item's path relative to the corpus root. */
  fileOf: (rel: string) => IndexedFile | undefined;
  relOf: (uri: string) => string | undefined;
  textOf: (rel: string) => string | undefined;
  regions: GoldRegion[];
}

/** The innermost non-local declaration whose lines (Javadoc included) hold `line`. */
function declarationAt(symbols: SymbolFact[], line: number, docStart: (s: SymbolFact) => number): SymbolFact | undefined {
  let best: SymbolFact | undefined;
  for (const s of symbols) {
    if (s.local || s.anonymous) continue;
    if (docStart(s) <= line && line <= s.span.el && (!best || s.span.sl >= best.span.sl)) best = s;
  }
  return best;
}

/** Adds one context's lines to `into` (created when absent) and returns it. */
export function accountContext(input: AccountInput, into: Account = new Map()): Account {
  const add = (k: AccountCategory, n: number, s: boolean) => { const c = into.get(k) ?? { tokens: 0, signal: 0 }; c.tokens += n; if (s) c.signal += n; into.set(k, c); };
  // The cursor's class context: its type's header and the fields its member mentions (prune.ts).
  const first = input.items[0];
  const context = new Set<string>();
  let contextType: string | undefined;
  if (first?.sources.includes('enclosing') && first.symbol) {
    const rel = input.relOf(first.uri);
    const file = rel ? input.fileOf(rel) : undefined;
    const index = file?.facts.symbols.findIndex((s) => s.id === first.symbol) ?? -1;
    if (file && index >= 0) {
      const ref: SymbolRef = { file, index, sym: file.facts.symbols[index] };
      const refs = enclosingContext(ref, (input.textOf(rel!) ?? '').split('\n'));
      contextType = refs[0]?.sym.id;
      for (const r of refs.slice(1)) context.add(r.sym.id);
    }
  }
  input.items.forEach((it, i) => {
    const rel = input.relOf(it.uri);
    const lines = rel ? (input.textOf(rel) ?? '').split('\n') : [];
    const sources = rel ? shownLineSources(it, lines) : [];
    const gold = input.regions.filter((r) => r.file === rel);
    const symbols = rel ? input.fileOf(rel)?.facts.symbols ?? [] : [];
    const docStarts = new Map<SymbolFact, number>();
    const docStart = (s: SymbolFact) => {
      let d = docStarts.get(s);
      if (d === undefined) docStarts.set(s, (d = docStartLine(s, lines)));
      return d;
    };
    const cursorMember = i === 0 && it.sources.includes('enclosing');
    const followup = it.sources.length === 1 && it.sources[0] === 'followup';
    const chunk = !(it as { symbols?: string[] }).symbols;
    it.text.split('\n').forEach((text, k) => {
      const n = countTokens(text);
      const at = it.sourceLines?.[k];
      const signal = sources[k] !== undefined && gold.some((r) => r.start <= sources[k] && sources[k] <= r.end);
      let category: AccountCategory;
      if (cursorMember) category = 'cursor member';
      else if (chunk) category = 'non-java chunk';
      else if (followup) category = 'follow-up group';
      else if (at?.written === 'header') category = 'group header';
      else if (at?.written === 'doc') category = 'javadoc summary';
      else if (at?.written === 'gap') category = at.hidden?.javadoc ? 'marker: javadoc' : at.hidden?.members.length ? 'marker: members' : 'marker: lines';
      else {
        const line = at?.line ?? sources[k];
        const d = line === undefined ? undefined : declarationAt(symbols, line, docStart);
        const inSignature = d !== undefined && line! >= d.span.sl && line! <= signatureLines(d, lines).end;
        if (!d) category = 'body or other code';
        else if (line! < d.span.sl) category = 'javadoc verbatim';
        else if (d.id === contextType && inSignature) category = 'class context: type header';
        else if (context.has(d.id)) category = 'class context: fields';
        else if (!inSignature) category = 'body or other code';
        else if (isTypeKind(d.kind)) category = 'type header';
        else if (d.kind === 'field' || d.kind === 'enumConstant') category = 'field or constant';
        else category = 'member signature';
      }
      add(category, n, signal);
    });
  });
  return into;
}

/** The account as a table: tokens per context (mean), share of all tokens, share inside gold declarations. */
export function accountTable(account: Account, contexts: number): string[] {
  const total = [...account.values()].reduce((a, c) => a + c.tokens, 0) || 1;
  const out = ['category                     tokens/context  share  signal-share'];
  for (const k of ACCOUNT_CATEGORIES) {
    const c = account.get(k);
    if (!c) continue;
    out.push(`${k.padEnd(28)} ${(c.tokens / Math.max(1, contexts)).toFixed(1).padStart(14)}  ${(c.tokens / total).toFixed(3)}  ${(c.signal / (c.tokens || 1)).toFixed(3)}`);
  }
  const signal = [...account.values()].reduce((a, c) => a + c.signal, 0);
  out.push(`${'all'.padEnd(28)} ${(total / Math.max(1, contexts)).toFixed(1).padStart(14)}  1.000  ${(signal / total).toFixed(3)}`);
  return out;
}
