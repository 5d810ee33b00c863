// A reader of compiled Java class files (JVMS §4) for jars without sources: the declarations a
// caller can see — type, access flags, supertypes, fields (with ConstantValue), methods (with
// exceptions and MethodParameters names), generic `Signature` attributes, annotations by type
// name, and the InnerClasses table. Method bodies are never read. Anything malformed throws
// ClassFileError with a reason; the caller lists the class as skipped.

export class ClassFileError extends Error {}

/** Oldest and newest class-file major versions read (JDK 1.1 to Java 25). */
export const MIN_MAJOR = 45;
export const MAX_MAJOR = 69;

export const ACC = {
  PUBLIC: 0x0001, PRIVATE: 0x0002, PROTECTED: 0x0004, STATIC: 0x0008, FINAL: 0x0010, SYNCHRONIZED: 0x0020,
  VOLATILE: 0x0040, BRIDGE: 0x0040, TRANSIENT: 0x0080, VARARGS: 0x0080, NATIVE: 0x0100, INTERFACE: 0x0200,
  ABSTRACT: 0x0400, STRICT: 0x0800, SYNTHETIC: 0x1000, ANNOTATION: 0x2000, ENUM: 0x4000,
} as const;

export type ConstantValue = { k: 'int' | 'long' | 'float' | 'double'; value: number | bigint } | { k: 'string'; value: string };

export interface FieldInfo {
  access: number;
  name: string;
  descriptor: string;
  signature?: string;
  constant?: ConstantValue;
  annotations: string[];
}

export interface MethodInfo {
  access: number;
  name: string;
  descriptor: string;
  signature?: string;
  /** Internal names of declared exceptions. */
  exceptions: string[];
  /** From MethodParameters when compiled with -parameters. */
  paramNames?: string[];
  annotations: string[];
}

export interface InnerClassInfo {
  inner: string;
  outer?: string;
  simpleName?: string;
  access: number;
}

export interface ClassInfo {
  major: number;
  access: number;
  /** Internal name: `com/acme/Foo$Bar`. */
  name: string;
  superName?: string;
  interfaces: string[];
  signature?: string;
  fields: FieldInfo[];
  methods: MethodInfo[];
  innerClasses: InnerClassInfo[];
  /** Annotation types as descriptors' internal names (`com/acme/Internal`). */
  annotations: string[];
}

type Const =
  | { tag: 1; utf8: string }
  | { tag: 3 | 4; value: number }
  | { tag: 5 | 6; value: bigint | number }
  | { tag: 7; nameIndex: number }
  | { tag: 8; stringIndex: number }
  | { tag: number };

class Reader {
  p = 0;
  constructor(readonly d: Buffer) {}
  need(n: number): void {
    if (this.p + n > this.d.length) throw new ClassFileError(`truncated at byte ${this.p}`);
  }
  u1(): number { this.need(1); return this.d[this.p++]; }
  u2(): number { this.need(2); const v = this.d.readUInt16BE(this.p); this.p += 2; return v; }
  u4(): number { this.need(4); const v = this.d.readUInt32BE(this.p); this.p += 4; return v; }
  skip(n: number): void { this.need(n); this.p += n; }
}

export function readClassFile(data: Buffer): ClassInfo {
  const r = new Reader(data);
  if (r.u4() !== 0xcafebabe) throw new ClassFileError('not a class file (bad magic)');
  r.u2(); // minor
  const major = r.u2();
  if (major < MIN_MAJOR || major > MAX_MAJOR) throw new ClassFileError(`unknown class-file major version ${major} (read: ${MIN_MAJOR}–${MAX_MAJOR})`);
  const pool = readPool(r);
  const utf8 = (i: number): string => {
    const c = pool[i];
    if (!c || c.tag !== 1) throw new ClassFileError(`constant ${i} is not a UTF-8 string`);
    return (c as { utf8: string }).utf8;
  };
  const className = (i: number): string => {
    const c = pool[i];
    if (!c || c.tag !== 7) throw new ClassFileError(`constant ${i} is not a class`);
    return utf8((c as { nameIndex: number }).nameIndex);
  };
  const access = r.u2();
  const name = className(r.u2());
  const superIndex = r.u2();
  const superName = superIndex ? className(superIndex) : undefined;
  const interfaces: string[] = [];
  for (let n = r.u2(); n > 0; n--) interfaces.push(className(r.u2()));
  const info: ClassInfo = { major, access, name, superName, interfaces, fields: [], methods: [], innerClasses: [], annotations: [] };

  /** Reads an attribute table, handing each known attribute's body to `on`; the rest is skipped. */
  const attributes = (on: (attr: string, len: number) => boolean) => {
    for (let n = r.u2(); n > 0; n--) {
      const attr = utf8(r.u2());
      const len = r.u4();
      const end = r.p + len;
      r.need(len);
      if (!on(attr, len)) r.p = end;
      else if (r.p !== end) throw new ClassFileError(`attribute ${attr} has the wrong length`);
    }
  };
  const annotationsInto = (out: string[]) => {
    for (let n = r.u2(); n > 0; n--) out.push(annotation(r, utf8));
  };

  for (let n = r.u2(); n > 0; n--) {
    const f: FieldInfo = { access: r.u2(), name: utf8(r.u2()), descriptor: utf8(r.u2()), annotations: [] };
    attributes((attr) => {
      if (attr === 'Signature') { f.signature = utf8(r.u2()); return true; }
      if (attr === 'ConstantValue') { f.constant = constantValue(pool, r.u2(), utf8); return true; }
      if (attr === 'RuntimeVisibleAnnotations' || attr === 'RuntimeInvisibleAnnotations') { annotationsInto(f.annotations); return true; }
      return false;
    });
    info.fields.push(f);
  }
  for (let n = r.u2(); n > 0; n--) {
    const m: MethodInfo = { access: r.u2(), name: utf8(r.u2()), descriptor: utf8(r.u2()), exceptions: [], annotations: [] };
    attributes((attr) => {
      if (attr === 'Signature') { m.signature = utf8(r.u2()); return true; }
      if (attr === 'Exceptions') { for (let k = r.u2(); k > 0; k--) m.exceptions.push(className(r.u2())); return true; }
      if (attr === 'MethodParameters') {
        const names: string[] = [];
        for (let k = r.u1(); k > 0; k--) { const ni = r.u2(); r.u2(); names.push(ni ? utf8(ni) : ''); }
        m.paramNames = names;
        return true;
      }
      if (attr === 'RuntimeVisibleAnnotations' || attr === 'RuntimeInvisibleAnnotations') { annotationsInto(m.annotations); return true; }
      return false;
    });
    info.methods.push(m);
  }
  attributes((attr) => {
    if (attr === 'Signature') { info.signature = utf8(r.u2()); return true; }
    if (attr === 'InnerClasses') {
      for (let k = r.u2(); k > 0; k--) {
        const inner = className(r.u2());
        const outerIdx = r.u2();
        const nameIdx = r.u2();
        info.innerClasses.push({ inner, outer: outerIdx ? className(outerIdx) : undefined, simpleName: nameIdx ? utf8(nameIdx) : undefined, access: r.u2() });
      }
      return true;
    }
    if (attr === 'RuntimeVisibleAnnotations' || attr === 'RuntimeInvisibleAnnotations') { annotationsInto(info.annotations); return true; }
    return false;
  });
  return info;
}

function readPool(r: Reader): Const[] {
  const count = r.u2();
  const pool: Const[] = new Array(count);
  for (let i = 1; i < count; i++) {
    const tag = r.u1();
    switch (tag) {
      case 1: {
        const len = r.u2();
        r.need(len);
        pool[i] = { tag, utf8: modifiedUtf8(r.d, r.p, r.p + len) };
        r.p += len;
        break;
      }
      case 3: pool[i] = { tag, value: r.d.readInt32BE((r.need(4), r.p)) }; r.p += 4; break;
      case 4: pool[i] = { tag, value: r.d.readFloatBE((r.need(4), r.p)) }; r.p += 4; break;
      case 5: pool[i] = { tag, value: r.d.readBigInt64BE((r.need(8), r.p)) }; r.p += 8; i++; break;
      case 6: pool[i] = { tag, value: r.d.readDoubleBE((r.need(8), r.p)) }; r.p += 8; i++; break;
      case 7: pool[i] = { tag, nameIndex: r.u2() }; break;
      case 8: pool[i] = { tag, stringIndex: r.u2() }; break;
      case 16: case 19: case 20: r.skip(2); pool[i] = { tag }; break; // MethodType, Module, Package
      case 15: r.skip(3); pool[i] = { tag }; break; // MethodHandle
      case 9: case 10: case 11: case 12: case 17: case 18: r.skip(4); pool[i] = { tag }; break;
      default: throw new ClassFileError(`unknown constant-pool tag ${tag} at entry ${i}`);
    }
  }
  return pool;
}

/** Java's modified UTF-8 (JVMS §4.4.7): like UTF-8, with NUL as two bytes and supplementary characters as surrogate pairs. */
function modifiedUtf8(d: Buffer, start: number, end: number): string {
  let ascii = true;
  for (let i = start; i < end; i++) if (d[i] >= 0x80 || d[i] === 0) { ascii = false; break; }
  if (ascii) return d.toString('latin1', start, end);
  const codes: number[] = [];
  for (let i = start; i < end;) {
    const a = d[i++];
    if (a < 0x80) codes.push(a);
    else if ((a & 0xe0) === 0xc0) codes.push(((a & 0x1f) << 6) | (d[i++] & 0x3f));
    else { const b = d[i++], c = d[i++]; codes.push(((a & 0x0f) << 12) | ((b & 0x3f) << 6) | (c & 0x3f)); }
  }
  return String.fromCharCode(...codes);
}

function constantValue(pool: Const[], i: number, utf8: (i: number) => string): ConstantValue | undefined {
  const c = pool[i] as Const & { value?: number | bigint; stringIndex?: number };
  switch (c?.tag) {
    case 3: return { k: 'int', value: c.value! };
    case 4: return { k: 'float', value: c.value! };
    case 5: return { k: 'long', value: c.value! };
    case 6: return { k: 'double', value: c.value! };
    case 8: return { k: 'string', value: utf8(c.stringIndex!) };
    default: return undefined;
  }
}

/** One annotation: its type's internal name; element values are skipped. */
function annotation(r: Reader, utf8: (i: number) => string): string {
  const type = utf8(r.u2());
  for (let n = r.u2(); n > 0; n--) { r.u2(); elementValue(r); }
  return type.startsWith('L') && type.endsWith(';') ? type.slice(1, -1) : type;
}

function elementValue(r: Reader): void {
  const tag = String.fromCharCode(r.u1());
  if ('BCDFIJSZsc'.includes(tag)) r.skip(2);
  else if (tag === 'e') r.skip(4);
  else if (tag === '@') annotation(r, () => 'L;');
  else if (tag === '[') { for (let n = r.u2(); n > 0; n--) elementValue(r); }
  else throw new ClassFileError(`unknown annotation element tag '${tag}'`);
}
