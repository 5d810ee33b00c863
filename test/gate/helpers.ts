// Shared helpers for the gate tests: an index over the inline fixture, items showing declarations,
// a pipeline request and a fake pipeline API.
import { pathToFileURL } from 'node:url';
import type { ContextItem, ItemSource } from '../../shared/protocol';
import { factsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import type { PipelineRequest, Target } from '../../server/src/retrieval/request';
import { FILES } from './fixtures';

export const SERVICE = '/ws/src/com/acme/order/PricingService.java';

export async function buildIndex(files: Record<string, string> = FILES): Promise<WorkspaceIndex> {
  const index = new WorkspaceIndex();
  for (const [p, t] of Object.entries(files)) index.put(p, '/ws', 'h', await factsOfText(t));
  index.resolveAll();
  return index;
}

export function targetAt(index: WorkspaceIndex, path: string, line: number, col: number): Target {
  const ref = index.enclosingSymbol(path, line, col);
  if (!ref) throw new Error('no symbol at position');
  const facts = ref.file.facts;
  let i = ref.sym.parent;
  while (i >= 0 && !['class', 'interface', 'enum', 'record'].includes(facts.symbols[i].kind)) i = facts.symbols[i].parent;
  return { ref, owner: i >= 0 ? { file: ref.file, index: i, sym: facts.symbols[i] } : undefined };
}

/** An item showing a symbol's whole declaration, as retrieval would produce it. */
export function itemFor(index: WorkspaceIndex, id: string, sources: ItemSource[] = ['lexical'], score = 1, files: Record<string, string> = FILES): ContextItem {
  const r = index.symbol(id);
  if (!r) throw new Error(`unknown symbol ${id}`);
  const lines = files[r.file.path].split('\n').slice(r.sym.span.sl, r.sym.span.el + 1);
  const text = lines.join('\n');
  return {
    uri: pathToFileURL(r.file.path).href,
    range: { start: { line: r.sym.span.sl, character: 0 }, end: { line: r.sym.span.el, character: lines[lines.length - 1].length } },
    symbol: id, kind: r.sym.kind, text, tokens: Math.ceil(text.length / 4), score, sources, untrusted: true,
  };
}

export function request(index: WorkspaceIndex, over: Partial<PipelineRequest> = {}): PipelineRequest {
  return {
    index, roots: ['/ws'], textOf: (p) => FILES[p], openPaths: [], path: SERVICE, position: { line: 20, character: 4 },
    budgetTokens: 4000, mode: 'rcl', maxRounds: 2, threshold: 0.7, ...over,
  };
}

/** A pipeline API whose follow-up returns declaration items (from `files`) and whose budget keeps the best scores. */
export function fakeApi(index: WorkspaceIndex, calls: string[][] = [], files: Record<string, string> = FILES) {
  return {
    itemsForSymbols(_req: PipelineRequest, ids: string[], source: 'followup'): ContextItem[] {
      calls.push(ids);
      return ids.filter((id) => index.symbol(id)).map((id) => itemFor(index, id, [source], 0.1, files));
    },
    fitToBudget(items: ContextItem[], budget: number): ContextItem[] {
      const out: ContextItem[] = [];
      let used = 0;
      for (const it of [...items].sort((a, b) => b.score - a.score)) {
        if (used + it.tokens > budget) continue;
        used += it.tokens;
        out.push(it);
      }
      return out;
    },
  };
}
