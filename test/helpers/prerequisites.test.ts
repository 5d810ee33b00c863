// The require-or-skip rule itself: a missing program skips outside CI and fails inside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executable, requires } from './prerequisites';

function withCI<T>(value: string | undefined, f: () => T): T {
  const saved = process.env.CI;
  if (value === undefined) delete process.env.CI; else process.env.CI = value;
  try { return f(); } finally { if (saved === undefined) delete process.env.CI; else process.env.CI = saved; }
}

const MISSING = executable('needle-no-such-program', 'needle-no-such-package');

test('prerequisites: a missing program skips with the Debian package outside CI', () => {
  const r = withCI(undefined, () => requires(MISSING));
  assert.match(String(r.skip), /needle-no-such-program.*apt-get install needle-no-such-package/);
  assert.throws(() => r.assertPresent(), /needle-no-such-package/);
});

test('prerequisites: with CI set a missing program is not skipped and fails', () => {
  const r = withCI('1', () => requires(MISSING));
  assert.equal(r.skip, false);
  assert.throws(() => withCI('1', () => r.assertPresent()), /required because CI is set/);
});

test('prerequisites: a present program neither skips nor fails', () => {
  const r = withCI('1', () => requires(executable('node', 'nodejs')));
  assert.equal(r.skip, false);
  r.assertPresent();
});
