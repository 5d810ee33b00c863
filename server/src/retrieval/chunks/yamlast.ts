// Thin layer over the `yaml` package: parse with source positions, never throw, and walk
// collections as (label, node, line span) entries. JSON is parsed by the same parser (it is YAML
// 1.2 flow syntax), so JSON OpenAPI files get positions too.

import { parseAllDocuments, isMap, isSeq, isScalar, isPair, isNode, type Document, type Node } from 'yaml';
import type { LineIndex } from './lines';

export type YamlDoc = Document.Parsed;

/** All documents of a YAML stream, or null when the parser reports an error (or throws). */
export function parseYaml(text: string): YamlDoc[] | null {
  try {
    const docs = parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false, strict: false });
    const list = Array.from(docs as Iterable<YamlDoc>);
    if (list.some((d) => d.errors.length > 0)) return null;
    return list;
  } catch {
    return null;
  }
}

/** The plain JavaScript value of a document, or undefined when it cannot be converted. */
export function toJs(doc: YamlDoc): unknown {
  try {
    return doc.toJS({ maxAliasCount: 10_000 });
  } catch {
    return undefined;
  }
}

export interface Entry {
  /** Map key as a string, or `[i]` for a sequence item. */
  label: string;
  /** True for sequence items. */
  indexed: boolean;
  /** The value node (null for `key:` with nothing after it). */
  value: Node | null;
  /** First line of the entry (its key, or the item) and last line of its value. */
  startLine: number;
  endLine: number;
}

export function keyString(key: unknown): string {
  if (isScalar(key)) return String(key.value);
  if (isNode(key)) return String(key.toJSON());
  return String(key);
}

function nodeStart(n: unknown): number | undefined {
  return isNode(n) && n.range ? n.range[0] : undefined;
}

/** Entries of a map or sequence node in source order, with their line spans. */
export function entriesOf(node: unknown, idx: LineIndex): Entry[] {
  const out: Entry[] = [];
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const value = isNode(pair.value) ? pair.value : null;
      const start = nodeStart(pair.key) ?? nodeStart(value);
      if (start === undefined) continue;
      const keyEnd = isNode(pair.key) && pair.key.range ? pair.key.range[1] : start + 1;
      const end = value?.range ? Math.max(value.range[1], keyEnd) : keyEnd;
      out.push({ label: keyString(pair.key), indexed: false, value, startLine: idx.lineOf(start), endLine: idx.lastLineBefore(end, start) });
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      if (!isNode(item) || !item.range) return;
      // A block sequence item starts at its '- ' marker, one or more characters before the node.
      const start = item.range[0];
      out.push({ label: `[${i}]`, indexed: true, value: item, startLine: idx.lineOf(start), endLine: idx.lastLineBefore(item.range[1], start) });
    });
  }
  return out;
}

/** The entry of a map whose key equals `key`. */
export function entry(node: unknown, key: string, idx: LineIndex): Entry | undefined {
  return entriesOf(node, idx).find((e) => !e.indexed && e.label === key);
}

export function isCollection(node: unknown): boolean {
  return isMap(node) || isSeq(node);
}

export function isYamlComment(line: string): boolean {
  return /^\s*#/.test(line);
}

/** Child keys (or a short scalar value) of a node, for descriptions. */
export function childKeys(node: unknown): string[] {
  if (isMap(node)) return node.items.filter(isPair).map((p) => keyString(p.key));
  if (isSeq(node)) {
    const names: string[] = [];
    for (const item of node.items) {
      if (isMap(item)) {
        const named = item.items.find((p) => isPair(p) && ['name', 'id', 'key'].includes(keyString(p.key)));
        if (named && isScalar(named.value)) names.push(String(named.value.value));
      } else if (isScalar(item)) names.push(String(item.value));
    }
    return names;
  }
  return [];
}

export { isMap, isSeq, isScalar };
