// `needle mcp [dir]`: serves the workspace (default: the current directory) to MCP clients over stdio.

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type ParsedArgs } from './args';
import { cacheDirOf, dependencySettingsOf, orgIndexOf } from './options';
import { runMcpServer } from '../mcp/server';
import { hostPaths } from '../platform/paths';

export async function runMcp(args: ParsedArgs): Promise<void> {
  const dir = args.positional[0] ?? '.';
  const root = hostPaths.canonical(resolve(dir));
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`not a directory: ${dir}`);
  await runMcpServer({ root, cacheDir: cacheDirOf(args), dependencies: dependencySettingsOf(args), settings: { orgIndex: orgIndexOf(args) } });
}
