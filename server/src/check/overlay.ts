// A read-only view of the workspace symbol table in which one file holds proposed text: the
// file's indexed types are hidden and the proposed ones shown instead. The shared table is never
// mutated, so a check can run beside the index without disturbing it.

import type { FileFacts } from '../java/facts';
import { SymbolTable, type TypeInfo } from '../java/symbols';

export class OverlayTable {
  private local = new SymbolTable();

  constructor(private base: SymbolTable, private path: string, facts: FileFacts) {
    this.local.addFile(path, facts);
  }

  get packages(): Map<string, number> {
    return this.base.packages;
  }

  get epoch(): number {
    return this.base.epoch * 1000 + this.local.epoch;
  }

  private visible(t: TypeInfo | undefined): TypeInfo | undefined {
    return t && t.file !== this.path ? t : undefined;
  }

  type(id: string): TypeInfo | undefined {
    return this.local.type(id) ?? this.visible(this.base.type(id));
  }

  typesIn(file: string): TypeInfo[] {
    return file === this.path ? this.local.typesIn(file) : this.base.typesIn(file);
  }

  topLevelIn(pkg: string, name: string): TypeInfo | undefined {
    return this.local.topLevelIn(pkg, name) ?? this.visible(this.base.topLevelIn(pkg, name));
  }

  packageTypes(pkg: string): Map<string, string> | undefined {
    const a = this.base.packageTypes(pkg);
    const b = this.local.packageTypes(pkg);
    if (!b) return a;
    return new Map([...(a ?? []), ...b]);
  }

  isPackage(name: string): boolean {
    return this.base.isPackage(name) || this.local.isPackage(name);
  }

  typeCount(): number {
    return this.base.typeCount();
  }

  /** Typed as the table resolution expects; only the read methods above are used. */
  asTable(): SymbolTable {
    return this as unknown as SymbolTable;
  }
}
