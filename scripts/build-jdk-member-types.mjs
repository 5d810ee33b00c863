// Builds server/data/jdk-member-types.json: for every public JDK type that has member types a
// subclass can name unqualified, the simple names of those member types, its own and inherited.
//
// Why: a workspace class `class Cache extends LinkedHashMap<K, V>` may write `Entry<K, V>` with no
// import, because member types are inherited (JLS §8.5). The resolver sees the JDK only by simple
// names, so without this table it cannot tell `Entry` (inherited from Map) from an unknown type,
// and `check_code` would report a false "unknown API". The table is read from the JDK's own class
// files, so it covers every case (AbstractQueuedSynchronizer.ConditionObject,
// ThreadPoolExecutor.AbortPolicy, Thread.State, …), not a hand-picked few.
//
// Input: the jmods of the JDK that runs `javac` (JAVA_HOME, else the parent of javac's bin/), read
// with the project's own zip and class-file readers (server/src/deps/). A jmod is a 4-byte header
// followed by a zip. Only packages a module exports to everyone count (`jmod describe`'s
// "exports" lines; "qualified exports … to" are internal), only public types, and only member
// types that are public or protected, which a subclass in another package can name.
//
// Keys are simple names, because that is how the resolver knows external supertypes. Where two
// JDK types share a simple name (java.awt.List and java.util.List), their member types are
// united: the table may accept a member type an edge case does not have, but never reports a
// real one as unknown. The output is deterministic: same JDK, same bytes.
//
// Usage: node scripts/build-jdk-member-types.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectModule } from './lib/projectModule.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'server/data/jdk-member-types.json');
const ACC_PUBLIC = 0x0001;
const ACC_PROTECTED = 0x0004;

function javaHome() {
  if (process.env.JAVA_HOME && existsSync(join(process.env.JAVA_HOME, 'jmods'))) return process.env.JAVA_HOME;
  const javac = execFileSync('sh', ['-c', 'command -v javac'], { encoding: 'utf8' }).trim();
  const home = dirname(dirname(realpathSync(javac)));
  if (!existsSync(join(home, 'jmods'))) {
    console.error(`build-jdk-member-types: no jmods/ under ${home}; set JAVA_HOME to a full JDK (Debian package openjdk-17-jdk)`);
    process.exit(1);
  }
  return home;
}

const { ZipArchive } = await projectModule('server/src/deps/zip.ts');
const { readClassFile } = await projectModule('server/src/deps/classFile.ts');

const simple = (internal) => internal.slice(internal.lastIndexOf('/') + 1).replace(/^.*\$/, '');
const packageOf = (internal) => internal.slice(0, Math.max(0, internal.lastIndexOf('/'))).replace(/\//g, '.');

const home = javaHome();
const version = readFileSync(join(home, 'release'), 'utf8').match(/^JAVA_VERSION="([^"]+)"/m)?.[1] ?? 'unknown';
/** Internal name -> { supers: internal names, members: simple names of accessible member types }. */
const types = new Map();
for (const file of readdirSync(join(home, 'jmods')).filter((f) => f.endsWith('.jmod')).sort()) {
  const jmod = join(home, 'jmods', file);
  const exported = new Set(execFileSync('jmod', ['describe', jmod], { encoding: 'utf8' })
    .split('\n').map((l) => l.match(/^exports (\S+)$/)?.[1]).filter(Boolean));
  if (exported.size === 0) continue;
  const zip = ZipArchive.fromBuffer(readFileSync(jmod).subarray(4));
  for (const name of [...zip.entries.keys()].sort()) {
    if (!name.startsWith('classes/') || !name.endsWith('.class') || name.endsWith('module-info.class')) continue;
    const r = zip.read(name);
    if (!r.ok) throw new Error(`${file} ${name}: ${r.reason}`);
    const info = readClassFile(r.data);
    if (!exported.has(packageOf(info.name))) continue;
    // A nested type's own InnerClasses entry carries its real access (the class's flags cannot say protected).
    const self = info.innerClasses.find((c) => c.inner === info.name);
    const access = self ? self.access : info.access;
    if (!(access & (ACC_PUBLIC | ACC_PROTECTED))) continue;
    const members = info.innerClasses
      .filter((c) => c.outer === info.name && c.simpleName && (c.access & (ACC_PUBLIC | ACC_PROTECTED)))
      .map((c) => c.simpleName);
    types.set(info.name, { supers: [info.superName, ...info.interfaces].filter(Boolean), members });
  }
}

/** Member types declared by a type or inherited from its supertypes (only through exported, public types). */
const closure = new Map();
function memberTypesOf(internal) {
  if (closure.has(internal)) return closure.get(internal);
  closure.set(internal, new Set()); // cycles cannot occur in a valid JDK; this guards a broken one
  const t = types.get(internal);
  const all = new Set(t?.members ?? []);
  for (const s of t?.supers ?? []) for (const m of memberTypesOf(s)) all.add(m);
  closure.set(internal, all);
  return all;
}

const bySimpleName = new Map();
for (const internal of types.keys()) {
  const members = memberTypesOf(internal);
  if (members.size === 0) continue;
  const key = simple(internal);
  const set = bySimpleName.get(key) ?? new Set();
  for (const m of members) set.add(m);
  bySimpleName.set(key, set);
}
const table = Object.fromEntries([...bySimpleName.keys()].sort().map((k) => [k, [...bySimpleName.get(k)].sort()]));
// Every public type's simple name, so the resolver can tell "a JDK type without member types"
// from "a supertype nobody can see into" (a jar that is not on the index), which may declare any.
const withoutMemberTypes = [...new Set([...types.keys()].map(simple))].filter((k) => !bySimpleName.has(k)).sort();
writeFileSync(OUT, JSON.stringify({ jdk: version, types: table, withoutMemberTypes }, null, 0) + '\n');
console.log(`build-jdk-member-types: JDK ${version}: ${types.size} public types in exported packages, ${Object.keys(table).length} with member types -> ${OUT}`);
