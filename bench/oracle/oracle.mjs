#!/usr/bin/env node
// The benchmark's ground truth: declarations and resolved references of a Java source tree, as the
// Java compiler sees them (bench/oracle/RefOracle.java, Compiler Tree API over attributed trees).
//
//   node bench/oracle/oracle.mjs <sourceRoot> <out.json>
//   import { runOracle } from './oracle.mjs'; const json = await runOracle(root, { cacheDir });
//
// RefOracle.java is compiled with the JDK's javac into <cacheDir>/oracle/classes when its text
// changed. Needs a JDK 17+ (`javac`/`java` on PATH, or NEEDLE_ORACLE_JAVA_HOME).
//
// Output (all arrays sorted; lines/columns 0-based; columns and offsets in UTF-16 chars; paths
// relative to sourceRoot with '/'):
//   { sourceRoot, errors, files: [...],
//     declarations: [{ kind, name, owner, qualified, file, line, col, modifiers, body? }],
//     references:   [{ kind, name, file, line, col, from, target }],
//     imports:      [{ kind: type|member, name, file, line, col, target }],   // names in import declarations
//     packages:     [{ name, file, line, col, endLine, endCol }] }            // package names written in the
//                   source (package/import declarations, qualified names) for packages holding sources
// kind of declaration: class|interface|enum|record|annotation|method|constructor|field|enumConstant|recordComponent
// kind of reference:   call|new|field|type|ctorCall|methodRef
// qualified: types `org.x.A.Inner`; members `org.x.A#f`, `org.x.A#m(String,int[])` (erased simple
// parameter type names; a constructor is named after its class: `org.x.A#A(int)`).
// body: the method's `{ ... }` block: startLine/startCol/startOffset at `{`, endLine/endCol/endOffset
// just after `}` (exclusive).
// modifiers: javac's modifier names, implicit ones included (interface methods are public).
// imports: `member` is a static import of a member name, target `org.x.A#name`.
// A reference's line/col is the name at the site; `from` is the innermost enclosing reported
// declaration (initializer blocks count as their type); `target` a reported declaration's qualified.
// Anonymous and local classes are transparent (not declarations; their code belongs to the
// enclosing declaration). An implicit constructor's target is its class; an implicit record
// accessor's target is the record component.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const SOURCE = join(HERE, 'RefOracle.java');
const EXPORTS = ['api', 'code', 'tree', 'util'].flatMap((p) => ['--add-exports', `jdk.compiler/com.sun.tools.javac.${p}=ALL-UNNAMED`]);

function jdkTool(name) {
  const home = process.env.NEEDLE_ORACLE_JAVA_HOME;
  return home ? join(home, 'bin', name) : name;
}

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error) throw new Error(`${what}: cannot run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  return r;
}

/** Compiles RefOracle.java into <cacheDir>/oracle/classes unless the compiled copy is current. */
export function compileOracle(cacheDir) {
  const classes = join(cacheDir, 'oracle', 'classes');
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex');
  const stamp = join(classes, '.source-sha256');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(join(classes, 'RefOracle.class'))) return classes;
  // compile beside, then swap in, so that concurrent runs never see a half-written directory
  const tmp = `${classes}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  run(jdkTool('javac'), [...EXPORTS, '-nowarn', '-d', tmp, SOURCE], 'javac RefOracle.java');
  writeFileSync(join(tmp, '.source-sha256'), hash);
  rmSync(classes, { recursive: true, force: true });
  try { renameSync(tmp, classes); } catch (e) { rmSync(tmp, { recursive: true, force: true }); if (!existsSync(stamp)) throw e; }
  return classes;
}

/** A hash of the oracle's own build and of every .java file's path, size and mtime under root. */
export function sourcesStamp(root, classes) {
  const h = createHash('sha256').update(readFileSync(join(classes, '.source-sha256')));
  (function walk(dir, rel) {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full, `${rel}${name}/`);
      else if (name.endsWith('.java')) h.update(`${rel}${name}\0${st.size}\0${st.mtimeMs}\n`);
    }
  })(root, '');
  return h.digest('hex');
}

/**
 * Runs the oracle over every .java file under sourceRoot. Returns the path of the JSON output
 * (opts.out, or <cacheDir>/oracle/out/<name>-<hash>.json). opts.quiet suppresses the summary on stderr;
 * opts.onStderr receives it anyway (the error samples, all of them with NEEDLE_ORACLE_DEBUG set).
 * Without opts.out and opts.onStderr, an output whose stamp (sourcesStamp) still matches is reused.
 */
export async function runOracle(sourceRoot, { cacheDir = join(ROOT, '.cache'), out, quiet = false, onStderr } = {}) {
  const root = resolve(sourceRoot);
  if (!existsSync(root)) throw new Error(`oracle: source root ${root} does not exist`);
  const classes = compileOracle(cacheDir);
  const target = out ? resolve(out)
    : join(cacheDir, 'oracle', 'out', `${basename(root)}-${createHash('sha256').update(root).digest('hex').slice(0, 10)}.json`);
  mkdirSync(dirname(target), { recursive: true });
  const reusable = !out && !onStderr;
  const stampFile = `${target}.stamp`;
  const stamp = reusable ? sourcesStamp(root, classes) : '';
  if (reusable && existsSync(target) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return target;
  const r = run(jdkTool('java'), [...EXPORTS, '-Xss16m', '-cp', classes, 'RefOracle', root, target], 'RefOracle');
  if (!quiet && r.stderr) process.stderr.write(r.stderr);
  if (onStderr) onStderr(r.stderr ?? '');
  if (reusable) writeFileSync(stampFile, stamp);
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [sourceRoot, out] = process.argv.slice(2);
  if (!sourceRoot || !out) {
    process.stderr.write('usage: node bench/oracle/oracle.mjs <sourceRoot> <out.json>\n');
    process.exit(2);
  }
  try {
    console.log(await runOracle(sourceRoot, { out }));
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
