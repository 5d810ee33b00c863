// The repository stands on its own: docs/protocol.md keeps in step with shared/protocol.ts, and no
// link or comment points outside the repository.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../helpers/repoRoot';

const ROOT = repoRoot();
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

/** Every property, method and command name shared/protocol.ts declares (comments stripped). */
function protocolNames(): string[] {
  const src = read('shared/protocol.ts').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const names = new Set<string>();
  for (const m of src.matchAll(/([A-Za-z_$][\w$]*)\??\s*:/g)) names.add(m[1]);
  for (const m of src.matchAll(/'((?:needle)[./][\w/]+)'/g)) names.add(m[1]);
  for (const m of src.matchAll(/export (?:interface|type) (\w+)/g)) names.add(m[1]);
  names.delete('stage'); // the index signature of timingsMs
  return [...names].sort();
}

test('docs/protocol.md names every request and result field of shared/protocol.ts', () => {
  const doc = read('docs/protocol.md');
  const names = protocolNames();
  assert.ok(names.length > 60, `found ${names.length} names`);
  for (const n of ['items', 'sourceLines', 'hidden', 'members', 'budgetTokens', 'needle/retrieveContext', 'CheckFinding']) assert.ok(names.includes(n), n);
  const missing = names.filter((n) => !new RegExp(`(^|[^\\w$])${n.replace(/[.$/]/g, '\\$&')}($|[^\\w$])`).test(doc));
  assert.deepEqual(missing, [], 'fields of shared/protocol.ts that docs/protocol.md does not mention');
});

/** Files in the repository (tracked or new, ignored ones aside). */
function repoFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\n').filter((f) => f && existsSync(join(ROOT, f)) && !/\.(png|wasm|jpg|vsix)$|^package-lock\.json$|^server\/data\//.test(f));
}

/** References to the documents the project was started from, which live outside the repository. */
const OUTSIDE = [/shared\/CONTRACT/, /CONTRACT\.md/, /STYLE\.md/, /seeds\//, /\/work\/shared/, /\b00[0-3]_[0-9a-f]{16}\b/, /\b00[0-3] §/, /arxiv\.org/i];

/** Whether a relative path on the line (`../…`) leads out of the repository from the file's folder. */
function escapes(file: string, line: string): boolean {
  for (const m of line.matchAll(/((?:\.\.\/)+)[\w.-]+/g)) {
    if (relative(ROOT, resolve(dirname(join(ROOT, file)), m[0])).startsWith('..')) return true;
  }
  return false;
}

test('no link or comment points outside the repository', () => {
  const offenders: string[] = [];
  for (const f of repoFiles()) {
    if (f === 'test/docs/docs.test.ts') continue;
    const text = readFileSync(join(ROOT, f), 'utf8');
    text.split('\n').forEach((line, i) => {
      for (const re of OUTSIDE) if (re.test(line)) offenders.push(`${f}:${i + 1}: ${line.trim()}`);
      if (escapes(f, line)) offenders.push(`${f}:${i + 1}: ${line.trim()}`);
    });
    if (!f.endsWith('.md')) continue;
    // Relative markdown links must resolve to a file inside the repository.
    for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;
      const abs = resolve(dirname(join(ROOT, f)), target);
      if (relative(ROOT, abs).startsWith('..') || !existsSync(abs)) offenders.push(`${f}: link ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the check catches what it is for', () => {
  const hits = (line: string, file = 'server/src/gate/x.ts') => OUTSIDE.some((re) => re.test(line)) || escapes(file, line);
  assert.ok(hits('see [`../shared/README.md`](../shared/README.md)', 'README.md'));
  assert.ok(hits('// the vetting rule of seeds/003 §4'));
  assert.ok(hits('// Stage 7 (003 §4 (7))'));
  assert.ok(!hits("import type { ContextItem } from '../../../shared/protocol';"));
});
