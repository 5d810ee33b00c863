// Chunking of non-Java text files, dispatched by file name. Pure: path + text in, chunks out.
//
// Every chunk is a run of whole lines (0-based, inclusive) of `text.split('\n')`, with
// `chunk.text === lines.slice(startLine, endLine + 1).join('\n')`, aiming near 500 characters.
// Nothing here throws: input a chunker cannot parse falls back to windows of about 20 lines.

import type { Chunk } from './types';
import { LineIndex, lineWindows } from './lines';
import { chunkOpenApiDoc, isOpenApiDocs } from './openapi';
import { chunkProperties } from './properties';
import { chunkYamlDocs } from './yaml';
import { chunkMarkdown } from './markdown';
import { chunkXml } from './xml';
import { parseYaml } from './yamlast';

export type { Chunk } from './types';
export { chunkOpenApi, isOpenApi } from './openapi';
export { chunkProperties } from './properties';
export { chunkYaml } from './yaml';
export { chunkMarkdown } from './markdown';
export { chunkXml } from './xml';

/** Which chunker handles a file, by its name; undefined when none does. */
export function textFileType(path: string): 'yaml' | 'json' | 'properties' | 'markdown' | 'xml' | undefined {
  const name = path.replace(/^.*[\\/]/, '').toLowerCase();
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  switch (ext) {
    case 'yaml':
    case 'yml':
      return 'yaml';
    case 'json':
      return 'json';
    case 'properties':
      return 'properties';
    case 'md':
    case 'markdown':
      return 'markdown';
    case 'xml':
      return 'xml';
    default:
      return undefined;
  }
}

/** An OpenAPI key near the top of a file that does not parse. */
const OPENAPI_HINT = /^\s*\{?\s*["']?(openapi|swagger)["']?\s*:/m;

export function chunkTextFile(path: string, text: string): Chunk[] {
  const type = textFileType(path);
  if (!type) return [];
  const idx = new LineIndex(text);
  try {
    switch (type) {
      case 'yaml':
      case 'json': {
        const docs = parseYaml(text);
        if (!docs) {
          // Broken YAML is still worth windows; broken JSON only when it looks like an API spec.
          if (type === 'yaml') return lineWindows(path, idx, 'yaml');
          return OPENAPI_HINT.test(text.slice(0, 4000)) ? lineWindows(path, idx, 'openapi') : [];
        }
        if (isOpenApiDocs(docs)) return chunkOpenApiDoc(path, idx, docs[0]);
        // Plain JSON (package.json, data, lock files) is not chunked; only OpenAPI specs are.
        return type === 'yaml' ? chunkYamlDocs(path, idx, docs) : [];
      }
      case 'properties':
        return chunkProperties(path, text);
      case 'markdown':
        return chunkMarkdown(path, text);
      case 'xml':
        return chunkXml(path, text);
    }
  } catch {
    return lineWindows(path, idx, type === 'markdown' ? 'section' : type);
  }
  return [];
}
