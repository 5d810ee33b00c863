// Programs started through the spawn helper (platform/spawner.ts) give the output a direct spawn
// gives, can be killed, and survive the helper's death: a run it served starts again directly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { runProgram, spawnHelperPid, type RunningProgram } from '../../server/src/platform/spawner';

/** A node program printing `lines` numbered lines with a multi-byte character in each (pieces split mid-character are the risk). */
const printer = (lines: number, delayMs = 0) => [
  '-e',
  `const n = ${lines}; let i = 0; const step = () => { const out = []; for (let k = 0; k < 500 && i < n; k++, i++) out.push('line ' + i + ' é€𝄞'); process.stdout.write(out.join('\\n') + (i < n ? '\\n' : '\\n')); if (i < n) setTimeout(step, ${delayMs}); }; step();`,
];

function run(args: string[], onStart?: (p: RunningProgram) => void): Promise<{ text: string; restarts: number; error?: string }> {
  return new Promise((resolve) => {
    let text = '', restarts = 0;
    const p = runProgram(process.execPath, args, {
      data: (chunk) => { text += chunk; },
      close: () => resolve({ text, restarts }),
      error: (message) => resolve({ text, restarts, error: message }),
      restart: () => { text = ''; restarts++; },
    });
    onStart?.(p);
  });
}

test('spawner: output through the helper equals a direct spawn, for runs side by side', async () => {
  const args = printer(20_000);
  const direct = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
  assert.ok(direct.length > 200_000, 'output long enough to come in many pieces');
  const results = await Promise.all(Array.from({ length: 6 }, () => run(args)));
  assert.ok(spawnHelperPid(), 'the runs went through the helper');
  for (const r of results) { assert.equal(r.error, undefined); assert.equal(r.restarts, 0); assert.equal(r.text, direct); }
});

test('spawner: a killed run ends with close, before the program would have finished', async () => {
  const started = Date.now();
  let program: RunningProgram | undefined;
  const done = run(printer(1_000_000, 20), (p) => { program = p; });
  await new Promise((r) => setTimeout(r, 300));
  program!.kill();
  const r = await done;
  assert.equal(r.error, undefined);
  assert.ok(r.text.length > 0 && r.text.length < 1_000_000 * 10, 'part of the output');
  assert.ok(Date.now() - started < 20_000, 'ended by the kill');
});

test('spawner: a program that cannot start reports an error', async () => {
  const r = await new Promise<{ error?: string }>((resolve) => {
    runProgram('/nonexistent/needle-no-such-program', [], { data: () => {}, close: () => resolve({}), error: (message) => resolve({ error: message }), restart: () => {} });
  });
  assert.ok(r.error, 'an error, not a silent empty output');
});

test('spawner: runs the helper was serving when it died start again directly and complete', async () => {
  const args = printer(3_000, 30);
  const direct = spawnSync(process.execPath, args, { encoding: 'utf8' }).stdout;
  await run(['-e', '']); // the helper is up
  const pid = spawnHelperPid();
  assert.ok(pid, 'a helper runs');
  const pending = Promise.all([run(args), run(args)]);
  await new Promise((r) => setTimeout(r, 100));
  process.kill(pid!, 'SIGKILL');
  for (const r of await pending) {
    assert.equal(r.restarts, 1, 'started again once');
    assert.equal(r.text, direct, 'the whole output, as a direct spawn gives it');
  }
  // The next run forks a new helper.
  assert.equal((await run(args)).text, direct);
  assert.ok(spawnHelperPid() && spawnHelperPid() !== pid, 'a new helper');
});
