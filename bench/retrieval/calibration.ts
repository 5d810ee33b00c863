// How well the gate's confidence works as a probability, per scenario: discrimination (AUROC),
// calibration (expected calibration error, Brier score, reliability bins), the review policy's
// cost (review overhead, false confidence) and how many insufficient contexts a fixed review
// budget catches when the least confident methods are reviewed first.

import { calibrateThreshold } from '../../server/src/gate/sufficiency';
import { prng } from './tasks';
import { auroc } from './score';

export interface GatePoint { confidence: number; sufficient: boolean; review: boolean }

export interface ReliabilityBin { lo: number; hi: number; n: number; meanConfidence: number; sufficientShare: number }

export interface CalibrationMetrics {
  n: number;
  sufficientShare: number;
  auroc: number | null;
  /** Σ_bins (n_b / n) · |mean confidence − share sufficient|, RELIABILITY_BINS equal-width bins. */
  ece: number;
  brier: number;
  /** Share of tasks the server labelled for review. */
  reviewOverhead: number;
  /** Unreviewed insufficient contexts / all tasks (the issue's "false confidence ≤ x % of tasks"). */
  falseConfidenceOfTasks: number;
  /** Unreviewed insufficient / insufficient. */
  falseConfidenceRate: number | null;
  /** Share of insufficient contexts among the least confident 10 / 20 / 30 % of tasks. */
  caughtAt: { review: number; caught: number | null }[];
  bins: ReliabilityBin[];
}

export const RELIABILITY_BINS = 10;
export const REVIEW_BUDGETS = [0.1, 0.2, 0.3];

/** The reliability bins (RELIABILITY_BINS equal-width) and the ECE over them: Σ_bins (n_b / n) · |mean confidence − share sufficient|. */
function reliability(points: readonly { confidence: number; sufficient: boolean }[]): { bins: ReliabilityBin[]; ece: number } {
  const n = points.length;
  const bins: ReliabilityBin[] = [];
  let ece = 0;
  for (let b = 0; b < RELIABILITY_BINS; b++) {
    const lo = b / RELIABILITY_BINS, hi = (b + 1) / RELIABILITY_BINS;
    let count = 0, conf = 0, hits = 0;
    for (const p of points) {
      if (!(p.confidence >= lo && (b === RELIABILITY_BINS - 1 ? p.confidence <= hi : p.confidence < hi))) continue;
      count++; conf += p.confidence; if (p.sufficient) hits++;
    }
    const meanConfidence = count ? conf / count : NaN;
    const sufficientShare = count ? hits / count : NaN;
    if (count) ece += (count / n) * Math.abs(meanConfidence - sufficientShare);
    bins.push({ lo, hi, n: count, meanConfidence, sufficientShare });
  }
  return { bins, ece };
}

export function calibrationMetrics(points: GatePoint[]): CalibrationMetrics {
  const n = points.length;
  const { bins, ece } = reliability(points);
  let brier = 0;
  for (const p of points) brier += (p.confidence - (p.sufficient ? 1 : 0)) ** 2;
  const insufficient = points.filter((p) => !p.sufficient).length;
  const fc = points.filter((p) => !p.sufficient && !p.review).length;
  // Least confident first; ties broken by input order (the task order is fixed by the seed).
  const ranked = points.map((p, i) => ({ p, i })).sort((a, b) => a.p.confidence - b.p.confidence || a.i - b.i);
  const caughtAt = REVIEW_BUDGETS.map((review) => {
    const k = Math.round(review * n);
    const caught = ranked.slice(0, k).filter(({ p }) => !p.sufficient).length;
    return { review, caught: insufficient ? caught / insufficient : null };
  });
  return {
    n, sufficientShare: n ? 1 - insufficient / n : NaN,
    auroc: auroc(points.map((p) => ({ score: p.confidence, label: p.sufficient }))),
    ece: n ? ece : NaN, brier: n ? brier / n : NaN,
    reviewOverhead: n ? points.filter((p) => p.review).length / n : NaN,
    falseConfidenceOfTasks: n ? fc / n : NaN,
    falseConfidenceRate: insufficient ? fc / insufficient : null,
    caughtAt, bins,
  };
}

/** Trials of eceNoiseFloor: the mean's standard error is below 0.001 at n ≥ 100. */
export const ECE_NOISE_TRIALS = 2000;

/**
 * The ECE a perfectly calibrated predictor scores by chance at this n: outcomes drawn as
 * Bernoulli(confidence) for the very confidences given, binned as calibrationMetrics bins them.
 * An ECE near this floor is as good as n tasks can show; a target below it is not measurable at
 * that n. A reported figure: it never enters a score. Seeded, so deterministic.
 */
export function eceNoiseFloor(confidences: readonly number[], trials = ECE_NOISE_TRIALS, seed = 'ece-noise-floor', n?: number): { mean: number; p90: number } {
  if (!confidences.length) return { mean: NaN, p90: NaN };
  const rand = prng(seed);
  const eces: number[] = [];
  for (let t = 0; t < trials; t++) {
    // At another n: that many confidences drawn (with replacement) from the ones given, each trial.
    const cs = n === undefined ? confidences : Array.from({ length: n }, () => confidences[Math.floor(rand() * confidences.length)]);
    eces.push(reliability(cs.map((c) => ({ confidence: c, sufficient: rand() < c }))).ece);
  }
  eces.sort((a, b) => a - b);
  return { mean: eces.reduce((a, b) => a + b, 0) / trials, p90: eces[Math.floor(0.9 * (trials - 1))] };
}

/**
 * τ of one scenario: on a 0.01 grid, among the τ whose review share stays within the target, the
 * one with the least false-review + false-confidence rate (calibrateThreshold's cost), the middle
 * of the cheapest set on ties.
 */
export function thresholdFor(points: { confidence: number; sufficient: boolean }[], reviewTarget: number): number {
  const { curve } = calibrateThreshold(points, { step: 0.01 });
  const allowed = curve.filter((c) => c.reviewRate <= reviewTarget + 1e-12);
  if (!allowed.length) return 0;
  const min = Math.min(...allowed.map((c) => c.cost));
  const cheapest = allowed.filter((c) => c.cost <= min + 1e-12);
  return cheapest[Math.floor((cheapest.length - 1) / 2)].tau;
}

/**
 * The least review share (least confident first) at which unreviewed insufficient contexts are at
 * most `falseConfidence` of the tasks: what a review budget must be for the issue's false-confidence
 * target to hold at this discrimination.
 */
export function reviewShareFor(pts: { confidence: number; sufficient: boolean }[], falseConfidence: number): number {
  const n = pts.length;
  const ranked = [...pts].sort((a, b) => a.confidence - b.confidence);
  let missed = ranked.filter((p) => !p.sufficient).length;
  for (let k = 0; k <= n; k++) {
    if (missed / n <= falseConfidence + 1e-12) return k / n;
    if (k < n && !ranked[k].sufficient) missed--;
  }
  return 1;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Reliability diagrams, one panel per labelled series: share sufficient against mean confidence per bin (dot area ∝ count). */
export function reliabilitySvg(title: string, series: { label: string; metrics: CalibrationMetrics }[]): string {
  const pw = 260, ph = 260, gap = 60, left = 60, top = 60;
  const W = left + series.length * (pw + gap), H = top + ph + 70;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  // A long title (many corpora) is squeezed to the drawing's width rather than cut at both ends.
  const fit = title.length * 7.5 > W - 20 ? ` textLength="${W - 20}" lengthAdjust="spacingAndGlyphs"` : '';
  out.push(`<text x="${W / 2}" y="22" text-anchor="middle" font-size="15"${fit}>${esc(title)}</text>`);
  series.forEach((s, k) => {
    const x0 = left + k * (pw + gap);
    const X = (v: number) => x0 + v * pw, Y = (v: number) => top + ph - v * ph;
    out.push(`<rect x="${x0}" y="${top}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
    out.push(`<line x1="${X(0)}" y1="${Y(0)}" x2="${X(1)}" y2="${Y(1)}" stroke="#bbb" stroke-dasharray="4 3"/>`);
    for (let t = 0; t <= 10; t += 2) {
      out.push(`<text x="${X(t / 10)}" y="${top + ph + 15}" text-anchor="middle" font-size="10">${(t / 10).toFixed(1)}</text>`);
      out.push(`<text x="${x0 - 6}" y="${Y(t / 10) + 3}" text-anchor="end" font-size="10">${(t / 10).toFixed(1)}</text>`);
    }
    const m = s.metrics;
    out.push(`<text x="${x0 + pw / 2}" y="${top - 22}" text-anchor="middle" font-size="13">${esc(s.label)}</text>`);
    out.push(`<text x="${x0 + pw / 2}" y="${top - 8}" text-anchor="middle" font-size="11">n ${m.n} · ECE ${m.ece.toFixed(3)} · Brier ${m.brier.toFixed(3)} · AUROC ${m.auroc === null ? '-' : m.auroc.toFixed(2)}</text>`);
    const pts = m.bins.filter((b) => b.n > 0);
    if (pts.length > 1) out.push(`<polyline fill="none" stroke="#2ca02c" stroke-width="1.5" points="${pts.map((b) => `${X(b.meanConfidence).toFixed(1)},${Y(b.sufficientShare).toFixed(1)}`).join(' ')}"/>`);
    for (const b of pts) out.push(`<circle cx="${X(b.meanConfidence).toFixed(1)}" cy="${Y(b.sufficientShare).toFixed(1)}" r="${(2 + 10 * Math.sqrt(b.n / Math.max(1, m.n))).toFixed(1)}" fill="#2ca02c" fill-opacity="0.5" stroke="#1a6b1a"/>`);
    out.push(`<text x="${x0 + pw / 2}" y="${top + ph + 34}" text-anchor="middle">confidence (bin mean)</text>`);
    if (k === 0) out.push(`<text x="${x0 - 42}" y="${top + ph / 2}" text-anchor="middle" transform="rotate(-90 ${x0 - 42} ${top + ph / 2})">share sufficient</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
