// A private PostgreSQL cluster for integration tests: initdb in a temporary folder, the server
// listening only on a Unix socket in that folder (no TCP), trust authentication for roles the test
// creates. Run as the `postgres` (or `nobody`) user when the tests run as root, since initdb
// refuses root. Absent binaries skip the test outside CI and fail it in CI (`requires(POSTGRES)`).

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Prerequisite } from './prerequisites';
import { tempDir } from './tempDir';

export interface PgCluster {
  dir: string;
  /** A connection URL for `user` to database `needle` over the socket. */
  url(user: string): string;
  /** Runs SQL as the bootstrap superuser through psql; returns its output. */
  psql(sql: string): string;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  destroy(): void;
}

export const SUPERUSER = 'needle_admin';

function binDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : undefined;
}

/** A PostgreSQL server's binaries (Debian's layout), for `requires` (test/helpers/prerequisites.ts). */
export const POSTGRES: Prerequisite = {
  what: 'a PostgreSQL server (initdb, pg_ctl)',
  install: 'apt-get install postgresql',
  problem: () => (binDir() ? undefined : 'no /usr/lib/postgresql/<version>/bin/initdb'),
};

function runAsUser(): { uid: number; gid: number; name: string } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (r.status === 0 && g.status === 0) return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()), name };
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run initdb');
}

export function startCluster(): PgCluster {
  const bin = binDir()!;
  const dir = tempDir('needle-pg-');
  const as = runAsUser();
  if (as) { chmodSync(dir, 0o700); chownSync(dir, as.uid, as.gid); }
  const run = (exe: string, args: string[]) => {
    const cmd = as ? ['runuser', '-u', as.name, '--', join(bin, exe), ...args] : [join(bin, exe), ...args];
    return execFileSync(cmd[0], cmd.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const start = () => { run('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-k ${dir} -c listen_addresses='' -c fsync=off`, 'start']); };
  start();
  const psql = (sql: string, db = 'needle') => run('psql', ['-h', dir, '-U', SUPERUSER, '-d', db, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql]);
  psql('CREATE DATABASE needle', 'postgres');
  return {
    dir,
    url: (user) => `postgres://${user}@/needle?host=${encodeURIComponent(dir)}`,
    psql: (sql) => psql(sql),
    stop: (mode = 'fast') => { run('pg_ctl', ['-D', data, '-w', '-m', mode, 'stop']); },
    start,
    destroy: () => {
      try { run('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']); } catch { /* already stopped */ }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
