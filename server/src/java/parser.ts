// Loads web-tree-sitter and the Java grammar once per thread. The wasm files travel with the
// bundle (dist/); tests and scripts running from elsewhere fall back to node_modules.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Parser, Language, type Tree } from 'web-tree-sitter';

let ready: Promise<Parser> | undefined;
let loaded: Parser | undefined;
/**
 * The options object given to Parser.init: Emscripten makes it the wasm module, so once loaded it
 * also holds the module's exported functions (syntaxTree.ts calls the cursor ones directly).
 */
let wasmModule: Record<string, unknown> | undefined;

/** The parser once javaParser() has finished loading, for synchronous re-parses. */
export function parserIfLoaded(): Parser | undefined {
  return loaded;
}

/** The tree-sitter wasm module once javaParser() has loaded it. */
export function treeSitterModule(): Record<string, unknown> | undefined {
  return wasmModule;
}

function findFile(name: string, packageDir: string): string {
  const candidates = [
    join(__dirname, name),
    join(__dirname, '..', name),
    join(__dirname, '..', '..', 'dist', name),
    join(__dirname, '..', '..', 'node_modules', packageDir, name),
    join(__dirname, '..', '..', '..', 'node_modules', packageDir, name),
    join(process.cwd(), 'node_modules', packageDir, name),
  ];
  for (const c of candidates) if (existsSync(c)) return c;
  throw new Error(`needle: cannot find ${name} (looked in ${candidates.join(', ')})`);
}

export function javaParser(): Promise<Parser> {
  ready ??= (async () => {
    const runtime = findFile('tree-sitter.wasm', 'web-tree-sitter');
    const options = { locateFile: () => runtime };
    await Parser.init(options);
    wasmModule = options;
    const java = await Language.load(findFile('tree-sitter-java.wasm', 'tree-sitter-java'));
    const parser = new Parser();
    parser.setLanguage(java);
    loaded = parser;
    return parser;
  })();
  return ready;
}

export async function parseJava(text: string): Promise<Tree> {
  const parser = await javaParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error('needle: tree-sitter returned no tree');
  return tree;
}
