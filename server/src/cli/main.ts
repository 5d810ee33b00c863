// `needle` on the command line (docs/protocol.md): index and retrieve. Exit 0 on success, 2 on bad
// arguments with a one-line reason, 1 on other failures.

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Indexer } from '../index/indexer';
import { prepareIndexer } from '../service';
import type { PreparedStep } from '../retrieval/prepare';
import { parseArgs, UsageError, type ParsedArgs } from './args';
import { cacheDirOf, dependencySettingsOf, orgIndexOf } from './options';
import { orgTypeLoader } from '../org/library';
import { closeOrgConnections } from '../org/recall';
import { runRetrieve } from './retrieve';
import { runMcp } from './mcp';
import { hostPaths } from '../platform/paths';
import { boundHeapGrowth } from '../platform/heapGrowth';
import { runPublish } from './publish';

const USAGE = `usage:
  needle index <dir> [--json] [--no-cache] [--no-prepare] [dependency options]
  needle retrieve <dir> --file <path> --line <n> --column <n> [--query <text>] [--budget <n>] [--mode rcl|similarity|fixedK] [--json | --markdown]
  needle mcp [dir] [--no-cache]     (an MCP server over stdio for coding agents)
  needle publish <dir> --db <postgres://… | folder> [--name <repo>] [--golden] [--visibility <label>] [--branch <b>] [--commit <sha>] [--json]
dependency options (index, retrieve, mcp): [--dependencies <globs>] [--internal-groups <prefixes>] [--maven-repo <dirs>] [--use-mvn] [--no-dependencies]
  [--org-index <postgres://… | folder>] (default NEEDLE_ORG_INDEX): types of other repositories from the organisation index`;

/** This process's CPU time so far, user and system read at one moment. */
function cpuMsNow(): number {
  const { user, system } = process.cpuUsage();
  return Math.round((user + system) / 1000);
}

function folderArg(args: ParsedArgs): string {
  const dir = args.positional[0];
  if (!dir) throw new UsageError('missing <dir>');
  const abs = hostPaths.canonical(resolve(dir));
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new UsageError(`not a directory: ${dir}`);
  return abs;
}

async function runIndex(args: ParsedArgs): Promise<void> {
  const root = folderArg(args);
  // Retrieval's structures are part of the index a server would be ready with (--no-prepare: the index alone).
  let prepared: PreparedStep[] = [];
  const prepare = args.flags.has('no-prepare') ? undefined : prepareIndexer({ done: (steps) => { prepared = steps; } });
  const orgIndex = orgIndexOf(args);
  const indexer = new Indexer({ cacheDir: cacheDirOf(args), dependencies: dependencySettingsOf(args), orgLibrary: orgIndex ? orgTypeLoader(orgIndex) : undefined, log: (m) => process.stderr.write(m + '\n'), prepare });
  const started = performance.now();
  await indexer.addFolder(root).finally(() => closeOrgConnections());
  const ms = performance.now() - started;
  const s = indexer.index.stats();
  const status = indexer.status();
  const report = {
    root, files: s.files, symbols: s.symbols, edges: s.edges, unresolved: s.unresolved, external: s.external,
    resolvedShare: Number(s.resolvedShare.toFixed(4)), timeMs: Math.round(ms),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024), skipped: status.skipped ?? [],
    dependencies: status.dependencies ?? [], dependencyLoad: indexer.dependencyLoad, org: status.org ?? [],
    prepare: prepared.map((p) => ({ name: p.name, ms: Math.round(p.ms) })),
    phases: Object.fromEntries(Object.entries(indexer.phases ?? {}).map(([k, v]) => [k, Math.round(v)])),
    phasesCpu: Object.fromEntries(Object.entries(indexer.phasesCpu ?? {}).map(([k, v]) => [k, Math.round(v)])),
    cpuMs: cpuMsNow(),
  };
  const dep = (d: (typeof report.dependencies)[number]) =>
    (d.module ? `    ${d.name}  ${d.source}${d.scope ? ' ' + d.scope : ''}, module ${d.module} (workspace code)` :
      `    ${d.name}  ${d.source}${d.scope ? ' ' + d.scope : ''}, ${d.internal ? 'internal' : 'public'}, ${d.sourcesFound ? 'sources' : 'no sources'}, ${d.typesLoaded} types`) +
    (d.via ? `, via ${d.via.join(' <- ')}` : '') + (d.problem ? `\n      not read: ${d.problem}` : '');
  if (args.flags.has('json')) { process.stdout.write(JSON.stringify(report, null, 2) + '\n'); return; }
  process.stdout.write(
    `${root}\n  files     ${report.files}\n  symbols   ${report.symbols}\n  edges     ${report.edges}\n` +
    `  resolved  ${(report.resolvedShare * 100).toFixed(1)} % of reference sites (${report.unresolved} unresolved)\n` +
    `  time      ${report.timeMs} ms\n  peak RSS  ${report.peakRssMB} MB\n` +
    (report.prepare.length ? `  prepared  ${report.prepare.map((p) => `${p.name} ${p.ms} ms`).join(', ')}\n` : '') +
    (report.dependencies.length ? `  dependencies ${report.dependencies.length} (${report.dependencyLoad?.jars ?? 0} jars read, ${report.dependencyLoad?.types ?? 0} types loaded in ${Math.round(report.dependencyLoad?.ms ?? 0)} ms)\n` + report.dependencies.map(dep).join('\n') + '\n' : '') +
    report.org.map((o) => `  org index ${o.skipped ?? `${o.types} types from ${o.repositories.join(', ') || 'no repository'} in ${o.ms} ms`}\n`).join('') +
    (report.skipped.length ? `  skipped   ${report.skipped.length}\n` + report.skipped.map((x) => `    ${x.path}: ${x.reason}`).join('\n') + '\n' : ''));
}

async function main(): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(process.argv.slice(2));
    if (args.command === 'help' || args.flags.has('help')) { process.stdout.write(USAGE + '\n'); return 0; }
    if (args.command === 'index') await runIndex(args);
    else if (args.command === 'retrieve') await runRetrieve(args, folderArg(args));
    else if (args.command === 'mcp') await runMcp(args);
    else if (args.command === 'publish') await runPublish(args, folderArg(args));
    else throw new UsageError(`unknown command ${args.command}`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) { process.stderr.write(`needle: ${e.message}\n${USAGE}\n`); return 2; }
    process.stderr.write(`needle: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

boundHeapGrowth();
main().then((code) => process.exit(code));
