// Smoke run of the retrieval benchmark (bench/retrieval) end to end through the real server on the
// bundled example workspace examples/acme-shop (no download): the javac oracle picks the tasks,
// the server answers every mode, the report has the expected structure and sane values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCorpus, MODES, type CorpusReport } from '../../bench/retrieval/run';
import { corpusTable, kneeOf, svgReport, sweepSvg, sweepTable } from '../../bench/retrieval/report';
import { eligibleTasks, loadOracle, maskText, MASKED_BODY } from '../../bench/retrieval/tasks';
import { readFileSync } from 'node:fs';
import { repoRoot } from '../helpers/repoRoot';
import { JDK, requires } from '../helpers/prerequisites';

/** The tasks come from the javac oracle. */
const NEEDS_JDK = requires(JDK);


const root = repoRoot();
const sourceRoot = join(root, 'examples', 'acme-shop', 'src', 'main', 'java');
const inUnit = (x: number) => Number.isFinite(x) && x >= 0 && x <= 1;

test('tasks: eligible methods have ≥ 2 gold symbols, one in another file; masking empties the body', { skip: NEEDS_JDK.skip }, async () => {
  NEEDS_JDK.assertPresent();
  const o = await loadOracle(root, sourceRoot);
  const tasks = eligibleTasks(o);
  assert.ok(tasks.length >= 5, `enough tasks in acme-shop (${tasks.length})`);
  for (const t of tasks) {
    assert.ok(t.gold.length >= 2 && t.gold.some((g) => g.crossFile), t.id);
    const original = readFileSync(join(sourceRoot, t.file), 'utf8');
    const kept = maskText(original, t.body, 'kept');
    assert.equal(kept.slice(t.body.startOffset, t.body.startOffset + MASKED_BODY.length), MASKED_BODY);
    assert.equal(kept.length, original.length - (t.body.endOffset - t.body.startOffset) + MASKED_BODY.length);
    // the default protocol blanks imports only the body used, on the same lines
    const masked = maskText(original, t.body);
    assert.equal(masked.split('\n').length, kept.split('\n').length, t.id);
    // same-file gold lines still point at the declaration after masking
    const lines = masked.split(/\r?\n/);
    for (const g of t.gold.filter((x) => !x.crossFile)) assert.equal(lines[g.maskedLine].trim(), g.lineText, `${t.id} -> ${g.qualified}`);
  }
});

test('retrieval bench runs end to end on acme-shop through the server', { timeout: 300_000, skip: NEEDS_JDK.skip }, async () => {
  NEEDS_JDK.assertPresent();
  const budget = 4000;
  const r: CorpusReport = await runCorpus({ root, name: 'acme-shop', sourceRoot, test: 4, validation: 3, budgetTokens: budget, budgets: [1000, budget], settleMs: 100 });
  assert.deepEqual(r.errors, []);
  assert.equal(r.tasks.test, 4);
  assert.equal(r.tasks.validation, 3);
  assert.ok(r.files > 0 && r.indexMs > 0);
  for (const m of MODES) {
    const x = r.modes[m];
    assert.equal(x.tasks, 4, m);
    for (const v of [x.recallMicro, x.recallMacro, x.recallStrict, x.crossFileRecall, x.fullCoverageRate, x.mrr, x.noiseRatio, x.lineNoiseRatio]) assert.ok(inUnit(v), `${m}: ${v}`);
    assert.ok(x.recallStrict <= x.recallMicro + 1e-12, m);
    for (const v of Object.values(x.recallByKind)) assert.ok(v === null || inUnit(v), m);
    assert.ok(x.tokensMax <= budget, `${m}: tokens ${x.tokensMax} ≤ ${budget}`);
    assert.ok(x.latencyP50Ms >= 0 && x.latencyP95Ms >= x.latencyP50Ms, m);
  }
  for (const row of r.perTask) for (const s of Object.values(row.scores)) assert.ok(s.tokens <= budget && s.found <= s.gold);
  assert.ok(r.oracle.tokensMean > 0);
  assert.equal(r.determinism.checked, 7);
  assert.equal(kneeOf([{ tokens: 100, recall: 0.2 }, { tokens: 300, recall: 0.8 }, { tokens: 1000, recall: 0.85 }]), 1);
  assert.equal(r.determinism.share, 1);
  assert.ok(inUnit(r.gate.reviewOverhead) && inUnit(r.gate.coverageMAE));
  assert.ok(r.gate.auroc === null || inUnit(r.gate.auroc));
  assert.equal(r.calibration.points, 3);
  assert.ok(r.calibration.curve.length >= 20 && inUnit(r.calibration.tau));
  assert.ok(r.peakRssMB === undefined || r.peakRssMB > 0);
  assert.match(corpusTable(r), /rcl/);
  assert.match(svgReport([r]), /^<svg[\s\S]*<\/svg>$/);
  // The sweep: every mode at both budgets on test, rcl alone on validation; the main budget's point is the main run.
  assert.deepEqual(r.sweep.filter((p) => p.split === 'test').map((p) => `${p.mode}@${p.budget}`).sort(), MODES.flatMap((m) => [`${m}@1000`, `${m}@${budget}`]).sort());
  assert.deepEqual(r.sweep.filter((p) => p.split === 'validation').map((p) => `${p.mode}@${p.budget}`), ['rcl@1000', `rcl@${budget}`]);
  for (const m of MODES) assert.deepEqual(r.sweep.find((p) => p.split === 'test' && p.mode === m && p.budget === budget)!.metrics, r.modes[m]);
  for (const p of r.sweep) assert.ok(p.metrics.tokensMax <= p.budget, `${p.mode}@${p.budget}`);
  assert.match(sweepTable(r, 'test'), /structural/);
  assert.match(sweepSvg([r]), /^<svg[\s\S]*polyline[\s\S]*<\/svg>$/);
});
