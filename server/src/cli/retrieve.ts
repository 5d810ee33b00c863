// `needle retrieve <dir> --file <path> --line <n> --column <n> …`: indexes the folder (cache
// reused), runs one retrieval and prints it as text, JSON (the LSP result) or markdown.

import { hostPaths } from '../platform/paths';
import type { RetrievalMode } from '../../../shared/protocol';
import { Indexer } from '../index/indexer';
import { renderContext } from '../render/markdown';
import { defaultSettings, InvalidRequest, retrieveAt, uriOfPath } from '../service';
import { intFlag, UsageError, type ParsedArgs } from './args';
import { cacheDirOf, dependencySettingsOf, orgIndexOf } from './options';
import { orgTypeLoader } from '../org/library';
import { closeOrgConnections } from '../org/recall';

export async function runRetrieve(args: ParsedArgs, root: string): Promise<void> {
  const file = args.flags.get('file');
  if (typeof file !== 'string') throw new UsageError('--file is required');
  const line = intFlag(args, 'line', 1);
  const column = intFlag(args, 'column', 1);
  if (line === undefined || column === undefined) throw new UsageError('--line and --column are required (1-based)');
  const mode = args.flags.get('mode') ?? 'rcl';
  if (mode !== 'rcl' && mode !== 'similarity' && mode !== 'fixedK' && mode !== 'structural') throw new UsageError('--mode must be rcl, similarity, fixedK or structural');
  if (args.flags.has('json') && args.flags.has('markdown')) throw new UsageError('choose one of --json and --markdown');
  const query = args.flags.get('query');
  const budget = intFlag(args, 'budget', 1);
  const path = hostPaths.resolve(root, file);

  const orgIndex = orgIndexOf(args);
  const indexer = new Indexer({ cacheDir: cacheDirOf(args), dependencies: dependencySettingsOf(args), orgLibrary: orgIndex ? orgTypeLoader(orgIndex) : undefined });
  await indexer.addFolder(root);
  let result;
  try {
    result = await retrieveAt(indexer, {
      textDocument: { uri: uriOfPath(path) },
      position: { line: line - 1, character: column - 1 },
      query: typeof query === 'string' ? query : undefined,
      budgetTokens: budget,
      mode: mode as RetrievalMode,
    }, { ...defaultSettings(), orgIndex });
  } catch (e) {
    if (e instanceof InvalidRequest) throw new UsageError(e.message);
    throw e;
  } finally {
    await closeOrgConnections();
  }
  if (args.flags.has('json')) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  else process.stdout.write(renderContext(result, { roots: [root], origin: { uri: uriOfPath(path), line: line - 1 } }) + '\n');
}
