#!/usr/bin/env node
// Fetches the benchmark corpora into .cache/corpora/ (gitignored; third-party code is never committed).
//
//   node bench/corpora/fetch.mjs [NAME|all|held-out]      (default: all = the development corpora + jdk)
//
// Development corpora, of different styles (list.mjs): commons-lang3, jsoup, ant,
// antlr4-runtime, commons-collections4; for check_code only (fetched by name): guava. Held out (looked at only when closing): jackson-core, commons-io.
// Each is a Debian source package (libcommons-lang3-java, libjsoup-java, ant, ...), downloaded
//   with a private apt configuration (a deb-src list derived from the machine's own apt sources, a
//   private lists dir and cache), so the system's apt state is never changed. The upstream tree is
//   extracted to .cache/corpora/<name>/ (Debian patches are not applied).
// jdk: the java.base sources, from the installed JDK's lib/src.zip when it exists, otherwise from the
//   openjdk-17-source .deb (apt-get download with the same private configuration, dpkg-deb -x), into
//   .cache/corpora/jdk-java.base/java.base/.
// jdk-all (not in all): the whole JDK source tree from the same src.zip, every module as one
//   workspace folder, into .cache/corpora/jdk-all/src/ (the issue-16 monorepo workspace).
//
// Every corpus directory gets a needle-corpus.json: { name, version, mainSourceRoot, javaFiles, ... }.
// Idempotent: a corpus whose needle-corpus.json and source root already exist is left alone.
import { spawnSync } from 'node:child_process';
import {
  existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEBIAN_CORPORA, DEVELOPMENT_CORPORA, HELD_OUT_CORPORA } from './list.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPORA_DIR = join(ROOT, '.cache', 'corpora');
const WORK_DIR = join(CORPORA_DIR, '.downloads');
const APT_DIR = join(ROOT, '.cache', 'apt');

export { DEBIAN_CORPORA, DEVELOPMENT_CORPORA, HELD_OUT_CORPORA };
const JDK_NAME = 'jdk-java.base';
const JDK_ALL_NAME = 'jdk-all';
const JDK_SRC_ZIPS = [
  '/usr/lib/jvm/openjdk-17/lib/src.zip',
  '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip',
];

class FetchError extends Error {}

function log(msg) { process.stderr.write(`[fetch] ${msg}\n`); }

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error) throw new FetchError(`cannot run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new FetchError(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${out}`);
  }
  return r.stdout ?? '';
}

function which(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

// ---------------------------------------------------------------------------------------------
// Private apt configuration, derived from the system's sources at run time.

/** Parses deb822 .sources files and the one-line sources.list into {types, uris, suites, components, signedBy}. */
export function systemAptSources() {
  const entries = [];
  const dir = '/etc/apt/sources.list.d';
  const files = existsSync(dir) ? readdirSync(dir).sort().map((f) => join(dir, f)) : [];
  for (const file of files.filter((f) => f.endsWith('.sources'))) {
    for (const stanza of readFileSync(file, 'utf8').split(/\n\s*\n/)) {
      const fields = {};
      let last = null;
      for (const line of stanza.split('\n')) {
        if (/^\s*#/.test(line) || !line.trim()) continue;
        const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
        if (m) { last = m[1].toLowerCase(); fields[last] = m[2].trim(); } else if (last && /^\s/.test(line)) fields[last] += `\n${line.trim()}`;
      }
      if (!fields.types || !fields.uris || !fields.suites) continue;
      if (/^(no|false)$/i.test(fields.enabled ?? '')) continue;
      const signedBy = fields['signed-by'] && !fields['signed-by'].includes('\n') ? fields['signed-by'] : undefined;
      entries.push({
        types: fields.types.split(/\s+/), uris: fields.uris.split(/\s+/), suites: fields.suites.split(/\s+/),
        components: (fields.components ?? '').split(/\s+/).filter(Boolean), signedBy,
      });
    }
  }
  const lists = ['/etc/apt/sources.list', ...files.filter((f) => f.endsWith('.list'))];
  for (const file of lists) {
    if (!existsSync(file)) continue;
    for (const raw of readFileSync(file, 'utf8').split('\n')) {
      const line = raw.replace(/#.*/, '').trim();
      const m = /^(deb|deb-src)\s+(?:\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s*(.*)$/.exec(line);
      if (!m) continue;
      const signed = /signed-by=(\S+)/.exec(m[2] ?? '');
      entries.push({
        types: [m[1]], uris: [m[3]], suites: [m[4]], components: m[5].split(/\s+/).filter(Boolean),
        signedBy: signed ? signed[1] : undefined,
      });
    }
  }
  return entries;
}

let aptReady = false;

/** Writes the private sources list (deb + deb-src for every configured source) and runs apt-get update on it. */
function aptOptions() {
  const listsDir = join(APT_DIR, 'lists');
  const cacheDir = join(APT_DIR, 'cache');
  const sourcesFile = join(APT_DIR, 'sources.list');
  const opts = [
    '-o', `Dir::Etc::sourcelist=${sourcesFile}`,
    '-o', 'Dir::Etc::SourceParts=/dev/null',
    '-o', `Dir::State::Lists=${listsDir}`,
    '-o', `Dir::Cache=${cacheDir}`,
  ];
  if (aptReady) return opts;
  if (!which('apt-get')) throw new FetchError('apt-get is not installed; cannot download Debian packages');
  const entries = systemAptSources();
  if (!entries.length) throw new FetchError('no apt sources configured in /etc/apt/sources.list{,.d}');
  const lines = [];
  const seen = new Set();
  for (const e of entries) {
    for (const type of ['deb', 'deb-src']) {
      for (const uri of e.uris) {
        for (const suite of e.suites) {
          const opt = e.signedBy ? `[signed-by=${e.signedBy}] ` : '';
          const line = `${type} ${opt}${uri} ${suite} ${e.components.join(' ')}`.trim();
          if (!seen.has(line)) { seen.add(line); lines.push(line); }
        }
      }
    }
  }
  mkdirSync(join(listsDir, 'partial'), { recursive: true });
  mkdirSync(join(cacheDir, 'archives', 'partial'), { recursive: true });
  writeFileSync(sourcesFile, `${lines.join('\n')}\n`);
  log(`apt-get update with private sources (${lines.length} entries) in ${relative(ROOT, APT_DIR)}`);
  run('apt-get', ['update', '-q', ...opts]);
  aptReady = true;
  return opts;
}

// ---------------------------------------------------------------------------------------------

function countJava(dir) {
  let javaFiles = 0;
  let moduleInfo = 0;
  let packageInfo = 0;
  (function walk(d) {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      else if (name.endsWith('.java')) {
        javaFiles++;
        if (name === 'module-info.java') moduleInfo++;
        if (name === 'package-info.java') packageInfo++;
      }
    }
  })(dir);
  return { javaFiles, moduleInfoFiles: moduleInfo, packageInfoFiles: packageInfo };
}

/** The shallowest directory named src/main/java under dir. */
function findMainSourceRoot(dir) {
  let queue = [dir];
  while (queue.length) {
    const next = [];
    for (const d of queue.sort()) {
      if (d.endsWith(`${sep}src${sep}main${sep}java`)) return d;
      for (const name of readdirSync(d).sort()) {
        const full = join(d, name);
        if (name !== '.git' && lstatSync(full).isDirectory()) next.push(full);
      }
    }
    queue = next;
  }
  return null;
}

function readCorpus(name) {
  const dir = join(CORPORA_DIR, name);
  const meta = join(dir, 'needle-corpus.json');
  if (!existsSync(meta)) return null;
  try {
    const json = JSON.parse(readFileSync(meta, 'utf8'));
    if (existsSync(join(dir, json.mainSourceRoot))) return { dir, ...json };
  } catch { /* re-fetch */ }
  return null;
}

function report(c) {
  console.log(`${c.name}\t${c.version}\t${join(c.dir, c.mainSourceRoot)}\t(${c.javaFiles} .java files)`);
}

/** Moves a freshly built tree into place and writes its needle-corpus.json. */
function install(name, tmpTree, mainSourceRootAbs, version, extra = {}) {
  const dir = join(CORPORA_DIR, name);
  const mainSourceRoot = relative(tmpTree, mainSourceRootAbs).split(sep).join('/');
  const counts = countJava(mainSourceRootAbs);
  const meta = { name, version, mainSourceRoot, ...counts, ...extra };
  writeFileSync(join(tmpTree, 'needle-corpus.json'), `${JSON.stringify(meta, null, 2)}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmpTree, dir);
  return { dir, ...meta };
}

/**
 * Removes the .java files javac reports errors in (compiled against the JDK alone), repeating until
 * none is left, since a removed file can break the files that used it. Returns the removed paths.
 */
async function pruneUncompilableFiles(sourceRoot) {
  const { runOracle } = await import('../oracle/oracle.mjs');
  const removed = [];
  for (let round = 0; round < 6; round++) {
    const errorFiles = new Set();
    const saved = process.env.NEEDLE_ORACLE_DEBUG;
    process.env.NEEDLE_ORACLE_DEBUG = '1';
    const out = await runOracle(sourceRoot, { cacheDir: join(ROOT, '.cache'), out: join(WORK_DIR, 'prune-oracle.json'), quiet: true, onStderr: (text) => {
      for (const m of text.matchAll(/^ {2}(\S+\.java):\d+: /gm)) errorFiles.add(m[1]);
    } });
    if (saved === undefined) delete process.env.NEEDLE_ORACLE_DEBUG; else process.env.NEEDLE_ORACLE_DEBUG = saved;
    rmSync(out, { force: true });
    if (!errorFiles.size) break;
    log(`removing ${errorFiles.size} files that do not compile against the JDK alone`);
    for (const f of [...errorFiles].sort()) { rmSync(join(sourceRoot, f), { force: true }); removed.push(f); }
  }
  return removed.sort();
}

async function fetchDebianSource(name) {
  const existing = readCorpus(name);
  if (existing) return existing;
  const { pkg, sourceRoot, heldOut, style, pruneUncompilable } = DEBIAN_CORPORA[name];
  const opts = aptOptions();
  const dl = join(WORK_DIR, name);
  rmSync(dl, { recursive: true, force: true });
  mkdirSync(dl, { recursive: true });
  log(`apt-get source --download-only ${pkg}`);
  run('apt-get', ['source', '--download-only', '-q', ...opts, pkg], { cwd: dl });
  const dsc = readdirSync(dl).filter((f) => f.endsWith('.dsc')).sort()[0];
  if (!dsc) throw new FetchError(`apt-get source produced no .dsc for ${pkg} in ${dl}`);
  const dscText = readFileSync(join(dl, dsc), 'utf8');
  const debVersion = /^Version:\s*(\S+)/m.exec(dscText)?.[1] ?? '';
  const upstream = debVersion.replace(/^\d+:/, '').replace(/-[^-]*$/, '').replace(/[+~](dfsg|ds|repack).*$/i, '');
  const tmp = join(WORK_DIR, `${name}.tree`);
  rmSync(tmp, { recursive: true, force: true });
  if (which('dpkg-source')) {
    log(`dpkg-source -x --skip-patches ${dsc}`);
    run('dpkg-source', ['-x', '--skip-patches', dsc, tmp], { cwd: dl });
  } else {
    const orig = readdirSync(dl).filter((f) => /\.orig\.tar\.[a-z0-9]+$/.test(f)).sort()[0];
    if (!orig) throw new FetchError(`no upstream .orig tarball for ${pkg} in ${dl}`);
    log(`tar -xf ${orig}`);
    mkdirSync(tmp, { recursive: true });
    run('tar', ['-xf', join(dl, orig), '-C', tmp, '--strip-components=1']);
  }
  const main = sourceRoot ? join(tmp, ...sourceRoot.split('/')) : findMainSourceRoot(tmp);
  if (!main || !existsSync(main)) throw new FetchError(`no ${sourceRoot ?? 'src/main/java'} in the ${pkg} source tree`);
  const pruned = pruneUncompilable ? await pruneUncompilableFiles(main) : [];
  return install(name, tmp, main, upstream, {
    debianPackage: pkg, debianVersion: debVersion, style, heldOut: Boolean(heldOut), ...(pruned.length ? { prunedFiles: pruned } : {}),
  });
}

/** JAVA_VERSION from the release file of the JDK that ships zip (or of the system JDK 17). */
function jdkVersion(zip) {
  const homes = [dirname(dirname(zip)), dirname(dirname(realpathSync(zip))), '/usr/lib/jvm/java-17-openjdk-amd64'];
  for (const home of homes) {
    const release = join(home, 'release');
    if (existsSync(release)) return /^JAVA_VERSION="([^"]+)"/m.exec(readFileSync(release, 'utf8'))?.[1] ?? '';
  }
  return '';
}

/**
 * The JDK 17 src.zip: the installed JDK's lib/src.zip when it exists, otherwise the one in the
 * openjdk-17-source .deb (apt-get download with the private configuration, dpkg-deb -x). A .deb
 * already downloaded by an earlier fetch is reused. NEEDLE_JDK_FROM_DEB=1 forces the .deb route.
 */
function jdkSrcZip() {
  // existsSync follows symlinks (Debian's may dangle when openjdk-17-source is not installed).
  const installed = process.env.NEEDLE_JDK_FROM_DEB ? undefined : JDK_SRC_ZIPS.find((p) => existsSync(p));
  if (installed) return { zip: installed, version: jdkVersion(installed), origin: installed };
  const dl = join(WORK_DIR, 'openjdk-17-source');
  const debIn = () => (existsSync(dl) ? readdirSync(dl).filter((f) => f.endsWith('.deb')).sort()[0] : undefined);
  if (!debIn()) {
    const opts = aptOptions();
    rmSync(dl, { recursive: true, force: true });
    mkdirSync(dl, { recursive: true });
    log('apt-get download openjdk-17-source');
    run('apt-get', ['download', '-q', ...opts, 'openjdk-17-source'], { cwd: dl });
  }
  const deb = debIn();
  if (!deb) throw new FetchError('apt-get download produced no openjdk-17-source .deb');
  if (!which('dpkg-deb')) throw new FetchError('dpkg-deb is not installed (Debian package: dpkg)');
  const x = join(dl, 'root');
  rmSync(x, { recursive: true, force: true });
  run('dpkg-deb', ['-x', join(dl, deb), x]);
  const found = [];
  (function walk(d) {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      else if (name === 'src.zip' && st.isFile()) found.push(full);
    }
  })(x);
  if (!found.length) throw new FetchError(`no src.zip in ${deb}`);
  const debVersion = run('dpkg-deb', ['-f', join(dl, deb), 'Version']).trim();
  const version = debVersion.replace(/^\d+:/, '').replace(/-[^-]*$/, '').replace(/\+\d+$/, '');
  return { zip: found[0], version, origin: `${deb} (${debVersion})` };
}

/** Extracts `members` (unzip patterns; none: everything) of the JDK's src.zip into a fresh tree for `name`. */
function extractJdk(name, members) {
  const { zip, version, origin } = jdkSrcZip();
  const tmp = join(WORK_DIR, `${name}.tree`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  log(`extracting ${members.length ? members.join(' ') : 'every module'} from ${zip}`);
  if (which('unzip')) run('unzip', ['-q', '-o', zip, ...members, '-d', tmp]);
  else if (which('jar')) run('jar', ['xf', resolve(zip), ...members.map((m) => m.replace(/\/\*$/, ''))], { cwd: tmp });
  else throw new FetchError('neither unzip nor jar is available to extract src.zip (Debian package: unzip)');
  return { tmp, version, origin };
}

/** jdk: java.base alone, into .cache/corpora/jdk-java.base/java.base/. */
function fetchJdk() {
  const existing = readCorpus(JDK_NAME);
  if (existing) return existing;
  const { tmp, version, origin } = extractJdk(JDK_NAME, ['java.base/*']);
  const main = join(tmp, 'java.base');
  if (!existsSync(main)) throw new FetchError(`the JDK's src.zip has no java.base/ entries`);
  return install(JDK_NAME, tmp, main, version, { origin });
}

/**
 * jdk-all: the whole JDK source tree (every module of src.zip: 15,143 .java files in 17.0.x) as one
 * workspace folder, into .cache/corpora/jdk-all/src/ (one directory per module under it).
 */
function fetchJdkAll() {
  const existing = readCorpus(JDK_ALL_NAME);
  if (existing) return existing;
  const { tmp, version, origin } = extractJdk(JDK_ALL_NAME, []);
  // The modules go one level down, so the workspace folder holds nothing but them.
  const src = join(tmp, 'src');
  mkdirSync(src);
  for (const m of readdirSync(tmp)) if (m !== 'src') renameSync(join(tmp, m), join(src, m));
  if (!existsSync(join(src, 'java.base'))) throw new FetchError(`the JDK's src.zip has no java.base/ entries`);
  return install(JDK_ALL_NAME, tmp, src, version, { origin });
}

const FETCHERS = {
  ...Object.fromEntries(Object.keys(DEBIAN_CORPORA).map((n) => [n, () => fetchDebianSource(n)])),
  jdk: fetchJdk,
  'jdk-all': fetchJdkAll,
};

export async function fetchCorpora(which = 'all') {
  // 'all': the development corpora and the JDK; 'held-out': the pair kept back; or one name.
  const names = which === 'all' ? [...DEVELOPMENT_CORPORA, 'jdk'] : which === 'held-out' ? HELD_OUT_CORPORA : [which];
  const out = [];
  for (const n of names) {
    if (!FETCHERS[n]) throw new FetchError(`unknown corpus '${n}' (expected ${Object.keys(FETCHERS).join(', ')}, all or held-out)`);
    out.push(await FETCHERS[n]());
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = process.argv[2] ?? 'all';
  try {
    mkdirSync(CORPORA_DIR, { recursive: true });
    for (const c of await fetchCorpora(arg)) report(c);
  } catch (e) {
    process.stderr.write(`fetch.mjs: ${e instanceof FetchError ? e.message : e.stack}\n`);
    process.exit(1);
  }
}
