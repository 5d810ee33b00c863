// npm run fuzz — the long robustness run (not part of npm test; needs the corpora for most of it:
// `node bench/corpora/fetch.mjs`). Seeded and reproducible; prints the counts of every stage.
//   node scripts/fuzz.mjs [--cases 10000] [--seed 7] [--sequences 1000] [--indexer-sequences 300]
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const root = process.cwd();
const cases = arg('cases', '10000');
const seed = arg('seed', '7');
const corpora = ['commons-lang3', 'jsoup', 'jdk-java.base'].map((c) => join(root, '.cache/corpora', c)).filter((d) => existsSync(d));
if (!corpora.length) console.log('fuzz: no corpora in .cache/corpora (node bench/corpora/fetch.mjs); mutating examples/acme-shop only');
const report = join(root, '.cache', `fuzz-report-${process.pid}.jsonl`);
rmSync(report, { force: true });

const stages = [
  ['broken code (truncations of every corpus file + mutations)', '/robustness/broken-code', { NEEDLE_FUZZ_CASES: cases, NEEDLE_FUZZ_SEED: seed, NEEDLE_FUZZ_CORPORA: corpora.join(','), NEEDLE_FUZZ_INDEX_ROOTS: corpora.filter((d) => !d.endsWith('jdk-java.base')).join(','), NEEDLE_FUZZ_SERVER_CASES: '100', NEEDLE_FUZZ_MAX_WORD: '50000' }],
  ['incremental property (WorkspaceIndex)', '/index/incremental', { NEEDLE_FUZZ_SEQUENCES: arg('sequences', '1000') }],
  ['Indexer sequences on real files', '/robustness/indexer-sequences', { NEEDLE_FUZZ_INDEXER_SEQUENCES: arg('indexer-sequences', '300') }],
  ['secrets (3 rounds, every planted Java secret)', '/robustness/secrets', { NEEDLE_SECRET_ROUNDS: '3', NEEDLE_SECRET_STRIDE: '1', NEEDLE_FUZZ_SEED: seed }],
];
const results = [];
for (const [name, filter, env] of stages) {
  const t0 = Date.now();
  console.log(`\n=== ${name}`);
  const r = spawnSync(process.execPath, ['scripts/test.mjs', filter], { stdio: 'inherit', env: { ...process.env, ...env, NEEDLE_FUZZ_REPORT: report } });
  results.push({ name, ok: r.status === 0, seconds: Math.round((Date.now() - t0) / 1000) });
}
console.log('\n=== fuzz summary');
if (existsSync(report)) for (const line of readFileSync(report, 'utf8').split('\n').filter(Boolean)) console.log(line);
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.seconds} s)`);
rmSync(report, { force: true });
process.exit(results.every((r) => r.ok) ? 0 : 1);
