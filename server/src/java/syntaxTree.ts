// A syntax tree read out of tree-sitter in one walk, for extraction. Through web-tree-sitter's
// Node API every question about a node (its type, its end, its children, a field child) is a call
// into wasm that copies values through a transfer buffer and allocates a fresh wrapper per node
// returned; extraction asks millions of them on a large module and spent as long on that as on
// parsing. Here one TreeCursor walk copies, for every node, its type, field, start and end into
// plain arrays; SyntaxNode then answers the Node API's questions (the subset extraction uses,
// with the same answers) from those arrays and the source text, without calling into wasm.
//
// The walk calls the cursor functions the wasm module exports, not web-tree-sitter's TreeCursor:
// its methods copy the cursor state in and out of the transfer buffer through generic helpers on
// every step, which made a walk of java.base 3.3× slower (4.5 s against 1.3 s). The cursor stays
// in the transfer buffer between our calls, as tree-sitter.c keeps it there. This relies on two
// internals of web-tree-sitter 0.25 (pinned in package.json): the options object given to
// Parser.init becomes the Emscripten module, so the exports are its properties (parser.ts keeps
// it), and a Tree holds its wasm address at [0]. Without them the walk uses the public TreeCursor,
// which reads the same values; test/java/syntaxTree.test.ts checks both against the Node API.

import type { Language, Point, Tree } from 'web-tree-sitter';
import { treeSitterModule } from './parser';

/** The steps of one cursor walk. `done` frees the cursor. */
interface Cursor {
  firstChild(): boolean;
  nextSibling(): boolean;
  parent(): boolean;
  typeId(): number;
  fieldId(): number;
  startIndex(): number;
  endIndex(): number;
  done(): void;
}

type Export = (tree: number) => number;
const EXPORTS = [
  '_ts_tree_cursor_goto_first_child_wasm', '_ts_tree_cursor_goto_next_sibling_wasm', '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm', '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm', '_ts_tree_cursor_end_index_wasm', '_ts_tree_cursor_delete_wasm',
] as const;

/** The wasm module's cursor functions, or undefined if this web-tree-sitter does not expose them as we expect. */
function wasmCursorFunctions(): Record<(typeof EXPORTS)[number], Export> | undefined {
  const m = treeSitterModule();
  if (!m || !EXPORTS.every((name) => typeof m[name] === 'function')) return undefined;
  return m as Record<(typeof EXPORTS)[number], Export>;
}

/** Whether walks call the wasm module's cursor functions directly (the fast path). */
export function wasmCursorAvailable(): boolean {
  return !!wasmCursorFunctions();
}

function wasmCursor(tree: Tree): Cursor | undefined {
  const f = wasmCursorFunctions();
  const address = (tree as unknown as Record<number, unknown>)[0];
  if (!f || typeof address !== 'number') return undefined;
  // The new cursor is left in the transfer buffer; the calls below move it there and never let
  // web-tree-sitter see it (so `done` frees the cursor as it is now, not its first copy).
  tree.walk();
  return {
    firstChild: () => f._ts_tree_cursor_goto_first_child_wasm(address) === 1,
    nextSibling: () => f._ts_tree_cursor_goto_next_sibling_wasm(address) === 1,
    parent: () => f._ts_tree_cursor_goto_parent_wasm(address) === 1,
    typeId: () => f._ts_tree_cursor_current_node_type_id_wasm(address),
    fieldId: () => f._ts_tree_cursor_current_field_id_wasm(address),
    startIndex: () => f._ts_tree_cursor_start_index_wasm(address),
    endIndex: () => f._ts_tree_cursor_end_index_wasm(address),
    done: () => { f._ts_tree_cursor_delete_wasm(address); },
  };
}

function apiCursor(tree: Tree): Cursor {
  const c = tree.walk();
  return {
    firstChild: () => c.gotoFirstChild(),
    nextSibling: () => c.gotoNextSibling(),
    parent: () => c.gotoParent(),
    typeId: () => c.nodeTypeId,
    fieldId: () => c.currentFieldId,
    startIndex: () => c.startIndex,
    endIndex: () => c.endIndex,
    done: () => c.delete(),
  };
}

/** What a walk needs to know of a language, found once per language. */
class Grammar {
  readonly fieldIdByName = new Map<string, number>();
  /** Per type id: 0 not asked yet, 1 anonymous, 2 named. */
  private readonly named = new Uint8Array(0x10000);

  constructor(private readonly language: Language) {
    language.fields.forEach((name, id) => { if (name && !this.fieldIdByName.has(name)) this.fieldIdByName.set(name, id); });
  }

  typeName(typeId: number): string { return this.language.types[typeId] || 'ERROR'; }

  isNamed(typeId: number): boolean {
    return (this.named[typeId] ||= this.language.nodeTypeIsNamed(typeId) ? 2 : 1) === 2;
  }
}

const grammars = new WeakMap<Language, Grammar>();

// Per node, STRIDE ints in SyntaxTree.data:
const TYPE = 0, FIELD = 1, START = 2, END = 3, PARENT = 4, FIRST_CHILD = 5, NEXT_SIBLING = 6, PREV_SIBLING = 7, STRIDE = 8;

export class SyntaxTree {
  readonly rootNode: SyntaxNode;
  /** Whether tree-sitter found syntax errors anywhere in the tree. */
  readonly hasError: boolean;
  /** Every node, by index in document order (a node before its children): see STRIDE. */
  private data = new Int32Array(STRIDE * 1024);
  private readonly nodes: (SyntaxNode | undefined)[] = [];
  private readonly grammar: Grammar;
  /** Offsets where lines start, for positions. */
  private lineStarts: number[] | undefined;

  /** `text` must be the text `tree` was parsed from. `useApi` forces the public TreeCursor (for tests). */
  constructor(tree: Tree, readonly text: string, useApi = false) {
    let grammar = grammars.get(tree.language);
    if (!grammar) grammars.set(tree.language, (grammar = new Grammar(tree.language)));
    this.grammar = grammar;
    this.hasError = tree.rootNode.hasError;
    this.read((!useApi && wasmCursor(tree)) || apiCursor(tree));
    this.rootNode = this.node(0);
  }

  private read(cursor: Cursor): void {
    /** Per node, the last child linked so far. */
    let lastChild = new Int32Array(1024);
    let count = 0;
    let parent = -1;
    try {
      for (;;) {
        const i = count++;
        if (count * STRIDE > this.data.length) {
          const grown = new Int32Array(this.data.length * 2);
          grown.set(this.data);
          this.data = grown;
          const children = new Int32Array(lastChild.length * 2);
          children.set(lastChild);
          lastChild = children;
        }
        const d = this.data;
        const at = i * STRIDE;
        d[at + TYPE] = cursor.typeId();
        d[at + FIELD] = cursor.fieldId();
        d[at + START] = cursor.startIndex();
        d[at + END] = cursor.endIndex();
        d[at + PARENT] = parent;
        d[at + FIRST_CHILD] = -1;
        d[at + NEXT_SIBLING] = -1;
        lastChild[i] = -1;
        if (parent >= 0) {
          const prev = lastChild[parent];
          d[at + PREV_SIBLING] = prev;
          if (prev < 0) d[parent * STRIDE + FIRST_CHILD] = i;
          else d[prev * STRIDE + NEXT_SIBLING] = i;
          lastChild[parent] = i;
        } else d[at + PREV_SIBLING] = -1;
        if (cursor.firstChild()) { parent = i; continue; }
        while (!cursor.nextSibling()) {
          if (!cursor.parent()) return;
          parent = d[parent * STRIDE + PARENT];
        }
      }
    } finally {
      cursor.done();
    }
  }

  /** The node at index `i`, made on first use. */
  node(i: number): SyntaxNode {
    const at = i * STRIDE;
    const type = this.data[at + TYPE];
    return this.nodes[i] ??= new SyntaxNode(this, i, this.grammar.typeName(type), this.grammar.isNamed(type), this.data[at + START], this.data[at + END]);
  }

  isNamed(i: number): boolean { return this.grammar.isNamed(this.data[i * STRIDE + TYPE]); }
  firstChildOf(i: number): number { return this.data[i * STRIDE + FIRST_CHILD]; }
  nextSiblingOf(i: number): number { return this.data[i * STRIDE + NEXT_SIBLING]; }
  prevSiblingOf(i: number): number { return this.data[i * STRIDE + PREV_SIBLING]; }
  fieldOf(i: number): number { return this.data[i * STRIDE + FIELD]; }
  fieldId(name: string): number | undefined { return this.grammar.fieldIdByName.get(name); }

  /** Row and UTF-16 column of an offset, as tree-sitter counts them (rows end at \n). */
  pointAt(offset: number): Point {
    const starts = this.lineStarts ??= lineStartsOf(this.text);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return { row: lo, column: offset - starts[lo] };
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

const NO_NODES: readonly SyntaxNode[] = Object.freeze([]);

/** One node; its properties mean what they mean on web-tree-sitter's Node. */
export class SyntaxNode {
  private startRead: Point | undefined = undefined;
  private endRead: Point | undefined = undefined;
  private textRead: string | undefined = undefined;
  private namedRead: readonly SyntaxNode[] | undefined = undefined;
  private allRead: readonly SyntaxNode[] | undefined = undefined;

  constructor(
    private readonly tree: SyntaxTree,
    /** Unique within the tree (its index in document order). */
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  get text(): string { return this.textRead ??= this.tree.text.slice(this.startIndex, this.endIndex); }
  get startPosition(): Point { return this.startRead ??= this.tree.pointAt(this.startIndex); }
  get endPosition(): Point { return this.endRead ??= this.tree.pointAt(this.endIndex); }

  /** All children, anonymous tokens (keywords, operators, punctuation) included. */
  get children(): readonly SyntaxNode[] {
    if (this.allRead) return this.allRead;
    const out: SyntaxNode[] = [];
    for (let c = this.tree.firstChildOf(this.id); c >= 0; c = this.tree.nextSiblingOf(c)) out.push(this.tree.node(c));
    return (this.allRead = out.length ? out : NO_NODES);
  }

  get namedChildren(): readonly SyntaxNode[] {
    if (this.namedRead) return this.namedRead;
    const out: SyntaxNode[] = [];
    for (let c = this.tree.firstChildOf(this.id); c >= 0; c = this.tree.nextSiblingOf(c)) if (this.tree.isNamed(c)) out.push(this.tree.node(c));
    return (this.namedRead = out.length ? out : NO_NODES);
  }

  /** As Node.previousNamedSibling (which, going by positions, can differ for a zero-width missing node). */
  get previousNamedSibling(): SyntaxNode | null {
    for (let c = this.tree.prevSiblingOf(this.id); c >= 0; c = this.tree.prevSiblingOf(c)) if (this.tree.isNamed(c)) return this.tree.node(c);
    return null;
  }

  /** The first child in the field, or null (as Node.childForFieldName). */
  childForFieldName(name: string): SyntaxNode | null {
    const field = this.tree.fieldId(name);
    // An error node has no fields of its own; a cursor still reports the fields its children had
    // in a rule the error interrupted.
    if (field === undefined || this.type === 'ERROR') return null;
    for (let c = this.tree.firstChildOf(this.id); c >= 0; c = this.tree.nextSiblingOf(c)) {
      if (this.tree.fieldOf(c) === field) return this.tree.node(c);
    }
    return null;
  }
}
