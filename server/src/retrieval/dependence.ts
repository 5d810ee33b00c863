// Stage 5 (The Needle and the Noise §4 (5), GraphCoder): statement-level dependence re-rank over the top-k only.
// The cursor's method becomes a statement graph with three edge kinds — control flow (CFG)
// between statements, control dependence (CDG) of a statement on its enclosing if/loop/switch/
// try, and data dependence (DDG) from a local's definition to its uses. A candidate mentioned by
// statements near the cursor's statement gains, decaying with graph distance; CFG weighs most.

import type { Node } from 'web-tree-sitter';
import { parseJava } from '../java/parser';
import type { Merged } from './merge';
import { byScore } from './types';
import { DEFAULTS } from './request';

/** GraphCoder's ablation (The Needle and the Noise §2.1): CFG ≫ CDG ≈ DDG; removing CFG cost 19.82%. */
export const EDGE_WEIGHTS = { cfg: 1.0, cdg: 0.4, ddg: 0.4 } as const;
/** Decay per edge of distance from the cursor's statement (GraphCoder: decay-with-distance). */
export const DISTANCE_DECAY = 0.6;
/** The structural factor multiplies a top-k candidate's score by at most 1 + this × Σ weights. */
export const DEPENDENCE_BOOST = 0.5;
/** The Needle and the Noise §4 (5): only the top-k candidates (k = 20) get the dependence re-rank. */
export const TOP_K = DEFAULTS.topK;

export interface Statement { id: number; line: number; endLine: number; kind: string; idents: Set<string>; defs: string[]; parent: number }
export interface StatementGraph {
  statements: Statement[];
  cfg: [number, number][];
  cdg: [number, number][];
  ddg: [number, number][];
  /** The statement at (or just before) the cursor; -1 when the body has none. */
  cursor: number;
}

const COMPOUND = new Set(['if_statement', 'for_statement', 'enhanced_for_statement', 'while_statement', 'do_statement', 'switch_expression', 'switch_statement', 'try_statement', 'try_with_resources_statement', 'synchronized_statement', 'labeled_statement']);
const LOOPS = new Set(['for_statement', 'enhanced_for_statement', 'while_statement', 'do_statement']);

function isStatement(n: Node): boolean {
  return (n.type.endsWith('_statement') || n.type === 'local_variable_declaration' || n.type === 'switch_expression') && n.type !== 'block';
}

/** Builds the statement graph of the method/constructor body containing the cursor (0-based line). */
export async function statementGraph(methodText: string, cursorLine: number): Promise<StatementGraph> {
  // Wrap in a class so any member text parses; line numbers shift by one.
  const tree = await parseJava(`class __N {\n${methodText}\n}`);
  try {
    const g: StatementGraph = { statements: [], cfg: [], cdg: [], ddg: [], cursor: -1 };
    const body = findBody(tree.rootNode);
    if (!body) return g;
    const visit = (n: Node, parent: number): void => {
      for (const c of n.namedChildren) {
        if (!c) continue;
        if (isStatement(c)) {
          const id = g.statements.length;
          const own = ownIdentifiers(c);
          g.statements.push({ id, line: c.startPosition.row - 1, endLine: c.endPosition.row - 1, kind: c.type, idents: own.idents, defs: own.defs, parent });
          if (parent >= 0) g.cdg.push([parent, id]);
          visit(c, COMPOUND.has(c.type) ? id : parent);
        } else if (c.type !== 'lambda_expression' && c.type !== 'class_body') visit(c, parent);
      }
    };
    visit(body, -1);
    buildCfg(body, g);
    // DDG: each definition reaches later statements that use the name.
    g.statements.forEach((s) => {
      for (const d of s.defs) for (const t of g.statements) if (t.id > s.id && t.idents.has(d)) g.ddg.push([s.id, t.id]);
    });
    let best = -1;
    for (const s of g.statements) {
      if (s.line <= cursorLine && s.endLine >= cursorLine) best = s.id; // innermost wins (later in pre-order)
      else if (s.line <= cursorLine && best < 0) best = s.id;
      else if (s.endLine < cursorLine && (best < 0 || g.statements[best].endLine < cursorLine)) best = s.id;
    }
    g.cursor = best;
    return g;
  } finally {
    tree.delete();
  }
}

function findBody(root: Node): Node | undefined {
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.shift()!;
    if (n.type === 'method_declaration' || n.type === 'constructor_declaration' || n.type === 'compact_constructor_declaration') return n.childForFieldName('body') ?? undefined;
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return undefined;
}

function ownIdentifiers(n: Node): { idents: Set<string>; defs: string[] } {
  const idents = new Set<string>();
  const defs: string[] = [];
  const walk = (x: Node, top: boolean) => {
    if (!top && (isStatement(x) || x.type === 'block')) return;
    if (x.type === 'identifier' || x.type === 'type_identifier') idents.add(x.text);
    if (x.type === 'variable_declarator' || x.type === 'catch_formal_parameter') {
      const name = x.childForFieldName('name');
      if (name) defs.push(name.text);
    }
    if (x.type === 'assignment_expression' || x.type === 'update_expression') {
      const left = x.childForFieldName('left') ?? x.namedChildren[0];
      if (left?.type === 'identifier') defs.push(left.text);
    }
    if (x.type === 'enhanced_for_statement' && top) {
      const name = x.childForFieldName('name');
      if (name) defs.push(name.text);
    }
    for (const c of x.namedChildren) if (c) walk(c, false);
  };
  walk(n, true);
  return { idents, defs };
}

/** Control flow: sequence within blocks, branches into bodies, loop back edges. */
function buildCfg(body: Node, g: StatementGraph): void {
  const idOf = new Map<number, number>();
  // Statement ids were assigned in pre-order; match nodes by start index.
  let k = 0;
  const assign = (n: Node) => {
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (isStatement(c)) { idOf.set(c.startIndex * 1000 + c.type.length, k++); assign(c); }
      else if (c.type !== 'lambda_expression' && c.type !== 'class_body') assign(c);
    }
  };
  assign(body);
  const sid = (n: Node) => idOf.get(n.startIndex * 1000 + n.type.length);
  const edge = (a: number, b: number) => { if (!g.cfg.some(([x, y]) => x === a && y === b)) g.cfg.push([a, b]); };
  /** Returns [entry, exits] of a statement list; undefined when empty. */
  const seq = (nodes: Node[]): [number, number[]] | undefined => {
    let entry: number | undefined;
    let exits: number[] = [];
    for (const n of nodes) {
      const r = stmt(n);
      if (!r) continue;
      if (entry === undefined) entry = r[0];
      for (const e of exits) edge(e, r[0]);
      exits = r[1];
    }
    return entry === undefined ? undefined : [entry, exits];
  };
  const childStatements = (n: Node | null | undefined): Node[] => {
    if (!n) return [];
    if (isStatement(n)) return [n];
    const out: Node[] = [];
    for (const c of n.namedChildren) if (c) { if (isStatement(c)) out.push(c); else if (c.type === 'block' || c.type.startsWith('switch_') || c.type === 'catch_clause' || c.type === 'finally_clause') out.push(...childStatements(c)); }
    return out;
  };
  const stmt = (n: Node): [number, number[]] | undefined => {
    const id = sid(n);
    if (id === undefined) return undefined;
    if (n.type === 'if_statement') {
      const exits: number[] = [];
      for (const f of ['consequence', 'alternative']) {
        const r = seq(childStatements(n.childForFieldName(f)));
        if (r) { edge(id, r[0]); exits.push(...r[1]); } else exits.push(id);
      }
      return [id, exits];
    }
    if (LOOPS.has(n.type)) {
      const r = seq(childStatements(n.childForFieldName('body')));
      if (r) { edge(id, r[0]); for (const e of r[1]) edge(e, id); }
      return [id, [id]];
    }
    if (n.type === 'return_statement' || n.type === 'throw_statement') return [id, []];
    if (COMPOUND.has(n.type)) {
      const parts = n.namedChildren.filter((c): c is Node => !!c && (c.type === 'block' || c.type.startsWith('switch_') || c.type === 'catch_clause' || c.type === 'finally_clause' || isStatement(c)));
      const exits: number[] = [];
      for (const p of parts) {
        const r = seq(childStatements(p));
        if (r) { edge(id, r[0]); exits.push(...r[1]); }
      }
      return [id, exits.length ? exits : [id]];
    }
    return [id, [id]];
  };
  seq(childStatements(body));
}

/** Undirected BFS distances from a statement over one edge kind. */
export function distances(n: number, edges: [number, number][], from: number): number[] {
  const d = new Array<number>(n).fill(Infinity);
  if (from < 0) return d;
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) { adj[a].push(b); adj[b].push(a); }
  d[from] = 0;
  const queue = [from];
  while (queue.length) {
    const x = queue.shift()!;
    for (const y of adj[x]) if (d[y] === Infinity) { d[y] = d[x] + 1; queue.push(y); }
  }
  return d;
}

/** Structural closeness of a name to the cursor: Σ over edge kinds of weight × decay^distance. */
export function closeness(g: StatementGraph, name: string): number {
  if (g.cursor < 0) return 0;
  const n = g.statements.length;
  let total = 0;
  for (const kind of ['cfg', 'cdg', 'ddg'] as const) {
    const d = distances(n, g[kind], g.cursor);
    let best = Infinity;
    for (const s of g.statements) if (s.idents.has(name)) best = Math.min(best, d[s.id]);
    if (best < Infinity) total += EDGE_WEIGHTS[kind] * Math.pow(DISTANCE_DECAY, best);
  }
  return total;
}

/** Re-ranks the top-k candidates by closeness; the rest keep their order below them. */
export function dependenceRerank(candidates: Merged[], g: StatementGraph, k: number = TOP_K): Merged[] {
  if (g.cursor < 0 || !g.statements.length) return candidates;
  const top = candidates.slice(0, k).map((c) => {
    const f = closeness(g, c.ref.sym.kind === 'constructor' ? c.ref.file.facts.symbols[c.ref.sym.parent]?.name ?? c.ref.sym.name : c.ref.sym.name);
    const k = 1 + DEPENDENCE_BOOST * f;
    return f > 0 ? { ...c, score: c.score * k, ...(c.membership ? { membership: c.membership * k } : {}) } : c;
  }).sort(byScore);
  return [...top, ...candidates.slice(k)];
}
