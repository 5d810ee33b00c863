// Builds the public-prior lexicon (server/data/lexicon.json) from the JDK's own sources.
//
// The novelty signal (server/src/gate/novelty.ts) needs an estimate of which words and names a
// code model has seen many times in public code. The JDK's public API is the most widely used
// Java code there is, so we count, over every .java file of the public java.* and jdk.* modules
// (those whose module-info.java exports at least one package to everyone, which leaves out e.g.
// jdk.localedata's generated tables and jdk.hotspot.agent), the document frequency of
//   - lower-case identifier parts (split exactly like server/src/text/identifiers.ts does), and
//   - whole identifiers: simple type names and method names.
// Only entries seen in >= 2 files are kept, and frequencies are stored quantised as
// round(log2(df + 1)), which keeps the file small and stable across JDK updates.
//
// Input: /usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip or /usr/lib/jvm/openjdk-17/lib/src.zip
// (Debian package openjdk-17-source). The zip is read with the project's own reader
// (server/src/deps/zip.ts, central directory + node:zlib), so no npm dependency is needed. The output is deterministic: same src.zip, same bytes.
//
// Usage: node scripts/build-lexicon.mjs
import { readFileSync, writeFileSync, mkdirSync, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { projectModule } from './lib/projectModule.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'server/data/lexicon.json');
const CANDIDATES = [
  '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip',
  '/usr/lib/jvm/openjdk-17/lib/src.zip',
];
const MIN_DF = 2;

// Hand-curated words and names from very widely used public Java libraries (Spring, Apache
// Commons, Guava, JUnit, Mockito, AssertJ, Jackson, SLF4J, Lombok, JPA/Hibernate). The JDK alone
// under-represents them, yet models have seen them in countless public projects, so an
// identifier such as `OrderRepository#findById` or `assertThat` must not look novel just because
// the JDK never uses these words. Marked as "library" in the output and given a fixed, fairly
// high familiarity by the loader.
const LIBRARY_PARTS = [
  'after', 'all', 'any', 'argument', 'aspect', 'assert', 'assertion', 'auto', 'autowired',
  'batch', 'bean', 'before', 'blank', 'boot', 'cache', 'cacheable', 'captor', 'check', 'column',
  'component', 'config', 'configuration', 'consumer', 'controller', 'crud', 'dao', 'data', 'delete',
  'dto', 'each', 'endpoint', 'entity', 'equals', 'exists', 'find', 'getter', 'guava', 'hibernate',
  'immutable', 'inject', 'jackson', 'jpa', 'json', 'junit', 'kafka', 'lombok', 'mapper', 'mapping',
  'mock', 'mockito', 'multimap', 'nullable', 'page', 'pageable', 'param', 'path', 'precondition',
  'preconditions', 'profile', 'property', 'qualifier', 'repository', 'request', 'response', 'rest',
  'save', 'scheduled', 'service', 'setter', 'slf', 'spring', 'spy', 'stub', 'table', 'template',
  'test', 'then', 'transactional', 'util', 'utils', 'validator', 'value', 'verify', 'web', 'when',
  'yaml',
];
const LIBRARY_IDENTIFIERS = [
  'Autowired', 'BeanUtils', 'Bean', 'BeforeEach', 'AfterEach', 'Cacheable', 'Component',
  'Configuration', 'Controller', 'CrudRepository', 'DeleteMapping', 'Entity', 'GeneratedValue',
  'GetMapping', 'Id', 'ImmutableList', 'ImmutableMap', 'ImmutableSet', 'InjectMocks',
  'JpaRepository', 'JsonProperty', 'Lists', 'Logger', 'LoggerFactory', 'Maps', 'Mock', 'Mockito',
  'ObjectMapper', 'Optional', 'PathVariable', 'PostMapping', 'Preconditions', 'PutMapping',
  'Repository', 'RequestBody', 'RequestMapping', 'ResponseEntity', 'RestController', 'Service',
  'SpringBootApplication', 'SpringBootTest', 'StringUtils', 'Test', 'Transactional', 'Value',
  'any', 'assertEquals', 'assertFalse', 'assertNotNull', 'assertNull', 'assertThat',
  'assertThrows', 'assertTrue', 'checkArgument', 'checkNotNull', 'checkState', 'copyOf', 'debug',
  'deleteById', 'error', 'existsById', 'findAll', 'findById', 'getLogger', 'info', 'isBlank',
  'isEmpty', 'isNotBlank', 'isNotEmpty', 'mock', 'of', 'readValue', 'save', 'saveAll', 'thenReturn',
  'thenThrow', 'times', 'verify', 'warn', 'when', 'writeValueAsString',
];

// Java keywords and literals: never identifiers.
const KEYWORDS = new Set(('abstract assert boolean break byte case catch char class const continue default do ' +
  'double else enum extends final finally float for goto if implements import instanceof int interface long ' +
  'native new package private protected public return short static strictfp super switch synchronized this ' +
  'throw throws transient try void volatile while true false null var record yield sealed permits non').split(' '));

function findSrcZip() {
  for (const p of CANDIDATES) if (existsSync(p)) return p;
  console.error('build-lexicon: no JDK sources found at\n  ' + CANDIDATES.join('\n  ') +
    '\nInstall them with: apt-get install openjdk-17-source');
  process.exit(1);
}

/** The project's own splitIdentifier, compiled on the fly so the rule cannot drift. */
async function loadSplitter() {
  return (await projectModule('server/src/text/identifiers.ts')).splitIdentifier;
}

/** The project's own zip reader (server/src/deps/zip.ts), compiled on the fly like the splitter. */
async function zipEntries(path) {
  const { ZipArchive } = await projectModule('server/src/deps/zip.ts');
  const zip = ZipArchive.open(path);
  return [...zip.entries.keys()].map((name) => ({
    name,
    read() {
      const r = zip.read(name);
      if (!r.ok) throw new Error(`${name}: ${r.reason}`);
      return r.data.toString('utf8');
    },
  }));
}

/** Source text with comments, string/char literals and text blocks blanked out. */
function codeOnly(src) {
  let out = '';
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    const d = src[i + 1];
    if (c === '/' && d === '/') {
      const e = src.indexOf('\n', i);
      i = e < 0 ? n : e;
      out += ' ';
    } else if (c === '/' && d === '*') {
      const e = src.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
      out += ' ';
    } else if (c === '"' && d === '"' && src[i + 2] === '"') {
      const e = src.indexOf('"""', i + 3);
      i = e < 0 ? n : e + 3;
      out += ' "" ';
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      i = j + 1;
      out += ' "" ';
    } else {
      // Copy a run of ordinary characters at once.
      let j = i + 1;
      while (j < n && src[j] !== '/' && src[j] !== '"' && src[j] !== "'") j++;
      out += src.slice(i, j);
      i = j;
    }
  }
  return out;
}

/** Packages a module exports to everyone (qualified `exports ... to` are internal). */
function unqualifiedExports(moduleInfo) {
  const out = [];
  const re = /\bexports\s+([\w.]+)\s*(to\b)?/g;
  for (const m of codeOnly(moduleInfo).matchAll(re)) if (!m[2]) out.push(m[1]);
  return out;
}

const TYPE_NAME = /^[A-Z](?=.*[a-z])[A-Za-z0-9_$]*$/; // UpperCamel: a type by Java convention
const IDENT_USE = /([A-Za-z_$][A-Za-z0-9_$]*)(\s*\()?/g;

/** Parts and whole identifiers (type names, method names) used in one file. */
function scanFile(code, split) {
  const parts = new Set();
  const idents = new Set();
  let prev = '';
  for (const m of code.matchAll(IDENT_USE)) {
    const id = m[1];
    if (KEYWORDS.has(id) || /^[0-9]/.test(id)) { prev = id; continue; }
    for (const p of split(id)) parts.add(p);
    const call = m[2] !== undefined; // method declaration or invocation (or a constructor call)
    const before = code.slice(Math.max(0, m.index - 2), m.index);
    const methodRef = before.endsWith('::');
    if (TYPE_NAME.test(id)) idents.add(id);
    else if ((call || methodRef) && /^[a-z]/.test(id) && prev !== 'package' && prev !== 'import') idents.add(id);
    prev = id;
  }
  return { parts, idents };
}

function quantise(df) {
  return Math.round(Math.log2(df + 1));
}

function sortedObject(counts) {
  const keys = [...counts.keys()].filter((k) => counts.get(k) >= MIN_DF).sort(cmp);
  return keys.map((k) => [k, quantise(counts.get(k))]);
}

function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One entry per line: compact, yet diffs stay readable. */
function serialise(doc) {
  const obj = (entries) => '{\n' + entries.map(([k, v]) => `    ${JSON.stringify(k)}: ${v}`).join(',\n') + '\n  }';
  const arr = (xs) => '[' + xs.map((x) => JSON.stringify(x)).join(', ') + ']';
  return '{\n' +
    `  "format": ${doc.format},\n` +
    `  "source": ${JSON.stringify(doc.source)},\n` +
    `  "files": ${doc.files},\n` +
    `  "minDf": ${doc.minDf},\n` +
    `  "quantisation": ${JSON.stringify(doc.quantisation)},\n` +
    `  "maxLevel": ${doc.maxLevel},\n` +
    `  "library": {\n    "parts": ${arr(doc.library.parts)},\n    "identifiers": ${arr(doc.library.identifiers)}\n  },\n` +
    `  "parts": ${obj(doc.parts)},\n` +
    `  "identifiers": ${obj(doc.identifiers)}\n` +
    '}\n';
}

async function main() {
  const zipPath = findSrcZip();
  const split = await loadSplitter();
  const entries = await zipEntries(zipPath);

  const publicModules = new Set();
  for (const e of entries) {
    const m = /^((?:java|jdk)\.[\w.]+)\/module-info\.java$/.exec(e.name);
    if (m && unqualifiedExports(e.read()).length > 0) publicModules.add(m[1]);
  }

  const partDf = new Map();
  const identDf = new Map();
  const modules = new Set();
  let files = 0;
  for (const e of entries) {
    const m = /^((?:java|jdk)\.[\w.]+)\/(.+)\/[^/]+\.java$/.exec(e.name);
    if (!m || e.name.endsWith('/module-info.java') || e.name.endsWith('/package-info.java')) continue;
    if (!publicModules.has(m[1])) continue;
    const { parts, idents } = scanFile(codeOnly(e.read()), split);
    for (const p of parts) partDf.set(p, (partDf.get(p) ?? 0) + 1);
    for (const id of idents) identDf.set(id, (identDf.get(id) ?? 0) + 1);
    modules.add(m[1]);
    files++;
  }

  const parts = sortedObject(partDf);
  const identifiers = sortedObject(identDf);
  const maxLevel = Math.max(...parts.map(([, v]) => v), ...identifiers.map(([, v]) => v));
  const doc = {
    format: 1,
    source: 'OpenJDK 17 src.zip: public java.* and jdk.* modules',
    files,
    minDf: MIN_DF,
    quantisation: 'round(log2(df + 1))',
    maxLevel,
    library: {
      parts: [...new Set(LIBRARY_PARTS)].sort(cmp),
      identifiers: [...new Set(LIBRARY_IDENTIFIERS)].sort(cmp),
    },
    parts,
    identifiers,
  };
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, serialise(doc));
  const size = statSync(OUT).size;
  console.log(`source: ${zipPath}`);
  console.log(`modules: ${modules.size}, files: ${files}`);
  console.log(`parts: ${partDf.size} seen, ${parts.length} kept (df >= ${MIN_DF})`);
  console.log(`identifiers: ${identDf.size} seen, ${identifiers.length} kept (df >= ${MIN_DF})`);
  console.log(`library: ${doc.library.parts.length} parts, ${doc.library.identifiers.length} identifiers`);
  console.log(`max level: ${maxLevel}`);
  console.log(`wrote ${OUT} (${(size / 1024).toFixed(1)} KiB)`);
}

await main();
