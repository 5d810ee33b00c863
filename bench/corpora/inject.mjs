#!/usr/bin/env node
// The "injected private APIs" transform of the RCL paper (§5 Benchmark Construction): rename a
// public corpus's package root and its most-used utility APIs to a synthetic organisation's names,
// so that the renamed symbols are absent from any model's pretraining data by construction.
//
//   node bench/corpora/inject.mjs <corpusName> [--classes N] [--methods M] [--seed S]
//                                 [--root-package P] [--no-comments]
//
// Reads .cache/corpora/<name>/ (from fetch.mjs) and writes .cache/corpora/<name>-injected/ with
// the same layout (mainSourceRoot, needle-corpus.json) plus needle-injection.json (the rename map).
//
//  (a) the root package (the longest package prefix common to every file, or --root-package) is
//      renamed to com.<org>.<area>.<unit>; directories move accordingly; package and import
//      declarations and qualified names in code are rewritten at the positions the oracle reports;
//  (b) the N (default 12) most-referenced utility classes (top-level classes without instance
//      fields, >= 80 % static methods, >= 2 public static methods; ranked by oracle reference
//      count) get synthetic names (StringUtils -> ZxTextKit; the file is renamed), and in each the
//      M (default 3) most-referenced names of public static methods (all overloads of a name, when
//      every one is static) get synthetic names (isEmpty -> zxIsBlankish). Every rename is applied
//      at the oracle's exact declaration / reference / import positions, never by matching text, so
//      no unrelated identifier is touched.
//  (c) unless --no-comments, comments are updated too (they are not code; this is the only textual
//      rewrite): the old root package, the old class names as whole words, `Old.m` / `Old#m` and,
//      in the class's own file, `#m`.
// Finally the oracle runs on the injected tree: the number of declarations, references and import
// references, the error count and the multiset of (kind, from, target) under the rename map must
// all equal the original's, otherwise the script fails.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOracle } from '../oracle/oracle.mjs';
import { prngFromString } from '../../scripts/lib/prng.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = join(ROOT, '.cache');
const CORPORA = join(CACHE, 'corpora');

class InjectError extends Error {}

// ------------------------------------------------------------------------------------------------
// Deterministic synthetic names

const prng = prngFromString;
const pick = (rand, list) => list[Math.floor(rand() * list.length)];

// Invented organisations: the class prefix (Zx...) and method prefix (zx...) make every generated
// name organisation-specific; none is a real public API name.
const ORGS = [
  { org: 'zentrix', prefix: 'Zx' }, { org: 'quorvane', prefix: 'Qv' },
  { org: 'velmora', prefix: 'Vm' }, { org: 'brimholt', prefix: 'Bh' },
];
const AREAS = ['kernel', 'platform', 'foundation', 'corekit'];
const UNITS = ['lang', 'weave', 'loom', 'strata', 'quill', 'fabric'];
// Camel-case words of the original names -> synthetic stand-ins (chosen by the seed). Words not
// listed become invented words, so no name is a copy of the original.
const WORDS = {
  string: ['Text', 'Chars', 'Prose'], str: ['Txt'], array: ['Row', 'Slab', 'Rack'], object: ['Thing', 'Item'],
  class: ['Kind', 'Breed'], char: ['Glyph', 'Rune'], boolean: ['Truth', 'Flag'], number: ['Digit', 'Numeral'],
  date: ['Day', 'Calendar'], time: ['Clock'], exception: ['Fault', 'Mishap'], reflection: ['Mirror'],
  type: ['Sort', 'Shape'], system: ['Host', 'Realm'], validate: ['Guard', 'Vet'], util: ['Kit', 'Works', 'Toolbox'],
  utils: ['Kit', 'Works', 'Toolbox'], matcher: ['Spotter', 'Finder'], set: ['Bag'], data: ['Payload'],
  entities: ['Escapes', 'Marks'], normalizer: ['Leveler', 'Smoother'], collector: ['Gatherer', 'Harvester'],
  is: ['Is'], has: ['Has'], not: ['Non'], empty: ['Blankish', 'Hollow'], blank: ['Vacant', 'Bare'],
  null: ['Void', 'Nil'], equals: ['Matches', 'Twins'], join: ['Splice', 'Knit'], split: ['Cleave', 'Shard'],
  trim: ['Shave'], contains: ['Holds', 'Harbors'], index: ['Slot', 'Spot'], of: ['Of'], to: ['Into'],
  get: ['Fetch', 'Grab'], check: ['Vet', 'Probe'], default: ['Fallback'], format: ['Render'], length: ['Span'],
  add: ['Append', 'Pile'], all: ['Every'], remove: ['Drop', 'Evict'], any: ['Some'], true: ['Yes'], false: ['No'],
  value: ['Val'], valid: ['Sound'], state: ['Status'], notempty: ['Filled'], in: ['Within'], clone: ['Copy'],
  reverse: ['Flip'], subarray: ['Slice'], insert: ['Wedge'], replace: ['Swap'], repeat: ['Echo'],
  abbreviate: ['Clip'], capitalize: ['Crown'], lower: ['Low'], upper: ['High'], case: ['Cased'], first: ['Lead'],
  last: ['Tail'], contents: ['Inner'], exclusive: ['Sole'], between: ['Amid'], matches: ['Fits'],
  no: ['Zero'], elements: ['Parts'], escape: ['Mask'], html: ['Markup'], normalise: ['Level'], lowercase: ['Lowly'],
  mime: ['Media'], charset: ['Encoding'], in_sorted: ['Ordered'], ensure: ['Assure'], collect: ['Gather'],
  borrow: ['Lend'], release: ['Yield'], builder: ['Forge'], resolve: ['Settle'], whitespace: ['Gaps'],
  append: ['Tack'], padding: ['Indent'], java: ['Runtime'], version: ['Release'], at: ['At'], least: ['Minimum'],
};
const INVENTED = ['Quillet', 'Vexel', 'Morrow', 'Tarnel', 'Glimset', 'Fennick', 'Orvane', 'Sablet', 'Wickern',
  'Brindle', 'Corvel', 'Dunmore', 'Elvar', 'Frisk', 'Grell', 'Harrow', 'Istle', 'Jorvik', 'Kestral', 'Lunet'];

function camelWords(name) {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(/[\s_$]+/).filter(Boolean);
}
const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);

class Namer {
  constructor(seed, taken) {
    this.rand = prng(seed);
    this.taken = taken; // every identifier of the corpus and every name generated so far
    const o = pick(this.rand, ORGS);
    this.org = o.org;
    this.prefix = o.prefix;
    this.area = pick(this.rand, AREAS);
    this.unit = pick(this.rand, UNITS);
  }

  rootPackage() { return `com.${this.org}.${this.area}.${this.unit}`; }

  word(w) {
    const options = WORDS[w.toLowerCase()];
    return options ? pick(this.rand, options) : pick(this.rand, INVENTED);
  }

  unique(base) {
    let name = base;
    while (this.taken.has(name)) name = `${base}${pick(this.rand, INVENTED)}`;
    this.taken.add(name);
    return name;
  }

  typeName(original) { return this.unique(this.prefix + camelWords(original).map((w) => this.word(w)).join('')); }

  methodName(original) {
    const words = camelWords(original).map((w) => this.word(w));
    if (words.length === 1) words.push(pick(this.rand, INVENTED)); // isX-like names keep a two-word shape
    return this.unique(this.prefix.toLowerCase() + words.join(''));
  }
}

// ------------------------------------------------------------------------------------------------
// Source text helpers

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) { if (text.charCodeAt(i + 1) === 10) i++; starts.push(i + 1); } else if (c === 10) starts.push(i + 1);
  }
  return starts;
}

/** Comment spans [start, end) of a Java source (strings, chars and text blocks skipped). */
function commentSpans(text) {
  const spans = [];
  const n = text.length;
  for (let i = 0; i < n;) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      let e = i; while (e < n && text[e] !== '\n' && text[e] !== '\r') e++;
      spans.push([i, e]); i = e;
    } else if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2); const end = e < 0 ? n : e + 2;
      spans.push([i, end]); i = end;
    } else if (c === '"' && text.startsWith('"""', i)) {
      const e = text.indexOf('"""', i + 3); i = e < 0 ? n : e + 3;
    } else if (c === '"' || c === "'") {
      i++; while (i < n && text[i] !== c && text[i] !== '\n') { if (text[i] === '\\') i++; i++; } i++;
    } else i++;
  }
  return spans;
}

const IDENT = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]/u;
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Offsets of the first k identifiers of a dotted name starting at `from` -> [start, end of k-th). */
function dottedPrefixSpan(text, from, segments) {
  let i = from;
  let end = -1;
  for (let k = 0; k < segments.length; k++) {
    if (k > 0) {
      while (/\s/.test(text[i])) i++;
      if (text[i] !== '.') return null;
      i++;
      while (/\s/.test(text[i])) i++;
    }
    if (!text.startsWith(segments[k], i) || IDENT.test(text[i + segments[k].length] ?? '')) return null;
    i += segments[k].length;
    end = i;
  }
  return [from, end];
}

// ------------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const opts = { classes: 12, methods: 3, seed: 'needle', rootPackage: undefined, comments: true };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--classes') opts.classes = Number(argv[++i]);
    else if (a === '--methods') opts.methods = Number(argv[++i]);
    else if (a === '--seed') opts.seed = argv[++i];
    else if (a === '--root-package') opts.rootPackage = argv[++i];
    else if (a === '--no-comments') opts.comments = false;
    else if (a.startsWith('--')) throw new InjectError(`unknown option ${a}`);
    else rest.push(a);
  }
  if (rest.length !== 1) throw new InjectError('usage: node bench/corpora/inject.mjs <corpusName> [--classes N] [--methods M] [--seed S] [--root-package P] [--no-comments]');
  if (!(opts.classes >= 0) || !(opts.methods >= 0)) throw new InjectError('--classes and --methods take a number');
  return { name: rest[0], ...opts };
}

function packageOf(qualifiedType, simpleName) {
  return qualifiedType.length > simpleName.length ? qualifiedType.slice(0, qualifiedType.length - simpleName.length - 1) : '';
}

function commonPackagePrefix(packages) {
  let prefix = null;
  for (const p of packages) {
    const segs = p.split('.');
    if (prefix === null) { prefix = segs; continue; }
    let k = 0;
    while (k < prefix.length && k < segs.length && prefix[k] === segs[k]) k++;
    prefix = prefix.slice(0, k);
  }
  return (prefix ?? []).join('.');
}

function countBy(list, key) {
  const m = new Map();
  for (const x of list) { const k = key(x); if (k !== undefined) m.set(k, (m.get(k) ?? 0) + 1); }
  return m;
}

/** Chooses the classes and method families to rename, ranked by oracle reference counts. */
function chooseRenames(oracle, opts) {
  const decls = oracle.declarations;
  const members = new Map();
  for (const d of decls) if (d.owner) (members.get(d.owner) ?? members.set(d.owner, []).get(d.owner)).push(d);
  const uses = [...oracle.references, ...oracle.imports];
  const typeRefs = countBy(uses, (r) => r.target.split('#')[0]);
  const utility = decls.filter((d) => {
    if (d.kind !== 'class' || d.owner !== '') return false;
    const ms = members.get(d.qualified) ?? [];
    const methods = ms.filter((m) => m.kind === 'method');
    const statics = methods.filter((m) => m.modifiers.includes('static'));
    const publicStatics = statics.filter((m) => m.modifiers.includes('public'));
    const instanceFields = ms.filter((m) => m.kind === 'field' && !m.modifiers.includes('static'));
    return instanceFields.length === 0 && publicStatics.length >= 2 && statics.length >= 0.8 * methods.length;
  });
  utility.sort((a, b) => (typeRefs.get(b.qualified) ?? 0) - (typeRefs.get(a.qualified) ?? 0) || (a.qualified < b.qualified ? -1 : 1));
  const classes = utility.slice(0, opts.classes).filter((d) => (typeRefs.get(d.qualified) ?? 0) > 0);
  const familyRefs = countBy(uses, (r) => {
    if (r.kind === 'member') return r.target;
    if (r.kind !== 'call' && r.kind !== 'methodRef') return undefined;
    const i = r.target.indexOf('(');
    return i < 0 ? undefined : r.target.slice(0, i);
  });
  return classes.map((c) => {
    const byName = new Map();
    for (const m of members.get(c.qualified) ?? []) {
      if (m.kind === 'method') (byName.get(m.name) ?? byName.set(m.name, []).get(m.name)).push(m);
    }
    const families = [...byName.entries()]
      .filter(([, ms]) => ms.every((m) => m.modifiers.includes('static')) && ms.some((m) => m.modifiers.includes('public')))
      .map(([name, ms]) => ({ name, overloads: ms.length, refs: familyRefs.get(`${c.qualified}#${name}`) ?? 0 }))
      .filter((f) => f.refs > 0)
      .sort((a, b) => b.refs - a.refs || (a.name < b.name ? -1 : 1))
      .slice(0, opts.methods);
    return { decl: c, refs: typeRefs.get(c.qualified) ?? 0, families };
  });
}

export async function inject(name, opts = {}) {
  opts = { classes: 12, methods: 3, seed: 'needle', comments: true, ...opts };
  const srcDir = join(CORPORA, name);
  const metaPath = join(srcDir, 'needle-corpus.json');
  if (!existsSync(metaPath)) throw new InjectError(`no corpus ${name} at ${srcDir} (run: node bench/corpora/fetch.mjs)`);
  const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
  const srcRoot = join(srcDir, meta.mainSourceRoot);
  const outName = `${name}-injected`;
  const outDir = join(CORPORA, outName);

  let t = Date.now();
  const oracle = JSON.parse(readFileSync(await runOracle(srcRoot, { cacheDir: CACHE, out: join(CACHE, 'oracle', 'out', `${name}.json`), quiet: true }), 'utf8'));
  log(`oracle on ${name}: ${oracle.declarations.length} declarations, ${oracle.references.length} references, ${oracle.errors} errors (${Date.now() - t} ms)`);

  // (a) the root package
  const filePackages = new Map(); // file -> package
  for (const d of oracle.declarations) if (d.owner === '') filePackages.set(d.file, packageOf(d.qualified, d.name));
  const oldRoot = opts.rootPackage ?? commonPackagePrefix([...filePackages.values()]);
  if (!oldRoot) throw new InjectError(`${name}: its files share no package prefix; pass --root-package`);
  const texts = new Map(oracle.files.map((f) => [f, readFileSync(join(srcRoot, f), 'utf8')]));
  const taken = new Set();
  for (const text of texts.values()) for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) taken.add(m[0]);
  const namer = new Namer(`${opts.seed}:${name}`, taken);
  const newRoot = namer.rootPackage();

  // (b) classes and method families
  const chosen = chooseRenames(oracle, opts);
  const typeMap = new Map(); // old qualified -> { oldSimple, newSimple, oldQ }
  const familyMap = new Map(); // `${oldQ}#${name}` -> new name
  for (const c of chosen) {
    c.newName = namer.typeName(c.decl.name);
    typeMap.set(c.decl.qualified, { oldSimple: c.decl.name, newSimple: c.newName });
    for (const f of c.families) {
      f.newName = namer.methodName(f.name);
      familyMap.set(`${c.decl.qualified}#${f.name}`, f.newName);
    }
  }

  // edits per file: { offset, old, new }
  const edits = new Map(oracle.files.map((f) => [f, []]));
  const starts = new Map([...texts].map(([f, text]) => [f, lineStarts(text)]));
  const at = (x) => starts.get(x.file)[x.line] + x.col;
  const edit = (x, oldText, newText) => edits.get(x.file).push({ offset: at(x), old: oldText, new: newText });
  const rootSegs = oldRoot.split('.');
  for (const p of oracle.packages) {
    if (p.name !== oldRoot && !p.name.startsWith(`${oldRoot}.`)) continue;
    const text = texts.get(p.file);
    const span = dottedPrefixSpan(text, at(p), rootSegs);
    if (!span) throw new InjectError(`${p.file}:${p.line + 1}: package name ${p.name} not found at the oracle position`);
    edits.get(p.file).push({ offset: span[0], old: text.slice(span[0], span[1]), new: newRoot });
  }
  for (const d of oracle.declarations) {
    const ty = typeMap.get(d.qualified) ?? (d.kind === 'constructor' ? typeMap.get(d.owner) : undefined);
    if (ty && d.kind !== 'method') edit(d, ty.oldSimple, ty.newSimple);
    if (d.kind === 'method' && familyMap.has(`${d.owner}#${d.name}`)) edit(d, d.name, familyMap.get(`${d.owner}#${d.name}`));
  }
  for (const r of [...oracle.references, ...oracle.imports]) {
    const owner = r.target.split('#')[0];
    const ty = typeMap.get(owner);
    if ((r.kind === 'type' || r.kind === 'new') && ty && r.name === ty.oldSimple) edit(r, ty.oldSimple, ty.newSimple);
    if (r.kind === 'call' || r.kind === 'methodRef' || r.kind === 'member') {
      const fam = familyMap.get(`${owner}#${r.name}`);
      if (fam && (r.kind === 'member' || r.target.startsWith(`${owner}#${r.name}(`))) edit(r, r.name, fam);
    }
  }

  // (c) comments
  if (opts.comments) {
    const typeOfFile = new Map();
    for (const d of oracle.declarations) if (typeMap.has(d.qualified)) typeOfFile.set(d.file, d.qualified);
    const rules = [
      { re: new RegExp(`(?:(?<=\\[L)|(?<![\\w$.]))${escapeRe(oldRoot)}(?![\\w$])`, 'gu'), to: () => newRoot },
      { re: new RegExp(`(?<![\\w$/])${escapeRe(oldRoot.replace(/\./g, '/'))}(?![\\w$])`, 'gu'), to: () => newRoot.replace(/\./g, '/') },
    ];
    for (const [q, ty] of typeMap) {
      for (const [key, newM] of familyMap) {
        if (!key.startsWith(`${q}#`)) continue;
        const m = key.slice(q.length + 1);
        rules.push({ re: new RegExp(`(?<![\\w$])${escapeRe(ty.oldSimple)}([.#])${escapeRe(m)}(?![\\w$])`, 'gu'), to: (x) => `${ty.newSimple}${x[1]}${newM}` });
        rules.push({ re: new RegExp(`(?<![\\w$])#${escapeRe(m)}(?![\\w$])`, 'gu'), to: () => `#${newM}`, onlyIn: q });
      }
      rules.push({ re: new RegExp(`(?<![\\w$])${escapeRe(ty.oldSimple)}(?![\\w$])`, 'gu'), to: () => ty.newSimple });
    }
    for (const [file, text] of texts) {
      for (const [s, e] of commentSpans(text)) {
        const taken = [];
        for (const rule of rules) {
          if (rule.onlyIn && typeOfFile.get(file) !== rule.onlyIn) continue;
          rule.re.lastIndex = 0;
          const body = text.slice(s, e);
          for (const m of body.matchAll(rule.re)) {
            const off = s + m.index;
            if (taken.some(([a, b]) => off < b && a < off + m[0].length)) continue; // an earlier rule rewrote it
            taken.push([off, off + m[0].length]);
            edits.get(file).push({ offset: off, old: m[0], new: rule.to(m) });
          }
        }
      }
    }
  }

  // apply, move, write
  const rootDir = oldRoot.replace(/\./g, '/');
  const newRootDir = newRoot.replace(/\./g, '/');
  const movePath = (rel) => (rel === rootDir || rel.startsWith(`${rootDir}/`) ? newRootDir + rel.slice(rootDir.length) : rel);
  const fileRenames = new Map();
  for (const [q, ty] of typeMap) {
    const d = oracle.declarations.find((x) => x.qualified === q);
    if (d.file.endsWith(`/${ty.oldSimple}.java`) || d.file === `${ty.oldSimple}.java`) {
      fileRenames.set(d.file, `${d.file.slice(0, d.file.length - ty.oldSimple.length - 5)}${ty.newSimple}.java`);
    }
  }
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const outRoot = join(tmp, meta.mainSourceRoot);
  mkdirSync(outRoot, { recursive: true });
  let editCount = 0;
  for (const [file, text] of texts) {
    const list = edits.get(file).sort((a, b) => b.offset - a.offset);
    let out = text;
    let prev = Infinity;
    for (const e of list) {
      if (text.slice(e.offset, e.offset + e.old.length) !== e.old) {
        throw new InjectError(`${file}@${e.offset}: expected '${e.old}', found '${text.slice(e.offset, e.offset + e.old.length)}'`);
      }
      if (e.offset + e.old.length > prev) throw new InjectError(`${file}@${e.offset}: overlapping edits`);
      out = out.slice(0, e.offset) + e.new + out.slice(e.offset + e.old.length);
      prev = e.offset;
      editCount++;
    }
    const target = join(outRoot, movePath(fileRenames.get(file) ?? file));
    if (existsSync(target)) throw new InjectError(`two files map to ${target}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, out);
  }
  // non-Java files under the source root move with their package; licence files come along
  (function copyOthers(dir) {
    for (const entry of readdirSync(dir).sort()) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) copyOthers(full);
      else if (!entry.endsWith('.java')) {
        const rel = relative(srcRoot, full).split('\\').join('/');
        const target = join(outRoot, movePath(rel));
        mkdirSync(dirname(target), { recursive: true });
        cpSync(full, target);
      }
    }
  })(srcRoot);
  for (const entry of readdirSync(srcDir)) {
    if (/^(LICENSE|NOTICE|COPYING)/i.test(entry) && statSync(join(srcDir, entry)).isFile()) cpSync(join(srcDir, entry), join(tmp, entry));
  }

  const injection = {
    corpus: name, seed: opts.seed, organisation: namer.org,
    rootPackage: { from: oldRoot, to: newRoot },
    classes: chosen.map((c) => ({
      from: c.decl.qualified, to: mapQualified(c.decl.qualified), references: c.refs,
      file: { from: c.decl.file, to: movePath(fileRenames.get(c.decl.file) ?? c.decl.file) },
      methods: c.families.map((f) => ({ from: f.name, to: f.newName, overloads: f.overloads, references: f.refs })),
    })),
  };
  function mapQualified(q) {
    const hash = q.indexOf('#');
    let type = hash < 0 ? q : q.slice(0, hash);
    let member = hash < 0 ? '' : q.slice(hash + 1);
    for (const [oq, ty] of typeMap) {
      if (member && type === oq) {
        const paren = member.indexOf('(');
        const mname = member.slice(0, paren); // only methods and constructors (fields may share a method's name)
        if (paren >= 0 && familyMap.has(`${oq}#${mname}`)) member = familyMap.get(`${oq}#${mname}`) + member.slice(paren);
        else if (paren >= 0 && mname === ty.oldSimple) member = ty.newSimple + member.slice(paren); // constructor
      }
      if (type === oq || type.startsWith(`${oq}.`)) type = oq.slice(0, oq.length - ty.oldSimple.length) + ty.newSimple + type.slice(oq.length);
    }
    if (type === oldRoot || type.startsWith(`${oldRoot}.`)) type = newRoot + type.slice(oldRoot.length);
    const paren = member.indexOf('(');
    if (paren >= 0) {
      const params = member.slice(paren + 1, -1).split(',').filter(Boolean).map((p) => {
        const base = p.replace(/(\[\])+$/, '');
        const ty = [...typeMap.values()].find((x) => x.oldSimple === base);
        return ty ? ty.newSimple + p.slice(base.length) : p;
      });
      member = `${member.slice(0, paren)}(${params.join(',')})`;
    }
    return member ? `${type}#${member}` : type;
  }

  const newMeta = {
    ...meta, name: outName, mainSourceRoot: meta.mainSourceRoot, derivedFrom: name, injection: 'needle-injection.json',
  };
  writeFileSync(join(tmp, 'needle-injection.json'), `${JSON.stringify(injection, null, 2)}\n`);
  writeFileSync(join(tmp, 'needle-corpus.json'), `${JSON.stringify(newMeta, null, 2)}\n`);
  rmSync(outDir, { recursive: true, force: true });
  renameSync(tmp, outDir);
  log(`wrote ${outDir}: root ${oldRoot} -> ${newRoot}, ${chosen.length} classes, ${familyMap.size} method names, ${editCount} edits`);
  for (const c of injection.classes) log(`  ${c.from} -> ${c.to} [${c.methods.map((m) => `${m.from}->${m.to}`).join(', ')}]`);

  // verification: the injected tree must resolve exactly like the original
  t = Date.now();
  const after = JSON.parse(readFileSync(await runOracle(join(outDir, meta.mainSourceRoot), { cacheDir: CACHE, out: join(CACHE, 'oracle', 'out', `${outName}.json`), quiet: true }), 'utf8'));
  log(`oracle on ${outName}: ${after.declarations.length} declarations, ${after.references.length} references, ${after.errors} errors (${Date.now() - t} ms)`);
  const summary = {
    references: [oracle.references.length, after.references.length],
    declarations: [oracle.declarations.length, after.declarations.length],
    imports: [oracle.imports.length, after.imports.length],
    errors: [oracle.errors, after.errors],
  };
  console.log(`references resolved: original ${summary.references[0]}, injected ${summary.references[1]}`);
  const problems = Object.entries(summary).filter(([, [a, b]]) => a !== b).map(([k, [a, b]]) => `${k}: ${a} vs ${b}`);
  const key = (r) => `${r.kind} ${r.from} -> ${r.target}`;
  const expected = oracle.references.map((r) => key({ ...r, from: mapQualified(r.from), target: mapQualified(r.target) })).sort();
  const actual = after.references.map(key).sort();
  const diff = multisetDiff(expected, actual);
  if (diff.length) problems.push(`${diff.length} references differ under the rename map, e.g.\n    ${diff.slice(0, 8).join('\n    ')}`);
  if (problems.length) throw new InjectError(`injected corpus does not resolve like the original:\n  ${problems.join('\n  ')}`);
  return { outDir, injection, summary };
}

function multisetDiff(a, b) {
  const m = new Map();
  for (const x of a) m.set(x, (m.get(x) ?? 0) + 1);
  for (const x of b) m.set(x, (m.get(x) ?? 0) - 1);
  return [...m].filter(([, n]) => n !== 0).map(([x, n]) => `${n > 0 ? 'missing' : 'extra'} ${x}`);
}

function log(msg) { process.stderr.write(`[inject] ${msg}\n`); }

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { name, ...opts } = parseArgs(process.argv.slice(2));
    const { outDir } = await inject(name, opts);
    console.log(outDir);
  } catch (e) {
    process.stderr.write(`inject.mjs: ${e instanceof InjectError ? e.message : e.stack}\n`);
    process.exit(1);
  }
}
