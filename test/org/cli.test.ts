// `needle publish` on the command line: bad arguments exit 2 with a reason, a publish prints its report.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers/repoRoot';
import { tempDir } from '../helpers/tempDir';

const cli = join(repoRoot(), 'dist/cli.js');
const example = join(repoRoot(), 'examples/acme-shop');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, 'publish', ...args], { encoding: 'utf8', env: { ...process.env, NEEDLE_ORG_INDEX: '' } });

describe('needle publish (CLI)', () => {
  it('refuses bad arguments with exit status 2 and a reason', () => {
    const noDb = run(example);
    assert.equal(noDb.status, 2);
    assert.match(noDb.stderr, /--db .* is required/);
    const label = run(example, '--db', tempDir('needle-org-cli-'), '--visibility', 'not a label');
    assert.equal(label.status, 2);
    assert.match(label.stderr, /visibility label must be/);
    const password = run(example, '--db', 'postgres://needle:secret@127.0.0.1/needle');
    assert.equal(password.status, 2);
    assert.match(password.stderr, /must not contain a password/);
    assert.ok(!password.stderr.includes('secret@'), 'the password is not echoed');
  });

  it('publishes a workspace into a PGlite folder and reports what it wrote', () => {
    const db = tempDir('needle-org-cli-');
    const first = run(example, '--db', db, '--name', 'acme-shop', '--golden', '--json', '--no-cache');
    assert.equal(first.status, 0, first.stderr);
    const report = JSON.parse(first.stdout);
    assert.equal(report.repository, 'acme-shop');
    assert.ok(report.files >= 45 && report.changed === report.files, first.stdout);
    assert.ok(report.rowsWritten > 0);
  });
});
