// Checks proposed code (a method or a whole file, typically written by a model) against the
// index, exactly as indexed code is resolved: the proposal is spliced into the file's current
// text, parsed with the same extractor and resolved against the workspace table (with the file's
// own types replaced by the proposed ones). What it reports, deterministically and with ranges:
//   unknown-internal-api     a referenced internal-looking symbol that does not exist (a
//                            hallucinated API), with the closest real names;
//   no-matching-overload     the name exists on the receiver's type but no overload takes
//                            these arguments (or it is private elsewhere);
//   missing-import           a workspace type of that exact name exists but is not in scope;
//   copied-instruction-like  ≥ 3 lines copied verbatim from retrieved content flagged
//                            instruction-like (the vetting rule of The Needle and the Noise §4 (docs/method.md));
//   unused-surface           heavy dependency-surface symbols the proposal leaves unused
//                            (information only).

import type { ContextItem, Range } from '../../../shared/protocol';
import type { Expr, FileFacts, RefFact, SymbolFact } from '../java/facts';
import { qualifiedTypeIn, resolveFile, type Edge, type FileResolution } from '../java/resolve';
import { enclosingTypeIndex, isTypeKind, type TypeInfo } from '../java/symbols';
import { erasedSimpleName } from '../java/extract';
import { factsOfText } from '../index/parseFile';
import type { SymbolRef, WorkspaceIndex } from '../index/workspaceIndex';
import { dependencySurface, shortName } from '../gate/surface';
import { getLexicon } from '../gate/lexicon';
import { OverlayTable } from './overlay';
import { closeEnough, rankByDistance } from './distance';
import { copiedInstructionRuns } from './verbatim';

import type { CheckCodeResult, CheckFinding } from '../../../shared/protocol';
export type { CheckCodeResult, CheckFinding, FindingCode } from '../../../shared/protocol';

export interface CheckCodeRequest {
  /** Absolute path of the file the code belongs to (it may not exist yet in file mode). */
  path: string;
  /** The proposed code: a method or constructor (optionally with Javadoc/annotations) or a whole file. */
  code: string;
  /** Replace exactly this range of the file's current text (0-based) instead of locating the method. */
  range?: Range;
  /** 'auto' (default) tells a whole file from a member by its first declaration. */
  scope?: 'auto' | 'method' | 'file';
  /** Retrieved content the proposal may have seen (for the verbatim-copy rule). */
  retrieved?: ContextItem[];
}


/** Methods every object or enum has (resolved outside the workspace). */
const IMPLICIT_METHODS = new Set(['equals', 'hashCode', 'toString', 'getClass', 'notify', 'notifyAll', 'wait', 'clone', 'finalize',
  'values', 'valueOf', 'ordinal', 'name', 'compareTo', 'getDeclaringClass', 'describeConstable']);
/** Package roots that are never workspace code: a lowercase receiver starting with one is a qualified external name. */
const EXTERNAL_ROOTS = new Set(['java', 'javax', 'jdk', 'sun', 'com', 'org', 'net', 'io', 'kotlin', 'scala', 'android', 'lombok']);
const MAX_CANDIDATES = 5;
const SURFACE_UNUSED_WEIGHT = 0.5;

type Probe =
  | { k: 'int'; t: TypeInfo; isStatic: boolean }
  | { k: 'array' }
  | { k: 'ext' }
  | { k: 'pkg'; name: string }
  | { k: 'missing'; name: string }
  | { k: 'unknown' };

interface Placement { text: string; line: number; col: number; placement: CheckCodeResult['placement']; target?: SymbolRef }

/** At most this many equally good places are tried for a member proposed without a range. */
const MAX_PLACES = 4;

export async function checkCode(index: WorkspaceIndex, textOf: (path: string) => string | undefined, req: CheckCodeRequest): Promise<CheckCodeResult> {
  const current = textOf(req.path);
  // A member without a range may replace one of several same-named methods (`clear()` of LocalCache
  // and of its nested Segment): the code is checked in each and the place where it makes sense —
  // fewest errors, then the first in the file — is the one it was written for.
  let best: CheckCodeResult | undefined;
  let bestErrors = Infinity;
  for (const placed of await places(index, req, current)) {
    const r = new Checker(index, req, placed, await factsOfText(placed.text)).run();
    const errors = r.findings.filter((f) => f.severity === 'error').length;
    if (errors < bestErrors) { best = r; bestErrors = errors; }
    if (!errors) break;
  }
  return best!;
}

// ---- placing the proposal in its file ----

const FILE_START = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:package\s|import\s|(?:@\w+(?:\([^)]*\))?\s*)*(?:(?:public|protected|private|abstract|final|sealed|non-sealed|static|strictfp)\s+)*(?:class|interface|enum|record|@interface)\s+\w)/;

export function looksLikeFile(code: string): boolean {
  return FILE_START.test(code);
}

function offsetOf(text: string, line: number, col: number): number {
  let off = 0;
  for (let l = 0; l < line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  return Math.min(off + col, text.length);
}

function positionOf(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, col: before[before.length - 1].length };
}

/** Where the proposal goes, best first: one place, or each of several same-named methods it may replace equally well. */
async function places(index: WorkspaceIndex, req: CheckCodeRequest, current: string | undefined): Promise<Placement[]> {
  if (req.range) {
    const text = current ?? '';
    const a = offsetOf(text, req.range.start.line, req.range.start.character);
    const b = offsetOf(text, req.range.end.line, req.range.end.character);
    const at = positionOf(text, a);
    return [{ text: text.slice(0, a) + req.code + text.slice(Math.max(a, b)), line: at.line, col: at.col, placement: 'range' }];
  }
  const scope = req.scope ?? 'auto';
  if (scope === 'file' || current === undefined || (scope === 'auto' && looksLikeFile(req.code))) {
    return [{ text: req.code, line: 0, col: 0, placement: 'file' }];
  }
  // A member: find the method it replaces (same name, then same parameter types, then same arity).
  const wrapped = await factsOfText(`class __NeedleProposal__ {\n${req.code}\n}`);
  const proposed = wrapped.symbols.find((s) => s.parent === 0 && (s.kind === 'method' || s.kind === 'constructor'));
  const facts = index.file(req.path)?.facts ?? await factsOfText(current);
  let targets: number[] = [];
  if (proposed) {
    const sig = (s: SymbolFact) => (s.params ?? []).map((p) => erasedSimpleName(p.type)).join(',');
    const same = facts.symbols
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.kind === proposed.kind && !s.local && !s.anonymous && (proposed.kind === 'constructor' || s.name === proposed.name)
        && isTypeKind(facts.symbols[s.parent]?.kind ?? ''));
    const bySig = same.filter(({ s }) => sig(s) === sig(proposed));
    const byArity = same.filter(({ s }) => (s.params?.length ?? 0) === (proposed.params?.length ?? 0));
    targets = (bySig.length ? bySig : byArity.length ? byArity : same.slice(0, 1)).slice(0, MAX_PLACES).map((x) => x.i);
  }
  if (targets.length) return targets.map((t) => replacing(index, req, current, facts, t));
  return [newMember(req, current, facts)];
}

/** The file with the declaration at `target` replaced by the proposal. */
function replacing(index: WorkspaceIndex, req: CheckCodeRequest, current: string, facts: FileFacts, target: number): Placement {
  const s = facts.symbols[target];
  // Replace from the start of the declaration's first line (keeps the proposal's own indentation).
  let a = offsetOf(current, s.span.sl, s.span.sc);
  const lineStart = offsetOf(current, s.span.sl, 0);
  if (/^\s*$/.test(current.slice(lineStart, a))) a = lineStart;
  // A Javadoc right above the declaration is replaced too when the proposal brings its own.
  if (/^\s*\/\*\*/.test(req.code)) {
    const above = current.slice(0, a);
    const m = /\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*$/.exec(above);
    if (m) a = offsetOf(current, positionOf(current, m.index).line, 0);
  }
  const b = offsetOf(current, s.span.el, s.span.ec);
  const at = positionOf(current, a);
  const ref = index.symbol(s.id);
  return { text: current.slice(0, a) + req.code + current.slice(b), line: at.line, col: at.col, placement: 'method', target: ref && ref.file.path === req.path ? ref : undefined };
}

/** A new member: before the closing brace of the file's main top-level type. */
function newMember(req: CheckCodeRequest, current: string, facts: FileFacts): Placement {
  const base = req.path.replace(/^.*[\\/]/, '').replace(/\.java$/, '');
  const tops = facts.symbols.filter((s) => s.parent < 0 && isTypeKind(s.kind));
  const top = tops.find((s) => s.name === base) ?? tops[0];
  if (!top) return { text: current + '\n' + req.code, line: current.split('\n').length, col: 0, placement: 'new-member' };
  const close = offsetOf(current, top.span.el, top.span.ec) - 1;
  const insert = '\n' + req.code + '\n';
  const at = positionOf(current, close);
  return { text: current.slice(0, close) + insert + current.slice(close), line: at.line + 1, col: 0, placement: 'new-member' };
}

// ---- the checker ----

class Checker {
  private overlay: OverlayTable;
  private resolution!: FileResolution;
  private edgesAt = new Map<string, Edge[]>();
  private findings: CheckFinding[] = [];
  private endLine: number;
  private endCol: number;

  constructor(private index: WorkspaceIndex, private req: CheckCodeRequest, private placed: Placement, private facts: FileFacts) {
    this.overlay = new OverlayTable(index.table, req.path, facts);
    const codeLines = req.code.split('\n');
    this.endLine = placed.line + codeLines.length - 1;
    this.endCol = (codeLines.length === 1 ? placed.col : 0) + codeLines[codeLines.length - 1].length;
  }

  run(): CheckCodeResult {
    this.resolution = resolveFile(this.req.path, this.facts, this.overlay.asTable());
    for (const e of this.resolution.edges) {
      const k = `${e.line}:${e.col}`;
      const l = this.edgesAt.get(k);
      if (l) l.push(e); else this.edgesAt.set(k, [e]);
    }
    let references = 0;
    for (const ref of this.facts.refs) {
      if (!this.inside(ref.line, ref.col)) continue;
      references++;
      this.checkRef(ref);
    }
    if (this.placed.placement === 'file') this.checkImports();
    this.checkCopies();
    const surface = this.surface();
    const findings = dedupe(this.findings).sort(byRange);
    return { findings, placement: this.placed.placement, target: this.placed.target?.sym.id, references, surface, syntaxErrors: this.facts.hasErrors };
  }

  private inside(line: number, col: number): boolean {
    if (line < this.placed.line || line > this.endLine) return false;
    if (line === this.placed.line && col < this.placed.col) return false;
    if (line === this.endLine && col > this.endCol) return false;
    return true;
  }

  /** A position of the spliced file as a position of the proposed code. */
  private toCode(line: number, col: number): { line: number; character: number } {
    return { line: line - this.placed.line, character: line === this.placed.line ? col - this.placed.col : col };
  }

  private rangeAt(line: number, col: number, length: number): Range {
    const start = this.toCode(line, col);
    return { start, end: { line: start.line, character: start.character + length } };
  }

  private add(f: CheckFinding): void {
    const back = (p: { line: number; character: number }) => ({ line: p.line + this.placed.line, character: p.line === 0 ? p.character + this.placed.col : p.character });
    this.findings.push({ ...f, fileRange: { start: back(f.range.start), end: back(f.range.end) } });
  }

  // ---- reference sites ----

  private checkRef(ref: RefFact): void {
    const edges = this.edgesAt.get(`${ref.line}:${ref.col}`) ?? [];
    const range = this.rangeAt(ref.line, ref.col, ref.name.length);
    switch (ref.kind) {
      case 'call':
      case 'methodRef': {
        if (edges.some((e) => e.kind === ref.kind)) return;
        const e = ref.expr;
        if (e?.k !== 'call') return;
        if (e.recv) this.checkMember(ref, range, this.probe(e.recv, ref.from), 'method');
        else this.checkUnqualifiedCall(ref, range);
        return;
      }
      case 'field': {
        if (edges.length) return;
        const e = ref.expr;
        if (e?.k !== 'field') return;
        this.checkMember(ref, range, this.probe(e.recv, ref.from), 'field');
        return;
      }
      case 'new': {
        const edge = edges.find((e) => e.kind === 'new');
        if (edge) {
          if (!edge.to.includes('#')) this.checkConstructor(ref, range, edge.to);
          return;
        }
        if (this.unresolvedAt(ref)) this.checkTypeName(ref, range);
        return;
      }
      case 'type':
      case 'name':
        if (!edges.length && this.unresolvedAt(ref) && !this.isCaseLabel(ref)) this.checkTypeName(ref, range);
        return;
      default:
        return;
    }
  }

  private unresolvedAt(ref: RefFact): boolean {
    return this.resolution.unresolved.some((u) => u.line === ref.line && u.col === ref.col);
  }

  /** `case FOO:` / `case FOO ->`: an enum constant named by the switch's type, which resolution does not track. */
  private isCaseLabel(ref: RefFact): boolean {
    const line = this.placed.text.split('\n')[ref.line] ?? '';
    return /\bcase\b/.test(line.slice(0, ref.col)) && !/[:;]|->/.test(line.slice(line.lastIndexOf('case', ref.col), ref.col));
  }

  /** `recv.name(..)` or `recv.name`: the receiver's type is internal, so the member must exist there. */
  private checkMember(ref: RefFact, range: Range, recv: Probe, kind: 'method' | 'field'): void {
    if (recv.k === 'pkg') { this.checkPackageMember(ref, range, recv.name); return; }
    if (recv.k !== 'int') return;
    const h = this.hierarchy(recv.t);
    const types = h.types;
    const open = this.mayBeInherited(h, ref.name);
    const isRecordComponent = (s: SymbolFact) => s.modifiers.includes('record-component');
    const matches = (s: SymbolFact) => kind === 'method' ? s.kind === 'method' || isRecordComponent(s) : s.kind === 'field' || s.kind === 'enumConstant';
    const found: { t: TypeInfo; s: SymbolFact }[] = [];
    for (const t of types) for (const i of t.members.get(ref.name) ?? []) if (matches(t.facts.symbols[i])) found.push({ t, s: t.facts.symbols[i] });
    if (kind === 'field' && types.some((t) => t.nested.has(ref.name))) return;
    if (found.length) {
      if (kind === 'field') { this.checkAccess(ref, range, found, recv.t); return; }
      if (ref.kind === 'methodRef') return;
      const accessible = found.filter(({ t, s }) => t.file === this.req.path || !s.modifiers.includes('private'));
      if (!accessible.length) { this.checkAccess(ref, range, found, recv.t); return; }
      if (open) return; // an external supertype may declare more overloads
      const args = ref.expr?.k === 'call' ? ref.expr.args.length : 0;
      const overloads = accessible.map(({ s }) => s);
      // Resolution found the name but no overload of this arity (argument types only rank overloads).
      if (overloads.some((s) => (s.varargs ? args >= (s.params?.length ?? 0) - 1 : (s.params?.length ?? 0) === args) || isRecordComponent(s))) return;
      this.add({
        code: 'no-matching-overload', severity: 'error', range, name: ref.name, receiverType: recv.t.id,
        overloads: overloads.map((s) => s.id).sort(),
        message: `no overload of \`${shortName(recv.t.id)}.${ref.name}\` takes ${args} argument${args === 1 ? '' : 's'}; it has: ${overloads.map((s) => signatureOf(s)).sort().join(', ')}`,
      });
      return;
    }
    if (open) return; // an external supertype may declare it
    if (kind === 'method' && IMPLICIT_METHODS.has(ref.name)) return;
    if (kind === 'field' && ref.name === 'length') return;
    const candidates = this.candidatesFor(ref.name, types, kind);
    const what = kind === 'method' ? 'method' : 'field';
    this.add({
      code: 'unknown-internal-api', severity: 'error', range, name: ref.name, receiverType: recv.t.id, candidates,
      message: `\`${shortName(recv.t.id)}\` has no ${what} \`${ref.name}\`${candidates.length ? `; did you mean ${candidates.slice(0, 3).map((c) => '`' + displayName(c) + '`').join(', ')}?` : ''}`,
    });
  }

  private checkAccess(ref: RefFact, range: Range, found: { t: TypeInfo; s: SymbolFact }[], owner: TypeInfo): void {
    if (found.some(({ t, s }) => t.file === this.req.path || !s.modifiers.includes('private'))) return;
    this.add({
      code: 'no-matching-overload', severity: 'error', range, name: ref.name, receiverType: owner.id,
      overloads: found.map(({ s }) => s.id).sort(),
      message: `\`${shortName(owner.id)}.${ref.name}\` is private to ${found[0].t.file.replace(/^.*[\\/]/, '')}`,
    });
  }

  /** `a.b.Name` where `a.b` is a workspace package: the type must exist there. */
  private checkPackageMember(ref: RefFact, range: Range, pkg: string): void {
    const qualified = `${pkg}.${ref.name}`;
    if (this.overlay.isPackage(qualified) || this.index.isJarType(qualified)) return;
    if (!this.overlay.isPackage(pkg)) {
      // `orders.save(..)` with no `orders` in scope: an unknown name, if it looks like a workspace field.
      if (!pkg.includes('.') && !EXTERNAL_ROOTS.has(pkg)) this.checkBareName(ref, range, pkg);
      return;
    }
    if (!/^[A-Z]/.test(ref.name)) return;
    const types = [...(this.overlay.packageTypes(pkg)?.entries() ?? [])].map(([name, id]) => ({ name, id }));
    const candidates = rankByDistance(ref.name, types, (t) => t.name, (t) => t.id).filter((c) => closeEnough(ref.name, c.item.name)).slice(0, MAX_CANDIDATES).map((c) => c.item.id);
    this.add({
      code: 'unknown-internal-api', severity: 'error', range, name: ref.name, candidates,
      message: `package \`${pkg}\` has no type \`${ref.name}\`${candidates.length ? `; did you mean ${candidates.slice(0, 3).map((c) => '`' + c + '`').join(', ')}?` : ''}`,
    });
  }

  /** A receiver that is neither a local, a field nor a type: reported when a workspace field or type is a near miss. */
  private checkBareName(ref: RefFact, range: Range, name: string): void {
    const self = this.enclosingType(ref.from);
    if (!self) return;
    const { types, open, jdk } = this.hierarchy(self);
    if (open || jdk) return;
    const fields: SymbolFact[] = [];
    for (const t of types) for (const list of t.members.values()) for (const i of list) { const s = t.facts.symbols[i]; if (s.kind === 'field') fields.push(s); }
    const candidates = rankByDistance(name, fields, (s) => s.name, (s) => s.id).filter((c) => closeEnough(name, c.item.name)).slice(0, MAX_CANDIDATES).map((c) => c.item.id);
    if (!candidates.length) return;
    this.add({
      code: 'unknown-internal-api', severity: 'error', name,
      range: this.receiverRange(ref, name) ?? range, receiverType: self.id, candidates,
      message: `\`${name}\` is not a local, a field of \`${shortName(self.id)}\` or a type; did you mean ${candidates.slice(0, 3).map((c) => '`' + displayName(c) + '`').join(', ')}?`,
    });
  }

  /** Where a receiver name is written, searched backwards on the reference's line. */
  private receiverRange(ref: RefFact, name: string): Range | undefined {
    const lines = this.placed.text.split('\n');
    const line = lines[ref.line] ?? '';
    const at = line.lastIndexOf(name, ref.col);
    return at >= 0 ? this.rangeAt(ref.line, at, name.length) : undefined;
  }

  private checkUnqualifiedCall(ref: RefFact, range: Range): void {
    const args = ref.expr?.k === 'call' ? ref.expr.args.length : 0;
    // Static imports may bring the name from outside.
    if (this.facts.imports.some((i) => i.static && (i.wildcard || i.name.endsWith('.' + ref.name)))) return;
    const scopes: TypeInfo[] = [];
    for (let t = this.enclosingType(ref.from); t; t = t.outer ? this.overlay.type(t.outer) : undefined) scopes.push(t);
    if (!scopes.length) return;
    const all: TypeInfo[] = [];
    for (const t of scopes) {
      const h = this.hierarchy(t);
      const types = h.types;
      const open = this.mayBeInherited(h, ref.name);
      const found = types.flatMap((x) => (x.members.get(ref.name) ?? []).map((i) => x.facts.symbols[i])).filter((s) => s.kind === 'method');
      if (found.length) {
        if (ref.kind === 'methodRef' || open) return;
        if (found.some((s) => (s.varargs ? args >= (s.params?.length ?? 0) - 1 : (s.params?.length ?? 0) === args))) return;
        this.add({
          code: 'no-matching-overload', severity: 'error', range, name: ref.name, receiverType: t.id,
          overloads: found.map((s) => s.id).sort(),
          message: `no overload of \`${ref.name}\` in \`${shortName(t.id)}\` takes ${args} argument${args === 1 ? '' : 's'}; it has: ${found.map((s) => signatureOf(s)).sort().join(', ')}`,
        });
        return;
      }
      if (open) return;
      all.push(...types);
    }
    if (IMPLICIT_METHODS.has(ref.name)) return;
    const candidates = this.candidatesFor(ref.name, all, 'method');
    this.add({
      code: 'unknown-internal-api', severity: 'error', range, name: ref.name, receiverType: scopes[0].id, candidates,
      message: `no method \`${ref.name}\` is in scope in \`${shortName(scopes[0].id)}\`${candidates.length ? `; did you mean ${candidates.slice(0, 3).map((c) => '`' + displayName(c) + '`').join(', ')}?` : ''}`,
    });
  }

  private checkConstructor(ref: RefFact, range: Range, typeId: string): void {
    const t = this.overlay.type(typeId);
    if (!t) return;
    const ctors = (t.members.get('<init>') ?? []).map((i) => t.facts.symbols[i]);
    if (!ctors.length || t.sym.anonymous) return;
    const args = ref.args?.length ?? 0;
    if (ctors.some((s) => (s.varargs ? args >= (s.params?.length ?? 0) - 1 : (s.params?.length ?? 0) === args))) {
      // Arity fits but resolution picked none: a private constructor of another file.
      if (ctors.some((s) => t.file === this.req.path || !s.modifiers.includes('private'))) return;
    }
    this.add({
      code: 'no-matching-overload', severity: 'error', range, name: ref.name, receiverType: t.id,
      overloads: ctors.map((s) => s.id).sort(),
      message: `no accessible constructor of \`${shortName(t.id)}\` takes ${args} argument${args === 1 ? '' : 's'}; it has: ${ctors.map((s) => signatureOf(s)).sort().join(', ')}`,
    });
  }

  /** An unresolved type (or capitalised) name: reported when it is a near miss of a workspace type or a field in scope. */
  private checkTypeName(ref: RefFact, range: Range): void {
    const name = ref.name;
    const text = ref.type ?? name;
    const segs = text.replace(/<.*$/, '').split('.');
    if (segs.length > 1) {
      const pkg = segs.slice(0, -1).join('.');
      if (/^[a-z]/.test(segs[0]) && this.overlay.isPackage(pkg)) { this.checkPackageMember(ref, range, pkg); return; }
      if (/^[a-z]/.test(segs[0])) return;
    }
    if (!/^[A-Z]/.test(name)) return;
    // Explicitly imported from a workspace package that lacks it.
    const imp = this.facts.imports.find((i) => !i.static && !i.wildcard && i.name.endsWith('.' + name));
    if (imp) {
      const pkg = imp.name.slice(0, imp.name.length - name.length - 1);
      if (this.overlay.isPackage(pkg)) this.checkPackageMember(ref, range, pkg);
      return;
    }
    const candidates: { id: string; name: string }[] = [];
    for (const f of this.index.allFiles()) {
      if (f.path === this.req.path) continue;
      for (const s of f.facts.symbols) if (isTypeKind(s.kind) && !s.local && !s.anonymous) candidates.push({ id: s.id, name: s.name });
    }
    for (const s of this.facts.symbols) if (isTypeKind(s.kind) && !s.local && !s.anonymous) candidates.push({ id: s.id, name: s.name });
    if (ref.kind === 'name') {
      const self = this.enclosingType(ref.from);
      if (self) {
        const { types, open, jdk } = this.hierarchy(self);
        if (open || jdk) return;
        for (const t of types) for (const list of t.members.values()) for (const i of list) {
          const s = t.facts.symbols[i];
          if (s.kind === 'field' || s.kind === 'enumConstant') candidates.push({ id: s.id, name: s.name });
        }
      }
    }
    const exact = candidates.filter((c) => c.name === name && !c.id.includes('#')).map((c) => c.id).sort();
    if (exact.length && ref.kind !== 'name' || exact.length && /^[A-Z][a-z]/.test(name)) {
      this.add({
        code: 'missing-import', severity: 'error', range, name, candidates: exact.slice(0, MAX_CANDIDATES),
        message: `\`${name}\` is not imported; the workspace declares ${exact.slice(0, 3).map((c) => '`' + c + '`').join(', ')}`,
      });
      return;
    }
    const close = rankByDistance(name, candidates, (c) => c.name, (c) => c.id).filter((c) => c.item.name !== name && closeEnough(name, c.item.name));
    if (!close.length) return; // most likely a type from outside the workspace
    const ids = [...new Set(close.map((c) => c.item.id))].slice(0, MAX_CANDIDATES);
    this.add({
      code: 'unknown-internal-api', severity: 'error', range, name, candidates: ids,
      message: `\`${name}\` is not a type or name in scope; did you mean ${ids.slice(0, 3).map((c) => '`' + displayName(c) + '`').join(', ')}?`,
    });
  }

  /** Whole-file proposals: single-type imports from workspace packages must name existing types. */
  private checkImports(): void {
    for (const imp of this.facts.imports) {
      if (imp.wildcard) {
        if (!imp.static && !this.overlay.isPackage(imp.name) && this.isInternalPrefix(imp.name) && !this.qualified(imp.name)) {
          this.add({ code: 'unknown-internal-api', severity: 'error', range: this.lineRange(imp.line), name: imp.name, message: `no workspace package or type \`${imp.name}\`` });
        }
        continue;
      }
      const owner = imp.static ? imp.name.slice(0, imp.name.lastIndexOf('.')) : imp.name;
      const dot = owner.lastIndexOf('.');
      const pkg = owner.slice(0, dot);
      if (dot < 0 || this.qualified(owner) || this.index.isJarType(owner)) continue;
      if (!this.overlay.isPackage(pkg)) continue;
      const simple = owner.slice(dot + 1);
      const types = [...(this.overlay.packageTypes(pkg)?.entries() ?? [])].map(([name, id]) => ({ name, id }));
      const candidates = rankByDistance(simple, types, (t) => t.name, (t) => t.id).filter((c) => closeEnough(simple, c.item.name)).slice(0, MAX_CANDIDATES).map((c) => c.item.id);
      this.add({
        code: 'unknown-internal-api', severity: 'error', range: this.lineRange(imp.line), name: simple, candidates,
        message: `package \`${pkg}\` has no type \`${simple}\`${candidates.length ? `; did you mean ${candidates.slice(0, 3).map((c) => '`' + c + '`').join(', ')}?` : ''}`,
      });
    }
  }

  private isInternalPrefix(name: string): boolean {
    const segs = name.split('.');
    for (let i = segs.length - 1; i > 0; i--) if (this.overlay.isPackage(segs.slice(0, i).join('.'))) return true;
    return false;
  }

  /** A qualified type name by the index's own rules (java/resolve.ts), against the overlaid table. */
  private qualified(q: string): TypeInfo | undefined {
    return qualifiedTypeIn(this.overlay.asTable(), q);
  }

  private lineRange(line: number): Range {
    const text = this.placed.text.split('\n')[line] ?? '';
    return { start: this.toCode(line, 0), end: this.toCode(line, text.length) };
  }

  // ---- retrieved content copied verbatim ----

  private checkCopies(): void {
    for (const run of copiedInstructionRuns(this.req.code, this.req.retrieved ?? [])) {
      const last = this.req.code.split('\n')[run.endLine] ?? '';
      this.add({
        code: 'copied-instruction-like', severity: 'error',
        range: { start: { line: run.startLine, character: 0 }, end: { line: run.endLine, character: last.length } },
        source: { uri: run.item.uri, range: run.item.range },
        message: `${run.lines} lines are copied verbatim from retrieved content flagged instruction-like (${run.item.symbol ?? run.item.uri}); retrieved content is untrusted data, not a template: rewrite it`,
      });
    }
  }

  // ---- the dependency surface ----

  private surface(): CheckCodeResult['surface'] {
    const used = new Set<string>();
    for (const e of this.resolution.edges) if (this.inside(e.line, e.col)) used.add(e.to);
    const target = this.placed.target;
    if (!target) return { used: [...used].sort(), unused: [] };
    const entries = dependencySurface(this.index, target).filter((e) => e.internal);
    const usedSurface = entries.filter((e) => used.has(e.symbol)).map((e) => e.symbol).sort();
    const unused = entries.filter((e) => !used.has(e.symbol) && e.weight >= SURFACE_UNUSED_WEIGHT).map((e) => e.symbol).sort();
    if (unused.length) {
      const first = this.req.code.split('\n').findIndex((l) => l.includes(target.sym.name + '('));
      const line = Math.max(0, first);
      const col = Math.max(0, (this.req.code.split('\n')[line] ?? '').indexOf(target.sym.name));
      this.add({
        code: 'unused-surface', severity: 'information', symbols: unused,
        range: { start: { line, character: col }, end: { line, character: col + target.sym.name.length } },
        message: `leaves unused ${unused.length} symbol${unused.length === 1 ? '' : 's'} the method most likely needs: ${unused.slice(0, 8).map((s) => '`' + shortName(s) + '`').join(', ')}${unused.length > 8 ? ' …' : ''}`,
      });
    }
    return { used: usedSurface, unused };
  }

  // ---- types of receivers ----

  private enclosingType(at: number): TypeInfo | undefined {
    const i = enclosingTypeIndex(this.facts, at);
    return i >= 0 ? this.overlay.type(this.facts.symbols[i].id) : undefined;
  }

  private resolveProbe(file: string, facts: FileFacts, ref: RefFact): FileResolution {
    return resolveFile(file, { ...facts, refs: [ref], refsReleased: false, imports: facts.imports }, this.overlay.asTable());
  }

  /** Written type text seen from symbol `at` of a file. */
  private probeType(text: string, file: string, facts: FileFacts, at: number): Probe {
    if (/\[|\.\.\./.test(text)) return { k: 'array' };
    const simple = erasedSimpleName(text).split('.').pop() ?? text;
    const r = this.resolveProbe(file, facts, { kind: 'type', name: simple, type: text, line: -1, col: -1, from: at });
    const e = r.edges.toArray().find((x) => x.kind === 'type');
    if (e) { const t = this.overlay.type(e.to); return t ? { k: 'int', t, isStatic: false } : { k: 'unknown' }; }
    return r.external ? { k: 'ext' } : { k: 'unknown' };
  }

  private probeCache = new Map<Expr, Probe>();

  /** The static type of an expression of the proposal (as far as resolution can tell). */
  private probe(e: Expr, from: number): Probe {
    const hit = this.probeCache.get(e);
    if (hit) return hit;
    this.probeCache.set(e, { k: 'unknown' });
    const r = this.computeProbe(e, from);
    this.probeCache.set(e, r);
    return r;
  }

  private computeProbe(e: Expr, from: number): Probe {
    const file = this.req.path, facts = this.facts;
    switch (e.k) {
      case 'this': { const t = this.enclosingType(from); return t ? { k: 'int', t, isStatic: false } : { k: 'unknown' }; }
      case 'super': {
        const t = this.enclosingType(from);
        if (!t?.sym.superclass) return { k: 'ext' };
        return this.probeType(t.sym.superclass, t.file, t.facts, t.sym.parent >= 0 ? t.sym.parent : t.index);
      }
      case 'qualThis': return this.probeType(e.type, file, facts, from);
      case 'local':
        if (e.dims) return { k: 'array' };
        if (e.type) return this.probeType(e.type, file, facts, from);
        return e.init ? this.probe(e.init, from) : { k: 'unknown' };
      case 'new': return this.probeType(e.type, file, facts, from);
      case 'cast': return this.probeType(e.type, file, facts, from);
      case 'lit': return { k: 'ext' };
      case 'name':
      case 'field': {
        const r = this.resolveProbe(file, facts, { kind: e.k === 'name' ? 'name' : 'field', name: e.name, line: -1, col: -1, from, expr: e });
        const edge = r.edges.length ? r.edges.at(0) : undefined;
        if (edge?.kind === 'type') { const t = this.overlay.type(edge.to); return t ? { k: 'int', t, isStatic: true } : { k: 'unknown' }; }
        if (edge?.kind === 'field') return this.typeOfMember(edge.to, (s) => s.type);
        if (r.unresolved.length) return { k: 'missing', name: e.name };
        if (r.external) return { k: 'ext' };
        const q = qualifiedText(e);
        return q ? { k: 'pkg', name: q } : { k: 'unknown' };
      }
      case 'call': {
        const r = this.resolveProbe(file, facts, { kind: 'call', name: e.name, line: -1, col: -1, from, expr: e });
        const edge = r.edges.length ? r.edges.at(0) : undefined;
        if (edge?.kind === 'call') return this.typeOfMember(edge.to, (s) => (s.modifiers.includes('record-component') ? s.type : s.returnType));
        return { k: 'unknown' };
      }
      default: return { k: 'unknown' };
    }
  }

  /** The declared type of a field or the return type of a method, by id, in its declaring file's context. */
  private typeOfMember(id: string, typeText: (s: SymbolFact) => string | undefined): Probe {
    const hash = id.indexOf('#');
    const owner = hash >= 0 ? this.overlay.type(id.slice(0, hash)) : undefined;
    if (!owner) return { k: 'unknown' };
    const idx = owner.facts.symbols.findIndex((s) => s.id === id);
    const sym = owner.facts.symbols[idx];
    const text = sym && typeText(sym);
    if (!text) return { k: 'unknown' };
    // Type variables of the owner or the method are not substituted here: treat as unknown.
    const base = erasedSimpleName(text);
    if (sym.typeParams?.some((p) => p.name === base)) return { k: 'unknown' };
    for (let o: TypeInfo | undefined = owner; o; o = o.outer ? this.overlay.type(o.outer) : undefined) if (o.sym.typeParams?.some((p) => p.name === base)) return { k: 'unknown' };
    return this.probeType(text, owner.file, owner.facts, idx);
  }

  /** A supertype written in a file that is a JDK type: imported from java.*, or a JDK name with no other source of types. */
  private isJdkType(text: string, facts: FileFacts): boolean {
    const bare = text.replace(/<.*$/s, '').trim();
    if (/^(java|javax)\./.test(bare)) return true;
    const head = bare.split('.')[0];
    const imp = facts.imports.find((i) => !i.static && !i.wildcard && i.name.endsWith('.' + head));
    if (imp) return /^(java|javax)\./.test(imp.name);
    if (!getLexicon().identifiers.has(head)) return false;
    return !facts.imports.some((i) => i.wildcard && !i.static && !/^(java|javax)\./.test(i.name) && !this.overlay.isPackage(i.name));
  }

  /** Whether a member name missing from the workspace hierarchy may still come from its external supertypes. */
  private mayBeInherited(h: { open: boolean; jdk: boolean }, name: string): boolean {
    return h.open || (h.jdk && (getLexicon().identifiers.get(name) ?? 0) > 0);
  }

  private hierarchyCache = new Map<string, { types: TypeInfo[]; open: boolean; jdk: boolean }>();

  /**
   * A type and its supertypes, breadth-first; `open` when an explicit supertype lies outside the
   * workspace and the JDK (then any member name may exist there), `jdk` when some lie in the JDK
   * (then only names the JDK uses may exist there: see mayBeInherited).
   */
  private hierarchy(start: TypeInfo): { types: TypeInfo[]; open: boolean; jdk: boolean } {
    const hit = this.hierarchyCache.get(start.id);
    if (hit) return hit;
    const types: TypeInfo[] = [];
    const seen = new Set<string>();
    let open = false, jdk = false;
    let level = [start];
    for (let depth = 0; level.length && depth < 50; depth++) {
      const next: TypeInfo[] = [];
      for (const t of level) {
        if (seen.has(t.id)) continue;
        seen.add(t.id);
        types.push(t);
        const at = t.sym.parent >= 0 ? t.sym.parent : t.index;
        for (const text of [...(t.sym.superclass ? [t.sym.superclass] : []), ...(t.sym.interfaces ?? [])]) {
          const p = this.probeType(text.replace(/<.*$/s, ''), t.file, t.facts, at);
          if (p.k === 'int') next.push(p.t);
          else if (this.isJdkType(text, t.facts)) jdk = true;
          else open = true;
        }
      }
      level = next;
    }
    const r = { types, open, jdk };
    this.hierarchyCache.set(start.id, r);
    return r;
  }

  // ---- candidates ----

  private memberNames?: { id: string; name: string; kind: string }[];

  /** Closest real names: members of the type and its supertypes first, then workspace-wide. */
  private candidatesFor(name: string, types: TypeInfo[], kind: 'method' | 'field'): string[] {
    const wanted = (s: SymbolFact) => (kind === 'method' ? s.kind === 'method' : s.kind === 'field' || s.kind === 'enumConstant');
    const own: { id: string; name: string }[] = [];
    for (const t of types) for (const list of t.members.values()) for (const i of list) {
      const s = t.facts.symbols[i];
      if (wanted(s)) own.push({ id: s.id, name: s.name });
    }
    const out: string[] = [];
    const ranked = rankByDistance(name, own, (c) => c.name, (c) => c.id);
    for (const c of ranked) if (closeEnough(name, c.item.name) && !out.includes(c.item.id)) out.push(c.item.id);
    if (out.length < MAX_CANDIDATES) {
      if (!this.memberNames) {
        this.memberNames = [];
        for (const f of this.index.allFiles()) {
          if (f.path === this.req.path) continue;
          for (const s of f.facts.symbols) if (!isTypeKind(s.kind) && s.kind !== 'constructor' && !s.modifiers.includes('private')) this.memberNames.push({ id: s.id, name: s.name, kind: s.kind });
        }
        this.memberNames.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      }
      const pool = this.memberNames.filter((m) => (kind === 'method' ? m.kind === 'method' : m.kind !== 'method') && closeEnough(name, m.name));
      for (const c of rankByDistance(name, pool, (m) => m.name, (m) => m.id)) {
        if (out.length >= MAX_CANDIDATES) break;
        if (!out.includes(c.item.id)) out.push(c.item.id);
      }
    }
    // Nothing close: still show what the type offers (nearest first).
    if (!out.length) for (const c of ranked.slice(0, 3)) out.push(c.item.id);
    return out.slice(0, MAX_CANDIDATES);
  }
}

/** `com.acme.Guard#requireText(String,String)` -> `Guard.requireText(String,String)`; types by simple name. */
export function displayName(id: string): string {
  const hash = id.indexOf('#');
  if (hash < 0) return id.split('.').pop() ?? id;
  const type = id.slice(0, hash).split('.').pop() ?? '';
  return `${type}.${id.slice(hash + 1)}`;
}

function qualifiedText(e: Expr): string | undefined {
  if (e.k === 'name') return e.name;
  if (e.k === 'field') { const r = qualifiedText(e.recv); return r ? `${r}.${e.name}` : undefined; }
  return undefined;
}

function signatureOf(s: SymbolFact): string {
  return `${s.kind === 'constructor' ? shortName(s.id).split('#')[0] : s.name}(${(s.params ?? []).map((p) => p.type).join(', ')})`;
}

function byRange(a: CheckFinding, b: CheckFinding): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
    || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) || ((a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : 0);
}

function dedupe(findings: CheckFinding[]): CheckFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const k = `${f.code}|${f.range.start.line}|${f.range.start.character}|${f.name ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
