// Test helpers: small in-memory or on-disk Java workspaces stated inline, rust-analyzer style.
// A `$0` in one file marks the cursor; it is removed from the text and returned as a position.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hashText } from '../../server/src/index/files';
import { factsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { tempDir } from './tempDir';

export interface Fixture { root: string; files: Record<string, string>; cursor?: { path: string; line: number; character: number } }

/** Strips the `$0` marker and records where it was. */
export function fixture(files: Record<string, string>, root = '/ws'): Fixture {
  const out: Record<string, string> = {};
  let cursor: Fixture['cursor'];
  for (const [rel, text] of Object.entries(files)) {
    const at = text.indexOf('$0');
    if (at >= 0) {
      const before = text.slice(0, at).split('\n');
      cursor = { path: join(root, rel), line: before.length - 1, character: before[before.length - 1].length };
      out[rel] = text.slice(0, at) + text.slice(at + 2);
    } else out[rel] = text;
  }
  return { root, files: out, cursor };
}

/** Writes a fixture to a fresh temporary folder (for tests that need real files: ripgrep, watcher, LSP). */
export function writeFixture(files: Record<string, string>): Fixture {
  const root = tempDir('needle-test-');
  const f = fixture(files, root);
  for (const [rel, text] of Object.entries(f.files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return f;
}

export async function indexFixture(f: Fixture): Promise<WorkspaceIndex> {
  const index = new WorkspaceIndex();
  for (const [rel, text] of Object.entries(f.files)) {
    if (!rel.endsWith('.java')) continue;
    index.put(join(f.root, rel), f.root, hashText(text), await factsOfText(text));
  }
  index.resolveAll();
  return index;
}

/** `from -> to (kind)` lines for every edge out of symbols whose id starts with `fromPrefix`. */
export function edgesOf(index: WorkspaceIndex, fromPrefix: string): string[] {
  const out: string[] = [];
  for (const f of index.allFiles()) {
    for (const e of f.resolution?.edges ?? []) if (e.from.startsWith(fromPrefix)) out.push(`${e.kind} ${e.to}`);
  }
  return out.sort();
}

/** What a fixture file holds, by absolute path: the `textOf` the index's consumers take. */
export function fixtureTextOf(f: Fixture): (path: string) => string | undefined {
  return (p) => f.files[p.slice(f.root.length + 1)];
}
