// `needle publish <dir> --db <url-or-folder>`: indexes the folder and writes its derived facts into
// the organisation index (meant to run in CI after each merge). Prints what was written.

import { OrgDbError, openOrgDb } from '../org/db';
import { checkLabel, publishRepository } from '../org/publish';
import { UsageError, type ParsedArgs } from './args';
import { cacheDirOf } from './options';

function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export async function runPublish(args: ParsedArgs, root: string): Promise<void> {
  const target = stringFlag(args, 'db') ?? process.env.NEEDLE_ORG_INDEX;
  if (!target) throw new UsageError('--db <postgres://… URL or folder> is required (or set NEEDLE_ORG_INDEX)');
  const visibility = stringFlag(args, 'visibility');
  if (visibility !== undefined) {
    try { checkLabel(visibility); } catch (e) { throw new UsageError((e as Error).message); }
  }
  let db;
  try {
    db = await openOrgDb(target, { applicationName: 'needle publish' });
  } catch (e) {
    if (e instanceof OrgDbError) throw new UsageError(e.message);
    throw e;
  }
  try {
    const report = await publishRepository(db, root, {
      cacheDir: cacheDirOf(args),
      name: stringFlag(args, 'name'),
      commit: stringFlag(args, 'commit'),
      defaultBranch: stringFlag(args, 'branch'),
      golden: args.flags.has('golden'),
      visibility,
      log: (m) => process.stderr.write(m + '\n'),
    });
    if (args.flags.has('json')) { process.stdout.write(JSON.stringify(report, null, 2) + '\n'); return; }
    process.stdout.write(
      `${report.repository}\n  files     ${report.files} (${report.changed} written, ${report.removed} removed${report.metadataChanged ? ', metadata updated' : ''})\n` +
      `  rows      ${report.rowsWritten} in ${report.writeStatements} statements\n` +
      `  time      index ${Math.round(report.indexMs)} ms, write ${Math.round(report.writeMs)} ms\n`);
  } finally {
    await db.close();
  }
}
