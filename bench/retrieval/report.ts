// Text tables and a hand-written SVG for the retrieval benchmark report.

import type { CalibrationReport, CorpusReport, SweepPoint } from './run';
import { MODES } from './run';
import { gateShareOfMedian, KINDS, type ModeMetrics } from './score';
import { eceNoiseFloor } from './calibration';
import { mulberry32 } from '../../scripts/lib/prng.mjs';

const f3 = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? '  -  ' : x.toFixed(3));
const f0 = (x: number | null | undefined, w = 6) => (x === null || x === undefined || Number.isNaN(x) ? '-' : String(Math.round(x))).padStart(w);

export function corpusTable(r: CorpusReport): string {
  const out: string[] = [];
  out.push(`\n${r.name}: ${r.tasks.test} test + ${r.tasks.validation} validation tasks of ${r.eligibleTasks} eligible; budget ${r.budgetTokens}; ` +
    `index ${r.indexMs} ms to ready (server ${r.serverIndexMs ?? '-'} ms), ${r.files} files, ${r.symbols} symbols; server peak RSS ${r.peakRssMB ?? '-'} MB`);
  if (r.serverWorkaround) out.push(`  note: ${r.serverWorkaround}`);
  out.push('  mode        recall  macro  strict xfile  full    MRR    meth   ctor  field   type   tok-mean tok-med  noise  lnoise  p50ms  p95ms');
  for (const m of MODES) {
    const x = r.modes[m];
    if (!x) continue;
    out.push(`  ${m.padEnd(10)} ${f3(x.recallMicro)}  ${f3(x.recallMacro)}  ${f3(x.recallStrict)}  ${f3(x.crossFileRecall)}  ${f3(x.fullCoverageRate)}  ${f3(x.mrr)}  ` +
      KINDS.map((k) => f3(x.recallByKind[k])).join('  ') +
      `  ${f0(x.tokensMean, 8)} ${f0(x.tokensMedian, 7)}  ${f3(x.noiseRatio)}  ${f3(x.lineNoiseRatio)} ${f0(x.latencyP50Ms, 6)} ${f0(x.latencyP95Ms, 6)}`);
  }
  out.push(`  ${'oracle'.padEnd(10)} 1.000  1.000  1.000  1.000  1.000  1.000  ${KINDS.map(() => '1.000').join('  ')}  ${f0(r.oracle.tokensMean, 8)} ${f0(r.oracle.tokensMedian, 7)}  0.000  0.000   (gold name lines only; ${r.oracle.goldMean.toFixed(1)} gold/task)`);
  const g = r.gate, c = r.gateCalibrated, fu = r.followup;
  const rcl = r.modes.rcl;
  if (rcl) out.push(`  gate latency: median server time ${f0(rcl.serverMedianMs, 0)} ms, the gate stage is ${(100 * rcl.gateShareOfMedian).toFixed(1)} % of the median request and adds ${(100 * rcl.gateOverheadMedian).toFixed(1)} % to it (per request: median ${(100 * rcl.gateOverheadPerRequestMedian).toFixed(1)} %)`);
  out.push(`  follow-up rounds fired on ${fu.triggered} test tasks: recall there ${f3(fu.recallWithout)} -> ${f3(fu.recallWith)} (maxRounds 0 -> 2), tokens ${Math.round(fu.tokensWithout)} -> ${Math.round(fu.tokensWith)}`);
  // The issue states both targets as shares of all tasks; the rates before them are per class.
  const ofTasks = (n: number) => `${n}/${rcl?.tasks ?? '-'}`;
  out.push(`  gate rcl @ server τ=${f3(g.threshold)}: AUROC ${f3(g.auroc)}  false-confidence ${f3(g.falseConfidenceRate)} (${ofTasks(g.falseConfidenceCount)} tasks)  false-review ${f3(g.falseReviewRate)} (${ofTasks(g.falseReviewCount)} tasks)  review overhead ${f3(g.reviewOverhead)}  coverage MAE ${f3(g.coverageMAE)}`);
  out.push(`  gate rcl @ calibrated τ=${c.tau.toFixed(2)}: false-confidence ${f3(c.falseConfidenceRate)} (${c.falseConfidenceCount})  false-review ${f3(c.falseReviewRate)} (${c.falseReviewCount})  review overhead ${f3(c.reviewOverhead)}`);
  const fields = new Map<string, number>();
  for (const d of r.determinism.differing) for (const f of d.fields) fields.set(f, (fields.get(f) ?? 0) + 1);
  out.push(`  determinism (rcl repeated, JSON minus timingsMs): ${f3(r.determinism.share)} of ${r.determinism.checked}` +
    (fields.size ? `; differing fields: ${[...fields].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}` : ''));
  if (r.errors.length) out.push(`  errors: ${r.errors.length} (first: ${r.errors[0].mode} ${r.errors[0].task}: ${r.errors[0].message.split('\n')[0]})`);
  if (r.tasks.skipped.length) out.push(`  skipped: ${r.tasks.skipped.length} (first: ${r.tasks.skipped[0].task}: ${r.tasks.skipped[0].reason})`);
  return out.join('\n');
}

/** The budget sweep of one corpus: recall, full coverage, median tokens and line noise per mode and budget. */
export function sweepTable(r: CorpusReport, split: 'test' | 'validation'): string {
  const pts = r.sweep.filter((p) => p.split === split);
  if (!pts.length) return '';
  const budgets = [...new Set(pts.map((p) => p.budget))].sort((a, b) => a - b);
  const out = [`\n${r.name} budget sweep (${split}): recall / full coverage / median tokens / line noise`, `  mode       ${budgets.map((b) => String(b).padStart(24)).join('')}`];
  for (const m of MODES) {
    const cells = budgets.map((b) => {
      const x = pts.find((p) => p.mode === m && p.budget === b)?.metrics;
      return (x ? `${f3(x.recallMicro)}/${f3(x.fullCoverageRate)}/${f0(x.tokensMedian, 4)}/${f3(x.lineNoiseRatio)}` : '-').padStart(24);
    });
    if (pts.some((p) => p.mode === m)) out.push(`  ${m.padEnd(10)} ${cells.join('')}`);
  }
  return out.join('\n');
}

/** Pooled micro recall and mean/median tokens of sweep points' underlying metrics, weighted by tasks. */
export interface CurvePoint { budget: number; recall: number; fullCoverage: number; tokensMean: number; tokensMedianOfCorpora: number; tasks: number }

/** One mode's pooled curve over corpora (recall weighted by gold, tokens by tasks). */
export function pooledCurve(reports: CorpusReport[], split: 'test' | 'validation', mode: string): CurvePoint[] {
  const pts = reports.flatMap((r) => r.sweep.filter((p) => p.split === split && p.mode === mode));
  const budgets = [...new Set(pts.map((p) => p.budget))].sort((a, b) => a - b);
  return budgets.map((budget) => {
    const at = pts.filter((p) => p.budget === budget).map((p) => p.metrics);
    const tasks = at.reduce((a, x) => a + x.tasks, 0);
    const w = (f: (x: ModeMetrics) => number) => at.reduce((a, x) => a + f(x) * x.tasks, 0) / (tasks || 1);
    const med = at.map((x) => x.tokensMedian).sort((a, b) => a - b);
    return { budget, recall: w((x) => x.recallMicro), fullCoverage: w((x) => x.fullCoverageRate), tokensMean: w((x) => x.tokensMean), tokensMedianOfCorpora: med[med.length >> 1] ?? NaN, tasks };
  });
}

/**
 * The knee of a recall–tokens curve (Kneedle: both axes scaled to [0, 1] over the curve, the
 * point farthest above the chord from the first to the last point). Undefined for < 3 points.
 */
export function kneeOf(curve: { tokens: number; recall: number }[]): number | undefined {
  if (curve.length < 3) return undefined;
  const x0 = curve[0].tokens, x1 = curve[curve.length - 1].tokens, y0 = curve[0].recall, y1 = curve[curve.length - 1].recall;
  if (x1 <= x0 || y1 <= y0) return 0;
  let best = 0, bestGap = -Infinity;
  curve.forEach((p, i) => {
    const gap = (p.recall - y0) / (y1 - y0) - (p.tokens - x0) / (x1 - x0);
    if (gap > bestGap + 1e-12) { bestGap = gap; best = i; }
  });
  return best;
}

/** Per-corpus figures of one mode at the main budget and the spread between corpora. */
export function spreadTable(reports: CorpusReport[]): string {
  const out = ['\nper corpus (test, main budget): recall / full coverage / median tokens / line noise; spread = max − min recall'];
  for (const m of MODES) {
    const xs = reports.map((r) => ({ n: r.name, x: r.modes[m] })).filter((e) => e.x);
    if (!xs.length) continue;
    const rec = xs.map((e) => e.x.recallMicro);
    out.push(`  ${m.padEnd(10)} spread ${(Math.max(...rec) - Math.min(...rec)).toFixed(3)}  ` +
      xs.map((e) => `${e.n} ${f3(e.x.recallMicro)}/${f3(e.x.fullCoverageRate)}/${f0(e.x.tokensMedian, 0)}/${f3(e.x.lineNoiseRatio)}`).join('  '));
  }
  // What the rcl spread can say at these task counts, per split (injected variants aside: the same code as their originals).
  const own = reports.filter((r) => !r.name.endsWith('-injected'));
  for (const split of ['test', 'validation']) {
    const tasks = own.map((r) => r.perTask.filter((t) => t.split === split && t.scores.rcl).map((t) => ({ gold: t.scores.rcl.gold, found: t.scores.rcl.found })));
    if (own.length < 2 || !tasks.every((t) => t.length)) continue;
    const noise = spreadNoise(tasks);
    const rec = tasks.map(microRecall);
    out.push(`  rcl recall on the ${split} tasks [95 % bootstrap interval]: ${own.map((r, i) => `${r.name} ${f3(rec[i])} [${noise.intervals[i].map(f3).join('-')}] (${tasks[i].length})`).join('  ')}; spread ${f3(Math.max(...rec) - Math.min(...rec))}`);
    out.push(`    ${own.length} corpora of one and the same recall would spread ${f3(noise.nullMedian)} (median), up to ${f3(noise.null95)} (95th percentile) at these task counts: a smaller spread is not evidence of a difference`);
  }
  return out.join('\n');
}

/** Recall over tasks as the benchmark counts it (micro: found over gold, summed). */
function microRecall(tasks: readonly { gold: number; found: number }[]): number {
  let gold = 0, found = 0;
  for (const t of tasks) { gold += t.gold; found += t.found; }
  return gold ? found / gold : NaN;
}

/**
 * What a spread of recall between corpora can tell at their task counts: each corpus's 95 %
 * bootstrap interval (its tasks resampled with replacement), and the spread (max − min recall)
 * that corpora of one and the same recall would show, each drawing its count of tasks from all of
 * them pooled: its median and 95th percentile. Seeded, so a report says the same every run.
 */
export function spreadNoise(perCorpus: readonly (readonly { gold: number; found: number }[])[], draws = 2000, seed = 18): { intervals: [number, number][]; nullMedian: number; null95: number } {
  const rand = mulberry32(seed);
  const resample = <T>(from: readonly T[], n: number): T[] => Array.from({ length: n }, () => from[Math.floor(rand() * from.length)]);
  const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const intervals = perCorpus.map((tasks): [number, number] => {
    const rs = Array.from({ length: draws }, () => microRecall(resample(tasks, tasks.length))).sort((a, b) => a - b);
    return [quantile(rs, 0.025), quantile(rs, 0.975)];
  });
  const pooled = perCorpus.flat();
  const spreads = Array.from({ length: draws }, () => {
    const rs = perCorpus.map((tasks) => microRecall(resample(pooled, tasks.length)));
    return Math.max(...rs) - Math.min(...rs);
  }).sort((a, b) => a - b);
  return { intervals, nullMedian: quantile(spreads, 0.5), null95: quantile(spreads, 0.95) };
}

export function calibrationTable(label: string, c: CalibrationReport): string {
  const out = [`\ncalibration ${label} (${c.points} validation points, ${c.source}): τ  false-review / false-confidence`];
  const cells = c.curve.map((p) => `${p.tau.toFixed(2)} ${p.falseReviewRate.toFixed(2)}/${p.falseConfidenceRate.toFixed(2)}`);
  for (let i = 0; i < cells.length; i += 7) out.push('  ' + cells.slice(i, i + 7).join('   '));
  out.push(`  chosen τ = ${c.tau.toFixed(2)}`);
  return out.join('\n');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const COLORS: Record<string, string> = { similarity: '#1f77b4', fixedK: '#ff7f0e', structural: '#9467bd', rcl: '#2ca02c', oracle: '#7f7f7f' };
const PALETTE = ['#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22'];

/** Left: recall (micro) against mean tokens per corpus × mode; right: review overhead vs false confidence over τ. */
export function svgReport(reports: CorpusReport[], pooled?: CalibrationReport): string {
  const W = 1000, H = 460, pw = 400, ph = 320, top = 60;
  const panels = [{ x0: 70, title: 'required-symbol recall vs tokens (test split)' }, { x0: 570, title: 'gate: review overhead vs false confidence (validation, τ sweep)' }];
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  parts.push(`<text x="${W / 2}" y="22" text-anchor="middle" font-size="16">Needle retrieval benchmark</text>`);
  const maxTok = Math.max(1000, ...reports.flatMap((r) => MODES.map((m) => r.modes[m]?.tokensMean ?? 0)), ...reports.map((r) => r.oracle.tokensMean || 0));
  const xmax = Math.ceil(maxTok / 1000) * 1000;
  for (const [pi, p] of panels.entries()) {
    parts.push(`<text x="${p.x0 + pw / 2}" y="${top - 12}" text-anchor="middle" font-size="13">${esc(p.title)}</text>`);
    parts.push(`<rect x="${p.x0}" y="${top}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`);
    for (let i = 0; i <= 4; i++) {
      const y = top + ph - (i / 4) * ph;
      parts.push(`<line x1="${p.x0}" y1="${y}" x2="${p.x0 + pw}" y2="${y}" stroke="#ddd"/><text x="${p.x0 - 6}" y="${y + 4}" text-anchor="end">${(i / 4).toFixed(2)}</text>`);
      const x = p.x0 + (i / 4) * pw;
      const lab = pi === 0 ? String(Math.round((i / 4) * xmax)) : (i / 4).toFixed(2);
      parts.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${top + ph}" stroke="#eee"/><text x="${x}" y="${top + ph + 16}" text-anchor="middle">${lab}</text>`);
    }
    parts.push(`<text x="${p.x0 + pw / 2}" y="${top + ph + 34}" text-anchor="middle">${pi === 0 ? 'mean tokens per response' : 'review overhead (share flagged)'}</text>`);
    parts.push(`<text transform="translate(${p.x0 - 44},${top + ph / 2}) rotate(-90)" text-anchor="middle">${pi === 0 ? 'recall (micro)' : 'false-confidence rate'}</text>`);
  }
  const sx = (t: number) => panels[0].x0 + (t / xmax) * pw;
  const sy = (v: number) => top + ph - Math.max(0, Math.min(1, v)) * ph;
  reports.forEach((r, ri) => {
    const pts = [...MODES.filter((m) => r.modes[m]).map((m) => ({ m, t: r.modes[m].tokensMean, v: r.modes[m].recallMicro })), { m: 'oracle', t: r.oracle.tokensMean, v: 1 }];
    for (const q of pts) {
      if (!Number.isFinite(q.t) || !Number.isFinite(q.v)) continue;
      const x = sx(q.t), y = sy(q.v);
      const shape = ri % 2 === 0 ? `<circle cx="${x}" cy="${y}" r="5" fill="${COLORS[q.m]}"/>` : `<rect x="${x - 5}" y="${y - 5}" width="10" height="10" fill="${COLORS[q.m]}"/>`;
      parts.push(`${shape}<text x="${x + 7}" y="${y - 6}" font-size="10">${esc(`${r.name} ${q.m}`)}</text>`);
    }
  });
  let ly = top + ph + 52;
  parts.push(...Object.entries(COLORS).map(([m, c], i) => `<rect x="${panels[0].x0 + i * 95}" y="${ly}" width="10" height="10" fill="${c}"/><text x="${panels[0].x0 + i * 95 + 14}" y="${ly + 9}">${m}</text>`));
  // right panel: curves (reviewRate, falseConfidenceRate) per corpus (+ pooled), chosen τ marked
  const rx = (v: number) => panels[1].x0 + Math.max(0, Math.min(1, v)) * pw;
  const curves: { label: string; c: CalibrationReport }[] = reports.map((r) => ({ label: r.name, c: r.calibration }));
  if (pooled) curves.push({ label: 'pooled', c: pooled });
  curves.forEach(({ label, c }, i) => {
    const col = label === 'pooled' ? '#000' : PALETTE[i % PALETTE.length];
    const pts = c.curve.map((p) => `${rx(p.reviewRate).toFixed(1)},${sy(p.falseConfidenceRate).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${pts}" fill="none" stroke="${col}" stroke-width="${label === 'pooled' ? 2 : 1.5}"/>`);
    const best = c.curve.find((p) => Math.abs(p.tau - c.tau) < 1e-9);
    if (best) parts.push(`<circle cx="${rx(best.reviewRate)}" cy="${sy(best.falseConfidenceRate)}" r="5" fill="none" stroke="${col}" stroke-width="2"/><text x="${rx(best.reviewRate) + 7}" y="${sy(best.falseConfidenceRate) + 14}" font-size="10">τ=${c.tau.toFixed(2)}</text>`);
    parts.push(`<line x1="${panels[1].x0 + (i % 3) * 135}" y1="${ly + 5 + Math.floor(i / 3) * 16}" x2="${panels[1].x0 + (i % 3) * 135 + 16}" y2="${ly + 5 + Math.floor(i / 3) * 16}" stroke="${col}" stroke-width="2"/><text x="${panels[1].x0 + (i % 3) * 135 + 20}" y="${ly + 9 + Math.floor(i / 3) * 16}">${esc(label)}</text>`);
  });
  ly += 0;
  parts.push('</svg>');
  return parts.join('\n');
}

/**
 * One row per scenario: rcl on the test split, with the gate's calibration and review figures.
 * ECE-floor: the ECE a perfectly calibrated predictor with the same confidences scores by chance
 * at this n (calibration.ts eceNoiseFloor), so an ECE target below it cannot be told from noise.
 */
export function scenarioTable(label: string, scenarios: CorpusReport['scenarios']): string {
  const out = [`\n${label} by scenario (test split, rcl):`,
    '  scenario   tasks  recall  full   tok-med  AUROC   ECE    ECE-floor  Brier  review  falseconf/tasks  caught@10/20/30%   covMAE  gate-share  judged as'];
  for (const [sc, r] of Object.entries(scenarios)) {
    if (!r) continue;
    const g = r.gate;
    out.push(`  ${sc.padEnd(9)} ${String(r.tasks.test).padStart(5)}  ${f3(r.rcl?.recallMicro)}  ${f3(r.rcl?.fullCoverageRate)}  ${f0(r.rcl?.tokensMedian, 7)}  ${f3(g.auroc)}  ${f3(g.ece)}  ${f3(eceNoiseFloor(r.test.map((t) => t.confidence)).mean)}      ${f3(g.brier)}  ${f3(g.reviewOverhead)}  ${f3(g.falseConfidenceOfTasks)}          ` +
      `${g.caughtAt.map((c) => f3(c.caught)).join('/')}  ${f3(r.coverageMAE)}  ${f3(gateShareOfMedian(r.test))}       ${Object.entries(r.judged).map(([k, n]) => `${k} ${n}`).join(', ')}` +
      (r.tasks.skipped ? `  (${r.tasks.skipped} skipped)` : ''));
  }
  return out.join('\n');
}

/**
 * The recall–tokens curves of the budget sweep: one panel per corpus (test split) plus the pooled
 * validation curve of rcl with its knee, each mode a line through its budgets (median tokens, micro recall).
 */
export function sweepSvg(reports: CorpusReport[]): string {
  type Panel = { title: string; lines: { mode: string; pts: { t: number; v: number; b: number }[] }[]; knee?: { t: number; v: number } };
  const panels: Panel[] = reports.filter((r) => r.sweep.some((p) => p.split === 'test')).map((r) => ({
    title: `${r.name} (test)`,
    lines: MODES.map((mode) => ({ mode, pts: r.sweep.filter((p: SweepPoint) => p.split === 'test' && p.mode === mode).map((p) => ({ t: p.metrics.tokensMedian, v: p.metrics.recallMicro, b: p.budget })) })).filter((l) => l.pts.length),
  }));
  const val = pooledCurve(reports, 'validation', 'rcl');
  if (val.length) {
    const pts = val.map((p) => ({ t: p.tokensMedianOfCorpora, v: p.recall, b: p.budget }));
    const k = kneeOf(pts.map((p) => ({ tokens: p.t, recall: p.v })));
    panels.push({ title: 'rcl pooled (validation)', lines: [{ mode: 'rcl', pts }], knee: k === undefined ? undefined : pts[k] });
  }
  const cols = Math.min(4, Math.max(1, panels.length)), pw = 260, ph = 190, gx = 70, gy = 70;
  const W = cols * (pw + gx) + 20, H = Math.ceil(panels.length / cols) * (ph + gy) + 70;
  const xmax = Math.max(1000, ...panels.flatMap((p) => p.lines.flatMap((l) => l.pts.map((q) => q.t))).filter(Number.isFinite));
  const xm = Math.ceil(xmax / 1000) * 1000;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="15">recall vs median tokens over budgets ${esc([...new Set(reports.flatMap((r) => r.sweep.map((p) => p.budget)))].sort((a, b) => a - b).join(', '))}</text>`];
  panels.forEach((p, i) => {
    const x0 = 55 + (i % cols) * (pw + gx), y0 = 50 + Math.floor(i / cols) * (ph + gy);
    const sx = (t: number) => x0 + (t / xm) * pw, sy = (v: number) => y0 + ph - Math.max(0, Math.min(1, v)) * ph;
    parts.push(`<text x="${x0 + pw / 2}" y="${y0 - 8}" text-anchor="middle" font-size="12">${esc(p.title)}</text>`, `<rect x="${x0}" y="${y0}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`);
    for (let k = 0; k <= 4; k++) {
      parts.push(`<line x1="${x0}" y1="${sy(k / 4)}" x2="${x0 + pw}" y2="${sy(k / 4)}" stroke="#eee"/><text x="${x0 - 4}" y="${sy(k / 4) + 4}" text-anchor="end">${(k / 4).toFixed(2)}</text>`);
      parts.push(`<text x="${sx((k / 4) * xm)}" y="${y0 + ph + 14}" text-anchor="middle">${Math.round((k / 4) * xm)}</text>`);
    }
    for (const l of p.lines) {
      const ok = l.pts.filter((q) => Number.isFinite(q.t) && Number.isFinite(q.v));
      parts.push(`<polyline points="${ok.map((q) => `${sx(q.t).toFixed(1)},${sy(q.v).toFixed(1)}`).join(' ')}" fill="none" stroke="${COLORS[l.mode]}" stroke-width="1.8"/>`);
      for (const q of ok) parts.push(`<circle cx="${sx(q.t).toFixed(1)}" cy="${sy(q.v).toFixed(1)}" r="2.5" fill="${COLORS[l.mode]}"><title>${esc(`${l.mode} @${q.b}: recall ${q.v.toFixed(3)}, ${Math.round(q.t)} tokens`)}</title></circle>`);
    }
    if (p.knee) parts.push(`<circle cx="${sx(p.knee.t)}" cy="${sy(p.knee.v)}" r="6" fill="none" stroke="#000" stroke-width="1.5"/><text x="${sx(p.knee.t) + 8}" y="${sy(p.knee.v) + 14}">knee</text>`);
  });
  const ly = H - 16;
  parts.push(...MODES.map((m, i) => `<rect x="${55 + i * 110}" y="${ly - 9}" width="10" height="10" fill="${COLORS[m]}"/><text x="${69 + i * 110}" y="${ly}">${m}</text>`));
  parts.push('</svg>');
  return parts.join('\n');
}
