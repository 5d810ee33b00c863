// Consistency at the Indexer level, with real files on disk: random sequences of editor edits
// (setDocument), saves, closes, deletes, renames and new files, delivered as the LSP layer and
// the watcher would; after each sequence the index equals a fresh Indexer on the same folder, and
// so do the retrieval's workspace-wide tables, which follow the index file by file (read after
// every step, so each step's update is incremental). Seeded; NEEDLE_FUZZ_INDEXER_SEQUENCES raises the count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Indexer } from '../../server/src/index/indexer';
import type { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { declarationsByName, directSubtypesOf, typesBySimpleName, usageCounts } from '../../server/src/retrieval/symbols';
import { corpusDump } from '../../server/src/retrieval/recall/similar';
import { descriptionRecall } from '../../server/src/retrieval/recall/descriptions';
import { globalPopular } from '../../server/src/retrieval/recall/graph';
import type { Query } from '../../server/src/retrieval/query';
import { choose, int, prng } from './lib';
import { tempDir } from '../helpers/tempDir';

const SEQUENCES = Number(process.env.NEEDLE_FUZZ_INDEXER_SEQUENCES ?? 30);
const STEPS = 14;
const PKGS = ['com.acme.a', 'com.acme.b'];
const NAMES = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Omega'];
const METHODS = ['run', 'load', 'save', 'find', 'size'];

function randomClass(r: () => number, pkg: string, name: string): string {
  const other = choose(r, NAMES), otherPkg = choose(r, PKGS);
  const imports = r() < 0.5 ? `import ${otherPkg}.${other};\n` : r() < 0.5 ? `import ${otherPkg}.*;\n` : '';
  const sup = r() < 0.3 && other !== name ? ` extends ${other}` : '';
  const methods = Array.from({ length: 1 + int(r, 3) }, () => {
    const arity = int(r, 2);
    const body = r() < 0.5 ? `new ${other}().${choose(r, METHODS)}();` : `${choose(r, METHODS)}(${arity ? 'null' : ''});`;
    return `  ${r() < 0.3 ? 'private' : 'public'} ${r() < 0.5 ? 'static ' : ''}void ${choose(r, METHODS)}(${arity ? `${other} x` : ''}) { ${body} }`;
  });
  // Sometimes broken: an editor buffer mid-typing.
  const tail = r() < 0.1 ? '\n  void half(' : '\n}\n';
  return `package ${pkg};\n${imports}public class ${name}${sup} {\n  int count;\n${methods.join('\n')}${tail}`;
}

/** Similar-code queries whose scores must match: they exercise N, df and the average length. */
const QUERIES = [['~run', 'count'], ['~load', '~save', 'x'], ['~find', 'Alpha', '~size', 'Beta']];

/**
 * The retrieval's workspace-wide tables as one canonical text (their maps are read by key, so
 * sorted here), with the similar-code corpus and its scores.
 */
function tables(ix: Indexer): string {
  const index: WorkspaceIndex = ix.index;
  const dump = (name: string, m: Map<string, unknown>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${name} ${k} ${JSON.stringify(v)}`);
  const described = [NAMES.map((n) => n.toLowerCase()), METHODS, ['alpha', 'run', 'save', 'size']]
    .map((words) => `described ${JSON.stringify([...descriptionRecall(index, { words } as unknown as Query)])}`);
  // The gate's subtype table (kept in step file by file) for every type, edges out of every declaration.
  const types = [...typesBySimpleName(index).values()].flat().sort();
  const subtypes = types.map((id) => `subtypes ${id} ${JSON.stringify(directSubtypesOf(index, id))}`);
  const edges = [...declarationsByName(index).values()].flat().sort().map((id) => `edges ${id} ${JSON.stringify(index.edgesFrom(id))}`);
  return [...dump('type', typesBySimpleName(index)), ...dump('decl', declarationsByName(index)), ...dump('uses', usageCounts(index)), ...subtypes, ...edges,
    `popular ${JSON.stringify(globalPopular(index))}`, ...described,
    corpusDump(index, (p) => ix.textOf(p), QUERIES)].join('\n');
}

test(`indexer: ${SEQUENCES} random sequences of edits, saves, deletes, renames and new files equal a fresh index`, { timeout: 1_800_000 }, async (t) => {
  let ops = 0;
  const first = Number(process.env.NEEDLE_FUZZ_INDEXER_FIRST ?? 0);
  let tableChecks = 0;
  for (let seq = first; seq < first + SEQUENCES; seq++) {
    const r = prng(5000 + seq);
    const root = tempDir('needle-seq-');
    const pathOf = (pkg: string, name: string, alt = false) => join(root, alt ? 'alt' : 'src', ...pkg.split('.'), `${name}.java`);
    const write = (p: string, text: string) => { mkdirSync(dirname(p), { recursive: true }); writeFileSync(p, text); };
    for (const pkg of PKGS) for (const name of NAMES.slice(0, 3)) write(pathOf(pkg, name), randomClass(r, pkg, name));
    const ix = new Indexer({ cacheDir: null });
    await ix.addFolder(root);
    const open = new Map<string, string>();
    const log: string[] = [];
    tables(ix);
    const onDisk = () => [...ix.index.allFiles().map((f) => f.path), ...open.keys()].filter((p, i, a) => a.indexOf(p) === i && existsSync(p)).sort();
    for (let step = 0; step < STEPS; step++) {
      const files = onDisk();
      const p = files.length ? choose(r, files) : undefined;
      const op = r();
      ops++;
      if (op < 0.25 && p) {
        // Editor edit: open (if needed) and change the buffer.
        const base = open.get(p) ?? readFileSync(p, 'utf8');
        const pkg = PKGS.find((x) => p.includes(x.split('.').join('/')))!;
        const text = r() < 0.5 ? randomClass(r, pkg, p.slice(p.lastIndexOf('/') + 1, -5)) : base.replace(/\n}\n?$/, `\n  void extra${step}() { run(); }\n}\n`);
        open.set(p, text);
        log.push(`edit ${p}`);
        await ix.setDocument(p, text);
      } else if (op < 0.4 && open.size) {
        // Save: the buffer goes to disk, then the watcher reports the change.
        const [sp, text] = choose(r, [...open.entries()]);
        writeFileSync(sp, text);
        log.push(`save ${sp}`);
        await ix.diskChanged(sp);
      } else if (op < 0.5 && open.size) {
        const [cp] = choose(r, [...open.entries()]);
        open.delete(cp);
        log.push(`close ${cp}`);
        await ix.closeDocument(cp);
      } else if (op < 0.62 && p && !open.has(p) && files.length > 1) {
        rmSync(p);
        log.push(`delete ${p}`);
        ix.diskDeleted(p);
      } else if (op < 0.74 && p && !open.has(p)) {
        const pkg = choose(r, PKGS);
        const to = pathOf(pkg, choose(r, NAMES), r() < 0.2);
        if (to === p || existsSync(to)) continue;
        mkdirSync(dirname(to), { recursive: true });
        renameSync(p, to);
        log.push(`rename ${p} -> ${to}`);
        ix.diskDeleted(p);
        await ix.diskChanged(to);
      } else {
        const pkg = choose(r, PKGS);
        const np = pathOf(pkg, choose(r, NAMES), r() < 0.2);
        if (open.has(np)) continue;
        write(np, randomClass(r, pkg, np.slice(np.lastIndexOf('/') + 1, -5)));
        log.push(`write ${np}`);
        await ix.diskChanged(np);
      }
      tables(ix);
    }
    // Open buffers supersede disk in both: the fresh Indexer is told about them before its scan.
    const fresh = new Indexer({ cacheDir: null });
    for (const [p, text] of open) await fresh.setDocument(p, text);
    await fresh.addFolder(root);
    if (process.env.NEEDLE_FUZZ_DUMP && ix.index.canonical() !== fresh.index.canonical()) {
      writeFileSync(`${process.env.NEEDLE_FUZZ_DUMP}.incremental`, ix.index.canonical());
      writeFileSync(`${process.env.NEEDLE_FUZZ_DUMP}.fresh`, fresh.index.canonical());
      writeFileSync(`${process.env.NEEDLE_FUZZ_DUMP}.files`, [...open.entries()].map(([p, x]) => `OPEN ${p}\n${x}`).join('\n') + '\n' + ix.index.allFiles().map((f) => `${f.path}: ${existsSync(f.path) ? readFileSync(f.path, 'utf8') : '(not on disk)'}`).join('\n'));
    }
    assert.equal(ix.index.canonical(), fresh.index.canonical(), `sequence ${seq} diverged after:\n${log.join('\n')}`);
    assert.equal(tables(ix), tables(fresh), `sequence ${seq}: name and usage tables diverged after:\n${log.join('\n')}`);
    tableChecks++;
    // Closing every buffer returns to disk; still equal to a fresh build from disk alone.
    for (const p of [...open.keys()]) await ix.closeDocument(p);
    const fromDisk = new Indexer({ cacheDir: null });
    await fromDisk.addFolder(root);
    assert.equal(ix.index.canonical(), fromDisk.index.canonical(), `sequence ${seq} diverged after closing every buffer:\n${log.join('\n')}`);
    assert.equal(tables(ix), tables(fromDisk), `sequence ${seq}: name and usage tables diverged after closing every buffer:\n${log.join('\n')}`);
    rmSync(root, { recursive: true, force: true });
  }
  t.diagnostic(`indexer sequences: ${SEQUENCES} sequences, ${ops} operations, all equal to a fresh index (and ${tableChecks} table comparisons)`);
});
