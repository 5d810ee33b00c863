// A chunk is a contiguous run of whole lines of one file that can be shown alone.

export interface Chunk {
  /** Absolute file path. */
  path: string;
  /** 0-based, inclusive. */
  startLine: number;
  endLine: number;
  /** e.g. 'method', 'constructor', 'type-header', 'endpoint', 'properties', 'yaml', 'section', 'xml-element'. */
  kind: string;
  /** A stable human-readable name: symbol id, `GET /orders/{id}`, `spring.datasource`, a heading. */
  symbol?: string;
  /** Lines of context that make the chunk readable alone (package, class header, OpenAPI path...). */
  header?: string;
  /** The chunk's own lines, joined with '\n'. */
  text: string;
  /** Natural-language description used by description-to-description BM25 recall. */
  description?: string;
}
