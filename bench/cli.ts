// Shared by the benchmarks: command-line flags and the downloaded corpora under .cache/corpora
// (bench/corpora/fetch.mjs writes each corpus with a needle-corpus.json naming its source root).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DEFAULT_IMPORT_PROTOCOL, IMPORT_PROTOCOLS, type ImportProtocol } from './retrieval/tasks';

/**
 * `--help` or `-h`: print the benchmark's header comment, which is its usage, and stop. Without this
 * an unknown flag is ignored and `--help` would start a full run of many minutes.
 */
function printHelpIfAsked(): void {
  if (!process.argv.includes('--help') && !process.argv.includes('-h')) return;
  const script = basename(process.argv[1] ?? '').replace(/\.js$/, '.ts');
  const source = join(__dirname, '..', '..', 'bench', script);
  const header = existsSync(source) ? readFileSync(source, 'utf8').split('\n').filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('//'))) : [];
  process.stdout.write(header.length > 0 ? header.map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n' : `no usage found for ${script} (expected a header comment in ${source})\n`);
  process.exit(0);
}
printHelpIfAsked();

/** The value after `--name`, if given. */
export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Every value after a repeated flag (`--corpus a --corpus b`). */
export function args(name: string): string[] {
  return process.argv.flatMap((a, i) => (a === name && process.argv[i + 1] ? [process.argv[i + 1]] : []));
}

/**
 * `--imports masked|kept`: how masking treats the file's imports (retrieval/tasks.ts ImportProtocol).
 * masked, the default, blanks the imports only the hidden code used; kept is the old protocol.
 */
export function importProtocolArg(): ImportProtocol {
  const given = arg('--imports') ?? DEFAULT_IMPORT_PROTOCOL;
  if (!(IMPORT_PROTOCOLS as readonly string[]).includes(given)) throw new Error(`--imports ${given}: expected one of ${IMPORT_PROTOCOLS.join(', ')}`);
  return given as ImportProtocol;
}

export const CORPORA = join(process.cwd(), '.cache', 'corpora');

/**
 * The main source root of a corpus. A missing corpus is downloaded (`fetch`), reported as
 * undefined (`skip`: e.g. an -injected variant made by another script) or an error (`fail`).
 */
export function corpusSourceRoot(name: string, missing?: 'fetch' | 'fail'): string;
export function corpusSourceRoot(name: string, missing: 'skip'): string | undefined;
export function corpusSourceRoot(name: string, missing: 'fetch' | 'skip' | 'fail' = 'fetch'): string | undefined {
  const meta = join(CORPORA, name, 'needle-corpus.json');
  if (!existsSync(meta)) {
    if (missing === 'skip') return undefined;
    const fetchName = name.replace('jdk-java.base', 'jdk');
    if (missing === 'fail') throw new Error(`${name}: corpus missing (node bench/corpora/fetch.mjs ${fetchName})`);
    execFileSync(process.execPath, [join(process.cwd(), 'bench/corpora/fetch.mjs'), fetchName], { stdio: 'inherit' });
  }
  return join(CORPORA, name, JSON.parse(readFileSync(meta, 'utf8')).mainSourceRoot);
}
