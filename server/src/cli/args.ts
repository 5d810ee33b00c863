// Command-line parsing: `needle <command> <dir> [--flag value]...`. Bad arguments throw
// UsageError, which main turns into exit status 2 with a one-line reason.

export class UsageError extends Error {}

export interface ParsedArgs { command: string; positional: string[]; flags: Map<string, string | true> }

const VALUE_FLAGS = new Set(['file', 'line', 'column', 'query', 'budget', 'mode', 'rounds', 'threshold', 'cache-dir', 'dependencies', 'internal-groups', 'maven-repo', 'db', 'name', 'commit', 'branch', 'visibility']);
const BOOLEAN_FLAGS = new Set(['json', 'markdown', 'no-cache', 'no-prepare', 'help', 'no-dependencies', 'use-mvn', 'golden']);

export function parseArgs(argv: string[]): ParsedArgs {
  const [command = 'help', ...rest] = argv;
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('--')) { positional.push(a); continue; }
    const name = a.slice(2);
    if (BOOLEAN_FLAGS.has(name)) { flags.set(name, true); continue; }
    if (!VALUE_FLAGS.has(name)) throw new UsageError(`unknown option --${name}`);
    const value = rest[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { command, positional, flags };
}

export function intFlag(args: ParsedArgs, name: string, min: number): number | undefined {
  const v = args.flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v === true || !Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}`);
  return n;
}
