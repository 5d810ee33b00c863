// Plain data extracted from one Java file. Extraction (extract.ts) produces it without
// knowing any other file; resolution (resolve.ts) turns its references into edges
// against the whole workspace. Everything here must survive v8.serialize (persisted cache).

/** 0-based lines and UTF-16 columns, as LSP counts them. */
export interface Span { sl: number; sc: number; el: number; ec: number }

export type TypeKind = 'class' | 'interface' | 'enum' | 'record' | 'annotation';
export type MemberKind = 'method' | 'constructor' | 'field' | 'enumConstant';
export type SymbolKind = TypeKind | MemberKind;

export interface Param { name: string; type: string }
export interface TypeParam { name: string; bounds: string[] }

export interface SymbolFact {
  /** Unique within the workspace: `com.acme.Foo`, `com.acme.Foo#bar(String,int)`, `com.acme.Foo#count`. */
  id: string;
  kind: SymbolKind;
  name: string;
  /** Index of the containing symbol in the same file, -1 for top-level types. */
  parent: number;
  nameSpan: Span;
  span: Span;
  modifiers: string[];
  annotations: string[];
  javadoc?: string;
  // Types
  typeParams?: TypeParam[];
  superclass?: string;
  interfaces?: string[];
  anonymous?: boolean;
  /** Declared inside a method body (local or anonymous class). */
  local?: boolean;
  // Methods and constructors
  params?: Param[];
  varargs?: boolean;
  returnType?: string;
  throws?: string[];
  /**
   * Locals the body declares (variables, for-each and resource variables) and never uses after,
   * with their declared type text ('' for `var`), and the indexes of parameters it never uses;
   * absent when there are none. Work a body being written has set up and not yet used (gate/writtenHalf.ts).
   */
  unreadLocals?: Param[];
  unreadParams?: number[];
  // Fields and enum constants
  type?: string;
}

export interface ImportFact {
  /** `java.util.List`, `com.acme` (wildcard), `com.acme.Util.max` (static). */
  name: string;
  static: boolean;
  wildcard: boolean;
  line: number;
}

/**
 * An expression as far as the extractor can see it. Locals and parameters are already
 * replaced by their declared type text, so resolution needs no scope of its own.
 */
export type Expr =
  | { k: 'name'; name: string; line: number; col: number } // a bare identifier that is not a local
  | { k: 'local'; type: string | null; init?: Expr; dims?: number } // type null: `var`/lambda param; init gives its type
  | { k: 'this' }
  | { k: 'super' }
  | { k: 'qualThis'; type: string }                     // Outer.this
  | { k: 'field'; recv: Expr; name: string }
  | { k: 'ternary'; a: Expr; b: Expr }
  | { k: 'call'; recv?: Expr; name: string; args: Expr[] }
  | { k: 'new'; type: string; args: Expr[] }
  | { k: 'lit'; type: string }                          // int, long, double, float, boolean, char, String, null
  | { k: 'cast'; type: string }
  | { k: 'index'; recv: Expr }                          // a[i]
  | { k: 'classLit' }
  | { k: 'unknown' };

/**
 * call: `a.b(..)`; new: `new Foo(..)`; field: `a.f`; name: a bare identifier that may be a field,
 * a type or a package; type: an identifier in a type position; ctorCall: `this(..)`/`super(..)`;
 * methodRef: `Foo::bar`.
 */
export type RefKind = 'call' | 'new' | 'field' | 'name' | 'type' | 'ctorCall' | 'methodRef';

export interface RefFact {
  kind: RefKind;
  /** Method, field or type name as written (for `new`, the type's simple name). */
  name: string;
  line: number;
  col: number;
  /** Index of the enclosing member (or type, for header references) in `symbols`. */
  from: number;
  /** call/field/name/methodRef/ctorCall: the expression itself. */
  expr?: Expr;
  /** Type text for `type` and `new` references (qualified up to this identifier for `type`). */
  type?: string;
  /** Arguments of `new` and `ctorCall`. */
  args?: Expr[];
}

export interface FileFacts {
  package: string;
  imports: ImportFact[];
  symbols: SymbolFact[];
  /**
   * Reference sites. Only resolution reads them, so the index releases them after resolving
   * (`refsReleased`) and re-extracts them from the file's text when it must resolve again.
   */
  refs: RefFact[];
  refsReleased?: boolean;
  /** Whether tree-sitter found syntax errors (we still index what parses). */
  hasErrors: boolean;
  lineCount: number;
}
