// Property: after any sequence of edits, the incrementally updated index equals a fresh build
// of the same files. Seeded and reproducible; `NEEDLE_FUZZ_SEQUENCES` raises the count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 as prng } from '../../scripts/lib/prng.mjs';
import { hashText } from '../../server/src/index/files';
import { factsOfText, refsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';


const PKGS = ['com.acme.a', 'com.acme.b'];
const NAMES = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Omega'];
const METHODS = ['run', 'load', 'save', 'find', 'size'];

/** A random small class that references other classes of the pool, so edits ripple across files. */
function randomClass(rand: () => number, pkg: string, name: string): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const other = pick(NAMES);
  const otherPkg = pick(PKGS);
  const imports = rand() < 0.5 ? `import ${otherPkg}.${other};\n` : rand() < 0.5 ? `import ${otherPkg}.*;\n` : '';
  const sup = rand() < 0.3 && other !== name ? ` extends ${other}` : '';
  const methods: string[] = [];
  const n = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) {
    const m = pick(METHODS);
    const arity = Math.floor(rand() * 2);
    const params = arity ? `${other} x` : '';
    const body = rand() < 0.5 ? `new ${other}().${pick(METHODS)}();` : `${pick(METHODS)}(${arity ? 'null' : ''});`;
    methods.push(`  ${rand() < 0.3 ? 'private' : 'public'} ${rand() < 0.5 ? 'static ' : ''}void ${m}(${params}) { ${body} }`);
  }
  return `package ${pkg};\n${imports}public class ${name}${sup} {\n  int count;\n${methods.join('\n')}\n}\n`;
}

async function freshBuild(files: Map<string, string>): Promise<string> {
  const index = new WorkspaceIndex();
  for (const [p, t] of [...files].sort()) index.put(p, '/ws', hashText(t), await factsOfText(t));
  index.resolveAll();
  return index.canonical();
}

test('incremental index equals a fresh build after random edit sequences', async () => {
  const sequences = Number(process.env.NEEDLE_FUZZ_SEQUENCES ?? 25);
  for (let seq = 0; seq < sequences; seq++) {
    const rand = prng(1000 + seq);
    const files = new Map<string, string>();
    const index = new WorkspaceIndex();
    // As the Indexer does: reference sites released after resolving, re-extracted when needed.
    index.releaseRefs = true;
    index.refsLoader = (path, hash) => refsOfText(files.get(path), hash);
    const pathOf = (pkg: string, name: string) => `/ws/src/${pkg.replace(/\./g, '/')}/${name}.java`;
    for (const pkg of PKGS) for (const name of NAMES.slice(0, 3)) {
      const p = pathOf(pkg, name);
      files.set(p, randomClass(rand, pkg, name));
    }
    for (const [p, t] of files) index.put(p, '/ws', hashText(t), await factsOfText(t));
    index.resolveAll();
    const log: string[] = [];
    for (let step = 0; step < 10; step++) {
      const op = rand();
      const paths = [...files.keys()].sort();
      const p = paths[Math.floor(rand() * paths.length)];
      if (op < 0.35 && p) {
        // Rewrite a file: renames, deletes and adds methods, changes imports and supertypes.
        const pkg = PKGS.find((x) => p.includes(x.replace(/\./g, '/')))!;
        const name = p.slice(p.lastIndexOf('/') + 1, -5);
        files.set(p, randomClass(rand, pkg, name));
        log.push(`rewrite ${p}`);
        index.update(p, '/ws', hashText(files.get(p)!), await factsOfText(files.get(p)!));
      } else if (op < 0.55 && p && files.size > 1) {
        files.delete(p);
        log.push(`delete ${p}`);
        index.remove(p);
      } else if (op < 0.8) {
        const pkg = PKGS[Math.floor(rand() * PKGS.length)];
        const name = NAMES[Math.floor(rand() * NAMES.length)];
        // Sometimes a second copy of a class under another source folder: duplicate ids.
        const np = rand() < 0.25 ? pathOf(pkg, name).replace('/ws/src/', '/ws/alt/') : pathOf(pkg, name);
        files.set(np, randomClass(rand, pkg, name));
        log.push(`write ${np}`);
        index.update(np, '/ws', hashText(files.get(np)!), await factsOfText(files.get(np)!));
      } else if (op < 0.9 && p) {
        // A member-only edit others may see: an overload of a called name, or a method turned private or public.
        const t = files.get(p)!;
        const edited = rand() < 0.5
          ? t.replace(/\n}\n$/, `\n  public ${rand() < 0.5 ? 'static ' : ''}void ${METHODS[Math.floor(rand() * METHODS.length)]}(${NAMES[Math.floor(rand() * NAMES.length)]} y, int z) {}\n}\n`)
          : t.includes('  public ') ? t.replace('  public ', '  private ') : t.replace('  private ', '  public ');
        files.set(p, edited);
        log.push(`member edit ${p}`);
        index.update(p, '/ws', hashText(edited), await factsOfText(edited));
      } else if (p) {
        // A small in-place edit: append a member (text changes, shape changes).
        const t = files.get(p)!;
        const edited = t.replace(/\n}\n$/, `\n  void extra${step}() { run(); }\n}\n`);
        files.set(p, edited);
        log.push(`edit ${p}`);
        index.update(p, '/ws', hashText(edited), await factsOfText(edited));
      }
    }
    const fresh = await freshBuild(files);
    assert.equal(index.canonical(), fresh, `sequence ${seq} diverged after:\n${log.join('\n')}`);
  }
});
