// Extraction: one parsed Java file -> FileFacts (declarations and unresolved reference sites).
// It sees one file only. Local variables and parameters are resolved here, to their declared
// type text, so that resolution (resolve.ts) never needs a scope of its own.
// It reads the tree as a SyntaxTree (syntaxTree.ts): the same questions as web-tree-sitter's Node
// API, answered from one walk instead of a call into wasm each.

import type { Tree } from 'web-tree-sitter';
import { SyntaxTree, type SyntaxNode } from './syntaxTree';
import type { Expr, FileFacts, ImportFact, Param, RefFact, RefKind, Span, SymbolFact, SymbolKind, TypeParam } from './facts';

const TYPE_KINDS: Record<string, SymbolKind> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'record',
  annotation_type_declaration: 'annotation',
};

const LITERAL_TYPES: Record<string, string> = {
  decimal_integer_literal: 'int', hex_integer_literal: 'int', octal_integer_literal: 'int', binary_integer_literal: 'int',
  decimal_floating_point_literal: 'double', hex_floating_point_literal: 'double',
  string_literal: 'String', text_block: 'String', character_literal: 'char', true: 'boolean', false: 'boolean', null_literal: 'null',
};

type LocalVar = Extract<Expr, { k: 'local' }>;

/**
 * Lexical scopes of locals: a stack of maps, innermost last. Every name a lookup resolves to a
 * local counts as read (written or read: any use after its declaration), so a method's locals and
 * parameters never used are known from the same resolution of names (SymbolFact.unreadLocals).
 */
class Scope {
  private frames: Map<string, LocalVar>[] = [new Map()];
  readonly read = new Set<LocalVar>();
  push(): void { this.frames.push(new Map()); }
  pop(): void { this.frames.pop(); }
  declare(name: string, v: LocalVar): void { this.frames[this.frames.length - 1].set(name, v); }
  /** The local `name` of the innermost frame, without counting it as read. */
  own(name: string): LocalVar | undefined { return this.frames[this.frames.length - 1].get(name); }
  lookup(name: string): LocalVar | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const v = this.frames[i].get(name);
      if (v) { this.read.add(v); return v; }
    }
    return undefined;
  }
}

/** A local a method body declares (a variable, a for-each or a resource variable), for SymbolFact.unreadLocals. */
interface DeclaredLocal { name: string; type: string; v: LocalVar }

export function spanOf(node: SyntaxNode): Span {
  return { sl: node.startPosition.row, sc: node.startPosition.column, el: node.endPosition.row, ec: node.endPosition.column };
}

/** Type text without whitespace and type annotations: `Map<String, @NonNull Foo>` -> `Map<String,Foo>`. */
export function typeTextOf(node: SyntaxNode | null | undefined): string {
  if (!node) return '';
  return node.text.replace(/@[\w.]+(\([^()]*\))?/g, '').replace(/\s+/g, '');
}

/** Simple erased name for a parameter type in a symbol id: `java.util.List<Foo>` -> `List`, `Foo...` -> `Foo[]`. */
export function erasedSimpleName(typeText: string): string {
  let t = typeText.replace(/<.*>/g, '');
  let dims = '';
  while (t.endsWith('[]')) { dims += '[]'; t = t.slice(0, -2); }
  if (t.endsWith('...')) { dims += '[]'; t = t.slice(0, -3); }
  const dot = t.lastIndexOf('.');
  return (dot >= 0 ? t.slice(dot + 1) : t) + dims;
}

/** The simple name of the type a type text names, erased and without array dimensions: `Outer<A>.Inner[]` -> `Inner`. */
export function erasedTypeName(typeText: string): string {
  return erasedSimpleName(typeText).replace(/(\[\])+$/, '');
}

function javadocBefore(node: SyntaxNode): string | undefined {
  const prev = node.previousNamedSibling;
  if (!prev || prev.type !== 'block_comment' || !prev.text.startsWith('/**')) return undefined;
  if (node.startPosition.row - prev.endPosition.row > 1) return undefined;
  return prev.text
    .replace(/^\/\*\*+/, '').replace(/\*+\/$/, '')
    .split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trimEnd()).join('\n').trim();
}

/** `text` is the text `tree` was parsed from. */
export function extractFacts(tree: Tree, text: string): FileFacts {
  return new Extractor().run(new SyntaxTree(tree, text));
}

class Extractor {
  private pkg = '';
  private imports: ImportFact[] = [];
  private symbols: SymbolFact[] = [];
  /** The locals the method being walked declares (undefined outside a method body). */
  private declaredLocals?: DeclaredLocal[];
  private refs: RefFact[] = [];
  private exprCache = new Map<number, Expr>();
  private anonCount = new Map<number, number>();
  private usedIds = new Set<string>();

  run(tree: SyntaxTree): FileFacts {
    const root = tree.rootNode;
    for (const child of root.namedChildren) {
      if (!child) continue;
      if (child.type === 'package_declaration') {
        const name = child.namedChildren.find((c) => c && (c.type === 'scoped_identifier' || c.type === 'identifier'));
        if (name) this.pkg = name.text.replace(/\s+/g, '');
      } else if (child.type === 'import_declaration') {
        this.addImport(child);
      } else if (TYPE_KINDS[child.type]) {
        this.visitType(child, -1, this.pkg, false, new Scope());
      }
    }
    return {
      package: this.pkg, imports: this.imports, symbols: this.symbols, refs: this.refs,
      hasErrors: tree.hasError, lineCount: root.endPosition.row + 1,
    };
  }

  private addImport(node: SyntaxNode): void {
    let isStatic = false;
    let wildcard = false;
    let name = '';
    for (const c of node.children) {
      if (!c) continue;
      if (c.type === 'static') isStatic = true;
      else if (c.type === 'asterisk') wildcard = true;
      else if (c.type === 'scoped_identifier' || c.type === 'identifier') name = c.text.replace(/\s+/g, '');
    }
    if (name) this.imports.push({ name, static: isStatic, wildcard, line: node.startPosition.row });
  }

  private uniqueId(id: string): string {
    let out = id;
    for (let n = 2; this.usedIds.has(out); n++) out = `${id}~${n}`;
    this.usedIds.add(out);
    return out;
  }

  private addSymbol(s: Omit<SymbolFact, 'id'> & { id: string }): number {
    if (s.id) s.id = this.uniqueId(s.id); // methods get their id once their parameters are known
    this.symbols.push(s);
    return this.symbols.length - 1;
  }

  private modifiersOf(node: SyntaxNode): { modifiers: string[]; annotations: string[]; annotationNodes: SyntaxNode[] } {
    const modifiers: string[] = [];
    const annotations: string[] = [];
    const annotationNodes: SyntaxNode[] = [];
    const mods = node.namedChildren.find((c) => (c && c.type) === 'modifiers');
    if (mods) {
      for (const c of mods.children) {
        if (!c) continue;
        if (c.type === 'marker_annotation' || c.type === 'annotation') {
          const an = c.childForFieldName('name');
          annotations.push((an ?? c).text);
          annotationNodes.push(c);
        } else if (!c.isNamed || c.type === 'static' || c.type === 'final') {
          modifiers.push(c.text);
        }
      }
    }
    return { modifiers, annotations, annotationNodes };
  }

  /** References inside annotations: the annotation type and constants in its arguments. */
  private annotationRefs(nodes: SyntaxNode[], from: number, scope: Scope): void {
    for (const a of nodes) {
      const name = a.childForFieldName('name');
      if (name) this.typeRefsOfName(name, from);
      const args = a.childForFieldName('arguments');
      if (args) this.walk(args, from, scope);
    }
  }

  /** An annotation name is an identifier or scoped_identifier, not a type node. */
  private typeRefsOfName(node: SyntaxNode, from: number): void {
    if (node.type === 'identifier') {
      this.refs.push({ kind: 'type', name: node.text, type: node.text, line: node.startPosition.row, col: node.startPosition.column, from });
    } else if (node.type === 'scoped_identifier') {
      const scopeNode = node.childForFieldName('scope');
      const nameNode = node.childForFieldName('name');
      if (scopeNode) this.typeRefsOfName(scopeNode, from);
      if (nameNode) this.refs.push({ kind: 'type', name: nameNode.text, type: node.text.replace(/\s+/g, ''), line: nameNode.startPosition.row, col: nameNode.startPosition.column, from });
    }
  }

  private typeParamsOf(node: SyntaxNode, from: number): TypeParam[] | undefined {
    const tps = node.childForFieldName('type_parameters');
    if (!tps) return undefined;
    const out: TypeParam[] = [];
    for (const tp of tps.namedChildren) {
      if (!tp || tp.type !== 'type_parameter') continue;
      const name = tp.namedChildren.find((c) => (c && c.type) === 'type_identifier' || (c && c.type) === 'identifier');
      const bound = tp.namedChildren.find((c) => (c && c.type) === 'type_bound');
      const bounds: string[] = [];
      if (bound) for (const b of bound.namedChildren) if (b) { bounds.push(typeTextOf(b)); this.typeRefs(b, from); }
      if (name) out.push({ name: name.text, bounds });
    }
    return out;
  }

  private visitType(node: SyntaxNode, parent: number, ownerId: string, local: boolean, scope: Scope): void {
    const kind = TYPE_KINDS[node.type];
    const nameNode = node.childForFieldName('name');
    if (!kind || !nameNode) return;
    const name = nameNode.text;
    const id = parent < 0 ? (ownerId ? `${ownerId}.${name}` : name) : local ? `${ownerId}$${name}` : `${ownerId}.${name}`;
    const { modifiers, annotations, annotationNodes } = this.modifiersOf(node);
    const idx = this.addSymbol({
      id, kind, name, parent, nameSpan: spanOf(nameNode), span: spanOf(node),
      modifiers, annotations, javadoc: javadocBefore(node), local: local || undefined,
    });
    const sym = this.symbols[idx];
    this.annotationRefs(annotationNodes, idx, scope);
    sym.typeParams = this.typeParamsOf(node, idx);
    const superclass = node.childForFieldName('superclass');
    if (superclass) {
      const t = superclass.namedChildren.find((c) => c && c.type !== 'comment');
      if (t) { sym.superclass = typeTextOf(t); this.typeRefs(t, idx); }
    }
    const interfaces: string[] = [];
    for (const c of node.namedChildren) {
      if (!c || (c.type !== 'super_interfaces' && c.type !== 'extends_interfaces')) continue;
      const list = c.namedChildren.find((x) => (x && x.type) === 'type_list');
      for (const t of list?.namedChildren ?? []) if (t) { interfaces.push(typeTextOf(t)); this.typeRefs(t, idx); }
    }
    if (interfaces.length) sym.interfaces = interfaces;

    if (kind === 'record') {
      const params = node.childForFieldName('parameters');
      for (const p of params?.namedChildren ?? []) {
        if (!p || p.type !== 'formal_parameter') continue;
        const pn = p.childForFieldName('name');
        const pt = p.childForFieldName('type');
        if (!pn) continue;
        this.addSymbol({
          id: `${sym.id}#${pn.text}`, kind: 'field', name: pn.text, parent: idx, nameSpan: spanOf(pn), span: spanOf(p),
          modifiers: ['private', 'final', 'record-component'], annotations: [], type: typeTextOf(pt),
        });
        if (pt) this.typeRefs(pt, idx);
      }
    }
    const body = node.childForFieldName('body');
    if (body) this.visitBody(body, idx, sym.id, scope);
  }

  private visitBody(body: SyntaxNode, typeIdx: number, typeId: string, scope: Scope): void {
    for (const m of body.namedChildren) {
      if (!m) continue;
      switch (m.type) {
        case 'method_declaration':
        case 'annotation_type_element_declaration':
        case 'constructor_declaration':
        case 'compact_constructor_declaration':
          this.visitMethod(m, typeIdx, typeId, scope);
          break;
        case 'field_declaration':
        case 'constant_declaration':
          this.visitField(m, typeIdx, typeId, scope);
          break;
        case 'enum_constant':
          this.visitEnumConstant(m, typeIdx, typeId, scope);
          break;
        case 'enum_body_declarations':
          this.visitBody(m, typeIdx, typeId, scope);
          break;
        case 'static_initializer':
        case 'block': {
          scope.push();
          this.walk(m, typeIdx, scope);
          scope.pop();
          break;
        }
        default:
          if (TYPE_KINDS[m.type]) this.visitType(m, typeIdx, typeId, false, scope);
      }
    }
  }

  private paramsOf(node: SyntaxNode | null, from: number, scope: Scope | undefined): { params: Param[]; varargs: boolean } {
    const params: Param[] = [];
    let varargs = false;
    for (const p of node?.namedChildren ?? []) {
      if (!p) continue;
      if (p.type === 'formal_parameter') {
        const t = p.childForFieldName('type');
        const n = p.childForFieldName('name');
        const dims = p.childForFieldName('dimensions');
        const type = typeTextOf(t) + (dims ? dims.text.replace(/\s+/g, '') : '');
        if (n) { params.push({ name: n.text, type }); scope?.declare(n.text, { k: 'local', type }); }
        if (t) this.typeRefs(t, from);
        this.annotationRefs(this.modifiersOf(p).annotationNodes, from, scope ?? new Scope());
      } else if (p.type === 'spread_parameter') {
        varargs = true;
        const t = p.namedChildren.find((c) => c && c.type !== 'modifiers' && c.type !== 'variable_declarator');
        const decl = p.namedChildren.find((c) => (c && c.type) === 'variable_declarator');
        const n = decl?.childForFieldName('name');
        const type = typeTextOf(t) + '[]';
        if (n) { params.push({ name: n.text, type }); scope?.declare(n.text, { k: 'local', type }); }
        if (t) this.typeRefs(t, from);
      }
    }
    return { params, varargs };
  }

  private visitMethod(node: SyntaxNode, typeIdx: number, typeId: string, outer: Scope): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const isCtor = node.type === 'constructor_declaration' || node.type === 'compact_constructor_declaration';
    const name = nameNode.text;
    const { modifiers, annotations, annotationNodes } = this.modifiersOf(node);
    const idx = this.addSymbol({
      id: '', kind: isCtor ? 'constructor' : 'method', name, parent: typeIdx, nameSpan: spanOf(nameNode), span: spanOf(node),
      modifiers, annotations, javadoc: javadocBefore(node),
    });
    const sym = this.symbols[idx];
    const scope = outer;
    scope.push();
    sym.typeParams = this.typeParamsOf(node, idx);
    let params: Param[];
    let varargs = false;
    if (node.type === 'compact_constructor_declaration') {
      params = this.symbols.filter((s) => s.parent === typeIdx && s.modifiers.includes('record-component'))
        .map((s) => ({ name: s.name, type: s.type ?? '' }));
      for (const p of params) scope.declare(p.name, { k: 'local', type: p.type });
    } else {
      ({ params, varargs } = this.paramsOf(node.childForFieldName('parameters'), idx, scope));
    }
    sym.params = params;
    // A parameter recovered without its name (`m(String) {` while typing) is none the body can use.
    const paramVars = params.map((p) => (p.name ? scope.own(p.name) : undefined));
    if (varargs) sym.varargs = true;
    sym.id = this.uniqueId(`${typeId}#${isCtor ? '<init>' : name}(${params.map((p) => erasedSimpleName(p.type)).join(',')})`);
    if (!isCtor) {
      const t = node.childForFieldName('type');
      const dims = node.childForFieldName('dimensions');
      sym.returnType = typeTextOf(t) + (dims ? dims.text.replace(/\s+/g, '') : '');
      if (t) this.typeRefs(t, idx);
    }
    const throwsNode = node.namedChildren.find((c) => (c && c.type) === 'throws');
    if (throwsNode) {
      sym.throws = [];
      for (const t of throwsNode.namedChildren) if (t) { sym.throws.push(typeTextOf(t)); this.typeRefs(t, idx); }
    }
    this.annotationRefs(annotationNodes, idx, scope);
    const body = node.childForFieldName('body');
    const outerLocals = this.declaredLocals;
    this.declaredLocals = [];
    if (body) this.walk(body, idx, scope);
    if (body) {
      const unreadLocals = this.declaredLocals.filter((d) => !scope.read.has(d.v)).map((d) => ({ name: d.name, type: d.type }));
      if (unreadLocals.length) sym.unreadLocals = unreadLocals;
      const unreadParams = paramVars.flatMap((v, i) => (v && !scope.read.has(v) ? [i] : []));
      if (unreadParams.length) sym.unreadParams = unreadParams;
    }
    this.declaredLocals = outerLocals;
    const dflt = node.childForFieldName('value');
    if (dflt) this.walk(dflt, idx, scope);
    scope.pop();
  }

  private visitField(node: SyntaxNode, typeIdx: number, typeId: string, scope: Scope): void {
    const { modifiers, annotations, annotationNodes } = this.modifiersOf(node);
    const t = node.childForFieldName('type');
    const baseType = typeTextOf(t);
    const javadoc = javadocBefore(node);
    let first = -1;
    for (const d of node.namedChildren) {
      if (!d || d.type !== 'variable_declarator') continue;
      const n = d.childForFieldName('name');
      if (!n) continue;
      const dims = d.childForFieldName('dimensions');
      const idx = this.addSymbol({
        id: `${typeId}#${n.text}`, kind: 'field', name: n.text, parent: typeIdx, nameSpan: spanOf(n), span: spanOf(node),
        modifiers, annotations, javadoc, type: baseType + (dims ? dims.text.replace(/\s+/g, '') : ''),
      });
      if (first < 0) {
        first = idx;
        if (t) this.typeRefs(t, idx);
        this.annotationRefs(annotationNodes, idx, scope);
      }
      const value = d.childForFieldName('value');
      if (value) { scope.push(); this.walk(value, idx, scope); scope.pop(); }
    }
  }

  private visitEnumConstant(node: SyntaxNode, typeIdx: number, typeId: string, scope: Scope): void {
    const n = node.childForFieldName('name');
    if (!n) return;
    const { modifiers, annotations, annotationNodes } = this.modifiersOf(node);
    const idx = this.addSymbol({
      id: `${typeId}#${n.text}`, kind: 'enumConstant', name: n.text, parent: typeIdx, nameSpan: spanOf(n), span: spanOf(node),
      modifiers: [...modifiers, 'public', 'static', 'final'], annotations, javadoc: javadocBefore(node), type: this.symbols[typeIdx].name,
    });
    this.annotationRefs(annotationNodes, idx, scope);
    const args = node.childForFieldName('arguments');
    if (args) this.walk(args, idx, scope);
    const body = node.childForFieldName('body');
    if (body) this.anonymousClass(body, idx, this.symbols[typeIdx].name, scope);
  }

  /** `new Foo() { ... }` or an enum constant body: a class with a synthetic id. */
  private anonymousClass(body: SyntaxNode, from: number, superType: string, scope: Scope): void {
    let owner = from;
    while (owner >= 0 && !TYPE_KINDS[kindToNodeType(this.symbols[owner].kind)]) owner = this.symbols[owner].parent;
    const ownerId = owner >= 0 ? this.symbols[owner].id : this.pkg;
    const n = (this.anonCount.get(owner) ?? 0) + 1;
    this.anonCount.set(owner, n);
    const idx = this.addSymbol({
      id: `${ownerId}$${n}`, kind: 'class', name: '', parent: from, nameSpan: spanOf(body), span: spanOf(body),
      modifiers: [], annotations: [], anonymous: true, local: true, superclass: superType,
    });
    scope.push();
    this.visitBody(body, idx, this.symbols[idx].id, scope);
    scope.pop();
  }

  // ---- types in type positions ----

  /** Emits a `type` reference for every identifier in a type node (`Map<K, Outer.Inner>` -> Map, K, Outer, Inner). */
  private typeRefs(node: SyntaxNode, from: number, skipLast = false): void {
    switch (node.type) {
      case 'type_identifier':
        if (!skipLast) this.refs.push({ kind: 'type', name: node.text, type: node.text, line: node.startPosition.row, col: node.startPosition.column, from });
        return;
      case 'scoped_type_identifier': {
        const kids = node.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'annotation' && c.type !== 'marker_annotation');
        const last = kids[kids.length - 1];
        for (const k of kids.slice(0, -1)) this.typeRefs(k, from);
        if (last && !skipLast) {
          this.refs.push({ kind: 'type', name: last.text, type: typeTextOf(node).replace(/<.*?>/g, ''), line: last.startPosition.row, col: last.startPosition.column, from });
        }
        return;
      }
      case 'generic_type': {
        for (const k of node.namedChildren) {
          if (!k) continue;
          if (k.type === 'type_arguments') for (const a of k.namedChildren) { if (a) this.typeRefs(a, from); }
          else this.typeRefs(k, from, skipLast);
        }
        return;
      }
      case 'marker_annotation':
      case 'annotation': {
        const name = node.childForFieldName('name');
        if (name) this.typeRefsOfName(name, from);
        return;
      }
      default:
        for (const k of node.namedChildren) if (k) this.typeRefs(k, from, false);
    }
  }

  // ---- statements and expressions ----

  /** `counted`: a variable the body sets up for later (not a catch parameter or a pattern's binding), for SymbolFact.unreadLocals. */
  private declareLocal(name: string, typeNode: SyntaxNode | null, value: SyntaxNode | null, scope: Scope, dims = 0, counted = false): void {
    const type = typeTextOf(typeNode);
    const v: LocalVar = !type || type === 'var'
      ? { k: 'local', type: null, init: value ? this.exprOf(value, scope) : undefined }
      : { k: 'local', type: dims ? type + '[]'.repeat(dims) : type };
    scope.declare(name, v);
    if (counted) this.declaredLocals?.push({ name, type: v.type ?? '', v });
  }

  private walk(node: SyntaxNode, from: number, scope: Scope): void {
    switch (node.type) {
      case 'line_comment':
      case 'block_comment':
      case 'break_statement':
      case 'continue_statement':
        return;
      case 'labeled_statement':
        for (const c of node.namedChildren.slice(1)) if (c) this.walk(c, from, scope);
        return;
      case 'local_variable_declaration': {
        const t = node.childForFieldName('type');
        if (t && t.text !== 'var') this.typeRefs(t, from);
        this.annotationRefs(this.modifiersOf(node).annotationNodes, from, scope);
        for (const d of node.namedChildren) {
          if (!d || d.type !== 'variable_declarator') continue;
          const n = d.childForFieldName('name');
          const v = d.childForFieldName('value');
          if (v) this.walk(v, from, scope);
          const dims = d.childForFieldName('dimensions');
          if (n) this.declareLocal(n.text, t, v, scope, dims ? (dims.text.match(/\[/g) ?? []).length : 0, true);
        }
        return;
      }
      case 'block':
      case 'switch_block':
      case 'switch_block_statement_group':
      case 'switch_rule':
      case 'for_statement':
      case 'try_statement':
      case 'try_with_resources_statement':
      case 'catch_clause':
      case 'if_statement':
      case 'while_statement':
        scope.push();
        for (const c of node.namedChildren) if (c) this.walk(c, from, scope);
        scope.pop();
        return;
      case 'enhanced_for_statement': {
        scope.push();
        const t = node.childForFieldName('type');
        const n = node.childForFieldName('name');
        const v = node.childForFieldName('value');
        if (t) this.typeRefs(t, from);
        if (v) this.walk(v, from, scope);
        if (n) this.declareLocal(n.text, t, null, scope, 0, true);
        const body = node.childForFieldName('body');
        if (body) this.walk(body, from, scope);
        scope.pop();
        return;
      }
      case 'catch_formal_parameter': {
        const ct = node.namedChildren.find((c) => (c && c.type) === 'catch_type');
        const n = node.childForFieldName('name');
        const first = ct?.namedChildren.find((c) => !!c) ?? null;
        for (const t of ct?.namedChildren ?? []) if (t) this.typeRefs(t, from);
        if (n) this.declareLocal(n.text, (ct?.namedChildren.length ?? 0) > 1 ? null : first, null, scope);
        return;
      }
      case 'resource': {
        const t = node.childForFieldName('type');
        const n = node.childForFieldName('name');
        const v = node.childForFieldName('value');
        if (t) this.typeRefs(t, from);
        if (v) this.walk(v, from, scope);
        if (n && t) this.declareLocal(n.text, t, v, scope, 0, true);
        else for (const c of node.namedChildren) if (c && !same(c, n)) this.walk(c, from, scope);
        return;
      }
      case 'lambda_expression': {
        scope.push();
        const params = node.childForFieldName('parameters');
        const pt = params ? params.type : undefined;
        if (params && pt === 'identifier') scope.declare(params.text, { k: 'local', type: null });
        else if (params && pt === 'inferred_parameters') {
          for (const p of params.namedChildren) if (p) scope.declare(p.text, { k: 'local', type: null });
        } else if (params && pt === 'formal_parameters') this.paramsOf(params, from, scope);
        const body = node.childForFieldName('body');
        if (body) this.walk(body, from, scope);
        scope.pop();
        return;
      }
      case 'instanceof_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const name = node.childForFieldName('name');
        if (left) this.walk(left, from, scope);
        if (right) this.typeRefs(right, from);
        if (name && right) this.declareLocal(name.text, right, null, scope);
        for (const c of node.namedChildren) {
          if (c && !same(c, left) && !same(c, right) && !same(c, name)) this.walk(c, from, scope);
        }
        return;
      }
      case 'method_invocation': {
        const nameNode = node.childForFieldName('name');
        const obj = node.childForFieldName('object');
        const args = node.childForFieldName('arguments');
        if (nameNode) this.ref('call', nameNode, from, this.exprOf(node, scope));
        if (obj && obj.type !== 'super' && obj.type !== 'this') this.walk(obj, from, scope);
        const targs = node.childForFieldName('type_arguments');
        if (targs) for (const a of targs.namedChildren) if (a) this.typeRefs(a, from);
        if (args) this.walk(args, from, scope);
        return;
      }
      case 'field_access': {
        const obj = node.childForFieldName('object');
        const field = node.childForFieldName('field');
        if ((field && field.type) === 'this') {
          if (obj) this.walkAsTypeName(obj, from);
          return;
        }
        if (field) this.ref('field', field, from, this.exprOf(node, scope));
        if (obj && obj.type !== 'this' && obj.type !== 'super') this.walk(obj, from, scope);
        return;
      }
      case 'object_creation_expression': {
        const t = node.childForFieldName('type');
        const args = node.childForFieldName('arguments');
        const body = node.namedChildren.find((c) => (c && c.type) === 'class_body');
        const outer = node.namedChildren.find((c) => c && !same(c, t) && !same(c, args) && !same(c, body) && c.type !== 'type_arguments');
        if (outer) this.walk(outer, from, scope);
        if (t) {
          const last = lastTypeIdentifier(t);
          const argExprs = args ? args.namedChildren.filter((a): a is SyntaxNode => !!a).map((a) => this.exprOf(a, scope)) : [];
          if (last) this.refs.push({ kind: 'new', name: last.text, type: typeTextOf(t), args: argExprs, line: last.startPosition.row, col: last.startPosition.column, from });
          this.typeRefs(t, from, true);
        }
        if (args) this.walk(args, from, scope);
        if (body && t) this.anonymousClass(body, from, typeTextOf(t), scope);
        return;
      }
      case 'explicit_constructor_invocation': {
        const ctor = node.childForFieldName('constructor');
        const args = node.childForFieldName('arguments');
        const obj = node.childForFieldName('object');
        if (obj) this.walk(obj, from, scope);
        if (ctor) {
          const argExprs = args ? args.namedChildren.filter((a): a is SyntaxNode => !!a).map((a) => this.exprOf(a, scope)) : [];
          this.refs.push({ kind: 'ctorCall', name: ctor.text, args: argExprs, line: ctor.startPosition.row, col: ctor.startPosition.column, from });
        }
        if (args) this.walk(args, from, scope);
        return;
      }
      case 'method_reference': {
        const kids = node.children.filter((c): c is SyntaxNode => !!c);
        const sep = kids.findIndex((c) => c.type === '::');
        const recv = kids[0];
        const target = kids[kids.length - 1];
        if (recv && sep > 0) {
          if (isTypeNode(recv)) this.typeRefs(recv, from);
          else this.walk(recv, from, scope);
        }
        if (target && target.type === 'identifier' && recv) {
          const recvExpr: Expr = isTypeNode(recv) ? { k: 'cast', type: typeTextOf(recv) } : this.exprOf(recv, scope);
          this.refs.push({ kind: 'methodRef', name: target.text, line: target.startPosition.row, col: target.startPosition.column, from, expr: { k: 'call', recv: recvExpr, name: target.text, args: [] } });
        }
        return;
      }
      case 'identifier': {
        if (!scope.lookup(node.text)) {
          this.refs.push({ kind: 'name', name: node.text, line: node.startPosition.row, col: node.startPosition.column, from, expr: this.exprOf(node, scope) });
        }
        return;
      }
      case 'type_identifier':
      case 'scoped_type_identifier':
      case 'generic_type':
      case 'array_type':
        this.typeRefs(node, from);
        return;
      case 'cast_expression': {
        for (const c of node.namedChildren) {
          if (!c) continue;
          if (same(c, node.childForFieldName('value'))) this.walk(c, from, scope);
          else this.typeRefs(c, from);
        }
        return;
      }
      case 'class_literal': {
        const t = node.namedChildren[0];
        if (t) this.walkAsTypeName(t, from);
        return;
      }
      case 'marker_annotation':
      case 'annotation':
        this.annotationRefs([node], from, scope);
        return;
      default:
        if (TYPE_KINDS[node.type]) {
          const owner = this.enclosingTypeIdx(from);
          this.visitType(node, owner, owner >= 0 ? this.symbols[owner].id : this.pkg, true, scope);
          return;
        }
        for (const c of node.namedChildren) if (c) this.walk(c, from, scope);
    }
  }

  /** `Foo.class`, `Outer.this`: the identifiers are type names. */
  private walkAsTypeName(node: SyntaxNode, from: number): void {
    if (node.type === 'identifier') this.refs.push({ kind: 'type', name: node.text, type: node.text, line: node.startPosition.row, col: node.startPosition.column, from });
    else if (node.type === 'field_access' || node.type === 'scoped_identifier') {
      const obj = node.childForFieldName('object') ?? node.childForFieldName('scope');
      const f = node.childForFieldName('field') ?? node.childForFieldName('name');
      if (obj) this.walkAsTypeName(obj, from);
      if (f) this.refs.push({ kind: 'type', name: f.text, type: node.text.replace(/\s+/g, ''), line: f.startPosition.row, col: f.startPosition.column, from });
    } else this.typeRefs(node, from);
  }

  private enclosingTypeIdx(from: number): number {
    let i = from;
    while (i >= 0 && !TYPE_KINDS[kindToNodeType(this.symbols[i].kind)]) i = this.symbols[i].parent;
    return i;
  }

  private ref(kind: RefKind, nameNode: SyntaxNode, from: number, expr: Expr): void {
    this.refs.push({ kind, name: nameNode.text, line: nameNode.startPosition.row, col: nameNode.startPosition.column, from, expr });
  }

  /** The expression's shape for typing. Cached per node so chains share sub-expressions. */
  private exprOf(node: SyntaxNode, scope: Scope): Expr {
    const cached = this.exprCache.get(node.id);
    if (cached) return cached;
    const e = this.computeExpr(node, scope);
    this.exprCache.set(node.id, e);
    return e;
  }

  private computeExpr(node: SyntaxNode, scope: Scope): Expr {
    const lit = LITERAL_TYPES[node.type];
    if (lit) return { k: 'lit', type: lit };
    switch (node.type) {
      case 'identifier':
        return scope.lookup(node.text) ?? { k: 'name', name: node.text, line: node.startPosition.row, col: node.startPosition.column };
      case 'this':
        return { k: 'this' };
      case 'super':
        return { k: 'super' };
      case 'parenthesized_expression': {
        const inner = node.namedChildren[0];
        return inner ? this.exprOf(inner, scope) : { k: 'unknown' };
      }
      case 'field_access': {
        const obj = node.childForFieldName('object');
        const field = node.childForFieldName('field');
        if (!obj || !field) return { k: 'unknown' };
        if (field.type === 'this') return { k: 'qualThis', type: obj.text.replace(/\s+/g, '') };
        return { k: 'field', recv: this.exprOf(obj, scope), name: field.text };
      }
      case 'method_invocation': {
        const obj = node.childForFieldName('object');
        const name = node.childForFieldName('name');
        const args = node.childForFieldName('arguments');
        return {
          k: 'call', recv: obj ? this.exprOf(obj, scope) : undefined, name: name?.text ?? '',
          args: args ? args.namedChildren.filter((a): a is SyntaxNode => !!a).map((a) => this.exprOf(a, scope)) : [],
        };
      }
      case 'object_creation_expression': {
        const t = node.childForFieldName('type');
        const args = node.childForFieldName('arguments');
        return { k: 'new', type: typeTextOf(t), args: args ? args.namedChildren.filter((a): a is SyntaxNode => !!a).map((a) => this.exprOf(a, scope)) : [] };
      }
      case 'array_creation_expression': {
        const t = node.childForFieldName('type');
        const dims = (node.text.match(/\[/g) ?? []).length;
        return { k: 'cast', type: typeTextOf(t) + '[]'.repeat(Math.max(1, dims)) };
      }
      case 'cast_expression':
        return { k: 'cast', type: typeTextOf(node.childForFieldName('type')) };
      case 'array_access': {
        const arr = node.childForFieldName('array');
        return arr ? { k: 'index', recv: this.exprOf(arr, scope) } : { k: 'unknown' };
      }
      case 'ternary_expression': {
        const a = node.childForFieldName('consequence');
        const b = node.childForFieldName('alternative');
        return a && b ? { k: 'ternary', a: this.exprOf(a, scope), b: this.exprOf(b, scope) } : { k: 'unknown' };
      }
      case 'assignment_expression': {
        const left = node.childForFieldName('left');
        return left ? this.exprOf(left, scope) : { k: 'unknown' };
      }
      case 'class_literal':
        return { k: 'classLit' };
      case 'binary_expression': {
        const op = node.childForFieldName('operator')?.type ?? '';
        if (['==', '!=', '<', '>', '<=', '>=', '&&', '||'].includes(op)) return { k: 'lit', type: 'boolean' };
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const l = left ? this.exprOf(left, scope) : undefined;
        const r = right ? this.exprOf(right, scope) : undefined;
        if (op === '+' && ((l?.k === 'lit' && l.type === 'String') || (r?.k === 'lit' && r.type === 'String'))) return { k: 'lit', type: 'String' };
        if (l?.k === 'lit' && r?.k === 'lit' && l.type === r.type) return l;
        return { k: 'unknown' };
      }
      case 'unary_expression':
      case 'update_expression': {
        const inner = node.namedChildren[0];
        return inner ? this.exprOf(inner, scope) : { k: 'unknown' };
      }
      case 'instanceof_expression':
        return { k: 'lit', type: 'boolean' };
      default:
        return { k: 'unknown' };
    }
  }
}

/** Nodes compare by id, as web-tree-sitter's do (a SyntaxTree also hands out one object per node). */
function same(a: SyntaxNode | null | undefined, b: SyntaxNode | null | undefined): boolean {
  return !!a && !!b && a.id === b.id;
}

function kindToNodeType(kind: SymbolKind): string {
  switch (kind) {
    case 'class': return 'class_declaration';
    case 'interface': return 'interface_declaration';
    case 'enum': return 'enum_declaration';
    case 'record': return 'record_declaration';
    case 'annotation': return 'annotation_type_declaration';
    default: return '';
  }
}

function isTypeNode(node: SyntaxNode): boolean {
  return ['type_identifier', 'scoped_type_identifier', 'generic_type', 'array_type', 'integral_type', 'floating_point_type', 'boolean_type'].includes(node.type);
}

function lastTypeIdentifier(node: SyntaxNode): SyntaxNode | null {
  if (node.type === 'type_identifier') return node;
  if (node.type === 'generic_type') {
    const base = node.namedChildren.find((c) => c && c.type !== 'type_arguments');
    return base ? lastTypeIdentifier(base) : null;
  }
  if (node.type === 'scoped_type_identifier') {
    const kids = node.namedChildren.filter((c): c is SyntaxNode => !!c && c.type === 'type_identifier');
    return kids[kids.length - 1] ?? null;
  }
  return null;
}
