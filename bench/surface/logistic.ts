// L2-penalised logistic regression by IRLS (Newton's method), deterministic: fixed starting point
// (all zeros), exact linear solves, a fixed iteration cap. Used offline by bench/surface-fit to fit
// the gate's route table (server/src/gate/surface.ts); never at run time.

export interface LogisticFit {
  beta: number[];
  iterations: number;
  converged: boolean;
}

export interface LogisticOptions {
  /** Penalty λ of λ/2 · Σ β_j² over the penalised columns. */
  l2: number;
  /** Columns left unpenalised (the intercept). */
  unpenalised?: number[];
  maxIterations?: number;
  tolerance?: number;
  /** A fixed term added to each row's linear predictor (default 0). */
  offsets?: number[];
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Maximises Σ log-likelihood − λ/2 ‖β‖² over rows `x` (dense, same length) with labels `y` ∈ {0,1}. */
export function fitLogistic(x: number[][], y: number[], o: LogisticOptions): LogisticFit {
  const d = x[0]?.length ?? 0;
  const free = new Set(o.unpenalised ?? []);
  const beta = new Array<number>(d).fill(0);
  const maxIt = o.maxIterations ?? 100;
  const tol = o.tolerance ?? 1e-9;
  for (let it = 1; it <= maxIt; it++) {
    const grad = beta.map((b, j) => (free.has(j) ? 0 : -o.l2 * b));
    const hess = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j && !free.has(i) ? o.l2 : 0)));
    // Only a row's non-zero columns touch the gradient and Hessian, and the Hessian is symmetric:
    // its lower triangle is summed (in row order, as the full one was) and mirrored.
    const nonZero = new Int32Array(d);
    for (let r = 0; r < x.length; r++) {
      const row = x[r];
      let z = o.offsets?.[r] ?? 0;
      for (let j = 0; j < d; j++) z += row[j] * beta[j];
      const p = sigmoid(z);
      const w = Math.max(p * (1 - p), 1e-12);
      let n = 0;
      for (let j = 0; j < d; j++) if (row[j] !== 0) nonZero[n++] = j;
      for (let a = 0; a < n; a++) {
        const i = nonZero[a];
        grad[i] += (y[r] - p) * row[i];
        const hi = hess[i];
        const wi = w * row[i];
        for (let b = 0; b <= a; b++) { const j = nonZero[b]; hi[j] += wi * row[j]; }
      }
    }
    for (let i = 0; i < d; i++) for (let j = i + 1; j < d; j++) hess[i][j] = hess[j][i];
    const step = solveSymmetric(hess, grad);
    let biggest = 0;
    for (let j = 0; j < d; j++) { beta[j] += step[j]; biggest = Math.max(biggest, Math.abs(step[j])); }
    if (biggest < tol) return { beta, iterations: it, converged: true };
  }
  return { beta, iterations: maxIt, converged: false };
}

/**
 * Solves A s = b for a symmetric positive (semi-)definite A by Cholesky; a column with no data and
 * no penalty (a zero pivot) gets step 0.
 */
export function solveSymmetric(a: number[][], b: number[]): number[] {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i][j];
      for (let k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      if (i === j) l[i][i] = s > 1e-12 ? Math.sqrt(s) : 0;
      else l[i][j] = l[j][j] > 0 ? s / l[j][j] : 0;
    }
  }
  const z = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i][k] * z[k];
    z[i] = l[i][i] > 0 ? s / l[i][i] : 0;
  }
  const out = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = z[i];
    for (let k = i + 1; k < n; k++) s -= l[k][i] * out[k];
    out[i] = l[i][i] > 0 ? s / l[i][i] : 0;
  }
  return out;
}
