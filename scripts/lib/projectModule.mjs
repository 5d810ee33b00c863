// One of the project's own TypeScript modules, compiled on the fly for the data-building scripts,
// so the rules they apply (identifier splitting, the zip and class-file readers) cannot drift from
// the server's. Only modules without relative imports load this way (a data: URL has no folder).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * @param {string} rel path from the repository root, e.g. 'server/src/deps/zip.ts'
 * @returns {Promise<any>} the module's exports
 */
export async function projectModule(rel) {
  const js = transformSync(readFileSync(join(root, rel), 'utf8'), { loader: 'ts', format: 'esm' }).code;
  return import('data:text/javascript;base64,' + Buffer.from(js).toString('base64'));
}
