// The workspace-wide symbol table that resolution reads: every type declared in any indexed
// file, with its members and where it lives. Built from FileFacts, updated file by file.

import type { FileFacts, SymbolFact } from './facts';

export interface TypeInfo {
  id: string;
  name: string;
  pkg: string;
  file: string;
  /** Index of the type's SymbolFact in its file's facts. */
  index: number;
  sym: SymbolFact;
  facts: FileFacts;
  /** Enclosing type id for nested, local and anonymous types. */
  outer?: string;
  /** Member types by simple name. */
  nested: Map<string, string>;
  /** Methods, constructors, fields and enum constants by simple name (constructors under '<init>'). */
  members: Map<string, number[]>;
}

export class SymbolTable {
  private byId = new Map<string, TypeInfo[]>();
  private bySimple = new Map<string, Set<string>>();
  private byPackage = new Map<string, Map<string, string>>();
  private fileTypes = new Map<string, TypeInfo[]>();
  /** Each file's package, counted even when the file declares no type (package-info.java, a half-typed buffer). */
  private filePackage = new Map<string, string>();
  readonly packages = new Map<string, number>();
  /** Bumped whenever a type's shape may have changed; caches keyed on it are dropped. */
  epoch = 0;

  addFile(file: string, facts: FileFacts): void {
    this.removeFile(file);
    const infos: TypeInfo[] = [];
    const typeIdx = new Map<number, TypeInfo>();
    facts.symbols.forEach((s, i) => {
      if (!isTypeKind(s.kind)) return;
      const outerIdx = enclosingTypeIndex(facts, s.parent);
      const info: TypeInfo = {
        id: s.id, name: s.name, pkg: facts.package, file, index: i, sym: s, facts,
        outer: outerIdx >= 0 ? facts.symbols[outerIdx].id : undefined,
        nested: new Map(), members: new Map(),
      };
      typeIdx.set(i, info);
      infos.push(info);
    });
    facts.symbols.forEach((s, i) => {
      if (s.parent < 0) return;
      const owner = typeIdx.get(s.parent);
      if (isTypeKind(s.kind)) {
        if (owner && !s.local && !s.anonymous) owner.nested.set(s.name, s.id);
        return;
      }
      if (!owner) return;
      const key = s.kind === 'constructor' ? '<init>' : s.name;
      const list = owner.members.get(key);
      if (list) list.push(i);
      else owner.members.set(key, [i]);
    });
    for (const info of infos) {
      let list = this.byId.get(info.id);
      if (!list) this.byId.set(info.id, (list = []));
      list.push(info);
      list.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
      if (!info.sym.local && !info.sym.anonymous) {
        let names = this.bySimple.get(info.name);
        if (!names) this.bySimple.set(info.name, (names = new Set()));
        names.add(info.id);
        if (info.sym.parent < 0) {
          let pkg = this.byPackage.get(info.pkg);
          if (!pkg) this.byPackage.set(info.pkg, (pkg = new Map()));
          if (!pkg.has(info.name)) pkg.set(info.name, info.id);
        }
      }
    }
    this.fileTypes.set(file, infos);
    this.filePackage.set(file, facts.package);
    this.countPackage(facts.package, +1);
    this.epoch++;
  }

  removeFile(file: string): void {
    const infos = this.fileTypes.get(file);
    if (!infos) return;
    this.fileTypes.delete(file);
    const pkg = this.filePackage.get(file) ?? '';
    this.filePackage.delete(file);
    for (const info of infos) {
      const list = this.byId.get(info.id)?.filter((t) => t !== info) ?? [];
      if (list.length) this.byId.set(info.id, list);
      else {
        this.byId.delete(info.id);
        this.bySimple.get(info.name)?.delete(info.id);
        const pkg = this.byPackage.get(info.pkg);
        if (pkg?.get(info.name) === info.id) pkg.delete(info.name);
      }
      // A duplicate declaration in another file may now take the package slot.
      const survivor = this.byId.get(info.id)?.[0];
      if (survivor && survivor.sym.parent < 0) {
        const pkg = this.byPackage.get(survivor.pkg);
        if (pkg && !pkg.has(survivor.name)) pkg.set(survivor.name, survivor.id);
      }
    }
    this.countPackage(pkg, -1);
    this.epoch++;
  }

  private countPackage(pkg: string, delta: number): void {
    const parts = pkg ? pkg.split('.') : [];
    for (let i = 1; i <= parts.length; i++) {
      const p = parts.slice(0, i).join('.');
      const n = (this.packages.get(p) ?? 0) + delta;
      if (n > 0) this.packages.set(p, n);
      else this.packages.delete(p);
    }
  }

  type(id: string): TypeInfo | undefined {
    return this.byId.get(id)?.[0];
  }

  typesIn(file: string): TypeInfo[] {
    return this.fileTypes.get(file) ?? [];
  }

  topLevelIn(pkg: string, name: string): TypeInfo | undefined {
    const id = this.byPackage.get(pkg)?.get(name);
    return id ? this.type(id) : undefined;
  }

  packageTypes(pkg: string): Map<string, string> | undefined {
    return this.byPackage.get(pkg);
  }

  isPackage(name: string): boolean {
    return this.packages.has(name);
  }

  typeCount(): number {
    return this.byId.size;
  }
}

export function isTypeKind(kind: string): boolean {
  return kind === 'class' || kind === 'interface' || kind === 'enum' || kind === 'record' || kind === 'annotation';
}

export function enclosingTypeIndex(facts: FileFacts, index: number): number {
  let i = index;
  while (i >= 0 && !isTypeKind(facts.symbols[i].kind)) i = facts.symbols[i].parent;
  return i;
}
