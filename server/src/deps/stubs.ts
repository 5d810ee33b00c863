// Java source text for a compiled class without sources: its visible declarations, written as a
// Java file without bodies, so the index reads a jar's classes through the same extraction as
// workspace code (one extraction, one resolver) and an editor can open what retrieval shows.
// Generic signatures come from `Signature` attributes; constants from ConstantValue.

import { ACC, type ClassInfo, type FieldInfo, type MethodInfo } from './classFile';

/** Reads a nested class by internal name (`a/B$C`); undefined when the jar lacks it. */
export type ClassLookup = (internalName: string) => ClassInfo | undefined;

export function stubSource(top: ClassInfo, lookup: ClassLookup, origin: string): string {
  const pkg = packageOf(top.name);
  const names = new TypeNames(pkg);
  const body: string[] = [];
  writeClass(top, top.access, lookup, names, body, '');
  const out = [`// Declarations read by Needle from ${origin} (compiled class, no sources).`];
  if (pkg) out.push(`package ${pkg.replace(/\//g, '.')};`, '');
  const imports = names.imports();
  if (imports.length) out.push(...imports.map((i) => `import ${i};`), '');
  out.push(...body, '');
  return out.join('\n');
}

function packageOf(internal: string): string {
  const i = internal.lastIndexOf('/');
  return i < 0 ? '' : internal.slice(0, i);
}

/** Decides how a referenced class is written: imported simple name, or qualified on a clash. */
class TypeNames {
  private bySimple = new Map<string, string>();
  constructor(private pkg: string) {}

  /** `com/acme/Outer$Inner` -> `Outer.Inner` (importing com.acme.Outer) or the qualified name. */
  text(internal: string): string {
    const slash = internal.lastIndexOf('/');
    const pkg = slash < 0 ? '' : internal.slice(0, slash);
    const local = internal.slice(slash + 1);
    // `$` followed by a letter separates a member class; javac names anonymous classes `$1`.
    const parts = local.split(/\$(?=[A-Za-z_])/);
    const top = parts[0];
    const dotted = parts.join('.');
    if (pkg === this.pkg || pkg === 'java/lang') return dotted;
    const fqn = `${pkg.replace(/\//g, '.')}.${top}`;
    const taken = this.bySimple.get(top);
    if (taken === undefined) { this.bySimple.set(top, fqn); return dotted; }
    return taken === fqn ? dotted : `${pkg.replace(/\//g, '.')}.${dotted}`;
  }

  imports(): string[] {
    return [...this.bySimple.values()].sort();
  }
}

function modifiers(access: number, kind: 'class' | 'field' | 'method'): string {
  const m: string[] = [];
  if (access & ACC.PUBLIC) m.push('public');
  if (access & ACC.PROTECTED) m.push('protected');
  if (access & ACC.PRIVATE) m.push('private');
  if (access & ACC.STATIC) m.push('static');
  if (kind !== 'class' || !(access & ACC.INTERFACE)) {
    if (access & ACC.ABSTRACT && !(kind === 'class' && access & ACC.ENUM)) m.push('abstract');
    if (access & ACC.FINAL && !(kind === 'class' && access & ACC.ENUM)) m.push('final');
  }
  if (kind === 'field' && access & ACC.VOLATILE) m.push('volatile');
  if (kind === 'field' && access & ACC.TRANSIENT) m.push('transient');
  if (kind === 'method' && access & ACC.SYNCHRONIZED) m.push('synchronized');
  if (kind === 'method' && access & ACC.NATIVE) m.push('native');
  return m.length ? m.join(' ') + ' ' : '';
}

function annotationsText(list: string[], names: TypeNames): string {
  return list.filter((a) => !a.startsWith('jdk/internal/')).map((a) => `@${names.text(a)} `).join('');
}

/** Members a caller can see: nothing private or compiler-generated. */
function visible(access: number): boolean {
  return !(access & (ACC.PRIVATE | ACC.SYNTHETIC));
}

function writeClass(c: ClassInfo, access: number, lookup: ClassLookup, names: TypeNames, out: string[], indent: string): void {
  const simple = simpleNameOf(c);
  const isInterface = !!(c.access & ACC.INTERFACE);
  const isAnnotation = !!(c.access & ACC.ANNOTATION);
  const isEnum = !!(c.access & ACC.ENUM);
  const kind = isAnnotation ? '@interface' : isInterface ? 'interface' : isEnum ? 'enum' : 'class';
  let typeParams = '';
  let superText: string | undefined;
  let interfaces: string[] = c.interfaces.map((i) => names.text(i));
  if (c.signature) {
    const s = new SignatureReader(c.signature, names);
    typeParams = s.typeParams();
    const sup = s.fieldType();
    const its: string[] = [];
    while (!s.done()) its.push(s.fieldType());
    superText = sup;
    interfaces = its;
  } else if (c.superName) superText = names.text(c.superName);
  if (isAnnotation) interfaces = interfaces.filter((i) => i !== 'java.lang.annotation.Annotation' && i !== 'Annotation');
  const header = [`${indent}${annotationsText(c.annotations, names)}${modifiers(access, 'class')}${kind} ${simple}${typeParams}`];
  if (!isInterface && !isEnum && superText && superText !== 'Object') header.push(`extends ${superText}`);
  if (interfaces.length) header.push(`${isInterface ? 'extends' : 'implements'} ${interfaces.join(', ')}`);
  out.push(header.join(' ') + ' {');
  const inner = indent + '  ';
  if (isEnum) {
    const constants = c.fields.filter((f) => f.access & ACC.ENUM).map((f) => f.name);
    out.push(`${inner}${constants.join(', ')};`);
  }
  for (const f of c.fields) {
    if (!visible(f.access) || (isEnum && f.access & ACC.ENUM)) continue;
    out.push(inner + fieldText(f, names, isInterface));
  }
  const outerName = c.name.includes('$') ? c.name.slice(0, c.name.lastIndexOf('$')) : undefined;
  for (const m of c.methods) {
    if (!visible(m.access) || m.access & ACC.BRIDGE || m.name === '<clinit>') continue;
    if (isEnum && m.access & ACC.STATIC && (m.name === 'values' || m.name === 'valueOf')) continue;
    // A non-static member class's constructor takes its outer instance first (without a Signature).
    const innerCtor = m.name === '<init>' && !(access & ACC.STATIC) && !m.signature && outerName && !isInterface;
    out.push(inner + methodText(m, simple, names, isInterface, innerCtor ? outerName : undefined));
  }
  for (const ic of c.innerClasses) {
    if (ic.outer !== c.name || !ic.simpleName || !visible(ic.access)) continue;
    const nested = lookup(ic.inner);
    if (nested) writeClass(nested, ic.access, lookup, names, out, inner);
  }
  out.push(`${indent}}`);
}

function simpleNameOf(c: ClassInfo): string {
  const own = c.innerClasses.find((i) => i.inner === c.name)?.simpleName;
  if (own) return own;
  const local = c.name.slice(c.name.lastIndexOf('/') + 1);
  return local.slice(local.lastIndexOf('$') + 1);
}

function fieldText(f: FieldInfo, names: TypeNames, inInterface: boolean): string {
  const type = f.signature ? new SignatureReader(f.signature, names).fieldType() : new SignatureReader(f.descriptor, names).fieldType();
  const mods = inInterface ? '' : modifiers(f.access, 'field');
  return `${annotationsText(f.annotations, names)}${mods}${type} ${f.name}${f.constant ? ' = ' + constantText(f.constant, type) : ''};`;
}

function constantText(c: NonNullable<FieldInfo['constant']>, type: string): string {
  switch (c.k) {
    case 'string': return JSON.stringify(c.value);
    case 'long': return `${c.value}L`;
    case 'float': return Number.isFinite(c.value as number) ? `${c.value}f` : '0f';
    case 'double': return Number.isFinite(c.value as number) ? `${c.value}` : '0.0';
    case 'int':
      if (type === 'boolean') return c.value ? 'true' : 'false';
      if (type === 'char') return `(char) ${c.value}`;
      return `${c.value}`;
  }
}

function methodText(m: MethodInfo, owner: string, names: TypeNames, inInterface: boolean, dropOuter: string | undefined): string {
  const s = new SignatureReader(m.signature ?? m.descriptor, names);
  const typeParams = s.typeParams();
  const params = s.params();
  const ret = s.returnType();
  const throwsList: string[] = [];
  while (!s.done()) { s.expect('^'); throwsList.push(s.fieldType()); }
  if (!throwsList.length) for (const e of m.exceptions) throwsList.push(names.text(e));
  if (dropOuter && params.length) params.shift();
  const varargs = !!(m.access & ACC.VARARGS);
  const paramNames = (m.paramNames ?? []).slice(m.paramNames && dropOuter && m.paramNames.length > params.length ? 1 : 0);
  const paramText = params.map((p, i) => {
    const name = paramNames[i] || `arg${i}`;
    const t = varargs && i === params.length - 1 && p.endsWith('[]') ? p.slice(0, -2) + '...' : p;
    return `${t} ${name}`;
  }).join(', ');
  // In an interface, abstract and public are implied; default methods are the non-abstract instance ones.
  let mods = inInterface ? '' : modifiers(m.access, 'method');
  if (inInterface) {
    if (m.access & ACC.STATIC) mods = 'static ';
    else if (!(m.access & ACC.ABSTRACT)) mods = 'default ';
  }
  const annotations = annotationsText(m.annotations, names);
  const throwsText = throwsList.length ? ` throws ${throwsList.join(', ')}` : '';
  if (m.name === '<init>') return `${annotations}${mods}${owner}(${paramText})${throwsText} {}`;
  const tp = typeParams ? typeParams + ' ' : '';
  return `${annotations}${mods}${tp}${ret} ${m.name}(${paramText})${throwsText};`;
}

/** Reads descriptors and generic signatures (JVMS §4.7.9.1) into Java type text. */
class SignatureReader {
  private p = 0;
  constructor(private s: string, private names: TypeNames) {}

  done(): boolean { return this.p >= this.s.length; }
  expect(ch: string): void {
    if (this.s[this.p] !== ch) throw new Error(`signature ${this.s}: expected '${ch}' at ${this.p}`);
    this.p++;
  }

  typeParams(): string {
    if (this.s[this.p] !== '<') return '';
    this.p++;
    const out: string[] = [];
    while (this.s[this.p] !== '>') {
      const colon = this.s.indexOf(':', this.p);
      if (colon < 0) throw new Error(`signature ${this.s}: bad type parameter`);
      const name = this.s.slice(this.p, colon);
      this.p = colon;
      const bounds: string[] = [];
      while (this.s[this.p] === ':') {
        this.p++;
        if (this.s[this.p] === ':') continue; // empty class bound, an interface bound follows
        bounds.push(this.fieldType());
      }
      const shown = bounds.filter((b) => b !== 'Object');
      out.push(shown.length ? `${name} extends ${shown.join(' & ')}` : name);
    }
    this.p++;
    return `<${out.join(', ')}>`;
  }

  params(): string[] {
    this.expect('(');
    const out: string[] = [];
    while (this.s[this.p] !== ')') out.push(this.fieldType());
    this.p++;
    return out;
  }

  returnType(): string {
    if (this.s[this.p] === 'V') { this.p++; return 'void'; }
    return this.fieldType();
  }

  fieldType(): string {
    const ch = this.s[this.p++];
    switch (ch) {
      case 'B': return 'byte';
      case 'C': return 'char';
      case 'D': return 'double';
      case 'F': return 'float';
      case 'I': return 'int';
      case 'J': return 'long';
      case 'S': return 'short';
      case 'Z': return 'boolean';
      case 'V': return 'void';
      case '[': return this.fieldType() + '[]';
      case 'T': {
        const end = this.s.indexOf(';', this.p);
        const name = this.s.slice(this.p, end);
        this.p = end + 1;
        return name;
      }
      case 'L': return this.classType();
      default: throw new Error(`signature ${this.s}: unexpected '${ch}' at ${this.p - 1}`);
    }
  }

  /** After 'L': `pkg/Outer<args>.Inner<args>;` */
  private classType(): string {
    let internal = '';
    const segments: { args: string }[] = [];
    let args = '';
    for (;;) {
      const ch = this.s[this.p];
      if (ch === ';') { this.p++; break; }
      if (ch === '<') { args = this.typeArgs(); continue; }
      if (ch === '.') { segments.push({ args }); args = ''; internal += '$'; this.p++; continue; }
      if (ch === undefined) throw new Error(`signature ${this.s}: unterminated class type`);
      internal += ch;
      this.p++;
    }
    segments.push({ args });
    const text = this.names.text(internal).split('.');
    // Type arguments belong to the last segments (one per `.`-separated class of the signature).
    const tail = text.slice(text.length - segments.length);
    const head = text.slice(0, text.length - segments.length);
    return [...head, ...tail.map((t, i) => t + segments[i].args)].join('.');
  }

  private typeArgs(): string {
    this.expect('<');
    const out: string[] = [];
    while (this.s[this.p] !== '>') {
      const ch = this.s[this.p];
      if (ch === '*') { this.p++; out.push('?'); }
      else if (ch === '+') { this.p++; out.push(`? extends ${this.fieldType()}`); }
      else if (ch === '-') { this.p++; out.push(`? super ${this.fieldType()}`); }
      else out.push(this.fieldType());
    }
    this.p++;
    return `<${out.join(', ')}>`;
  }
}
