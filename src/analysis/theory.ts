// Binary-reduction theory of docs/method.md ("Theory"): V_K, phi_K, q_K, self-rewarding and Co-RL ODEs, RK4, worked example.

/** A trajectory: times and states (each state is [p] or [pA, pB]), all probabilities clamped to [0, 1]. */
export interface Trajectory {
  t: number[];
  y: number[][];
}

function checkK(K: number): void {
  if (!Number.isInteger(K) || K < 1) throw new Error(`K must be a positive integer, got ${K}`);
}
function checkP(p: number, what = 'p'): void {
  if (!(p >= 0 && p <= 1)) throw new Error(`${what} must be in [0, 1], got ${p}`);
}

/** Binomial(K, p) probabilities P(C = c) for c = 0..K. */
export function binomialPmf(K: number, p: number): number[] {
  checkK(K);
  checkP(p);
  const out = new Array<number>(K + 1);
  let coef = 1; // C(K, c)
  for (let c = 0; c <= K; c++) {
    out[c] = coef * p ** c * (1 - p) ** (K - c); // 0 ** 0 === 1 handles p = 0 and p = 1
    coef = (coef * (K - c)) / (c + 1);
  }
  return out;
}

/** E_{C~Bin(K,p)}[f(C)]. */
function binomialExpect(K: number, p: number, f: (c: number) => number): number {
  const pmf = binomialPmf(K, p);
  let s = 0;
  for (let c = 0; c <= K; c++) s += pmf[c] * f(c);
  return s;
}

/**
 * V_K(p) = P(Bin(K, p) > K/2): probability that a majority vote over K samples is right (binary
 * reduction: all wrong answers coincide). For even K a tie counts as not right.
 */
export function majorityProb(K: number, p: number): number {
  return binomialExpect(K, p, (c) => (c > K / 2 ? 1 : 0));
}

/** phi_K(p) = 2 V_K(p) - 1: expected sign of a reward from a vote that is right w.p. V_K(p). */
export function phi(K: number, p: number): number {
  return 2 * majorityProb(K, p) - 1;
}

/** q_K(p) = eta p(1-p) E_{C~Bin(K,p)}[sqrt(C(K-C)) / K]: the learning-rate factor of a GRPO group. */
export function q(K: number, p: number, eta = 1): number {
  return eta * p * (1 - p) * binomialExpect(K, p, (c) => Math.sqrt(c * (K - c)) / K);
}

/** Self-rewarding drift dp/dt = eta p(1-p) E[sign(C - K/2) sqrt(C(K-C)) / K] (sign 0 at a tie for even K). */
export function selfDrift(K: number, p: number, eta = 1): number {
  return eta * p * (1 - p) * binomialExpect(K, p, (c) => (Math.sign(c - K / 2) * Math.sqrt(c * (K - c))) / K);
}

/** Two-agent Co-RL vector field: [dpA/dt, dpB/dt] = [q_K(pA) phi_K(pB), q_K(pB) phi_K(pA)]. */
export function coRlField(K: number, pA: number, pB: number, eta = 1): [number, number] {
  return [q(K, pA, eta) * phi(K, pB), q(K, pB, eta) * phi(K, pA)];
}

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/** Options of the RK4 integrator. */
export interface Rk4Options {
  /** Step size (> 0). */
  dt: number;
  /** Number of steps (>= 0). */
  steps: number;
  /** Keep every `recordEvery`-th state (default 1); the last state is always kept. */
  recordEvery?: number;
}

/**
 * Classic 4th-order Runge-Kutta for dy/dt = f(y) (autonomous). Every state is clamped to [0, 1]
 * componentwise after each step (the states are probabilities). Returns the recorded trajectory
 * starting with y0 at t = 0.
 */
export function rk4(
  f: (y: readonly number[]) => number[],
  y0: readonly number[],
  opts: Rk4Options,
): Trajectory {
  const { dt, steps } = opts;
  const every = opts.recordEvery ?? 1;
  if (!(dt > 0)) throw new Error(`dt must be > 0, got ${dt}`);
  if (!Number.isInteger(steps) || steps < 0)
    throw new Error(`steps must be a non-negative integer, got ${steps}`);
  if (!Number.isInteger(every) || every < 1)
    throw new Error(`recordEvery must be a positive integer, got ${every}`);
  let y = y0.map(clamp01);
  const out: Trajectory = { t: [0], y: [y] };
  const axpy = (a: readonly number[], s: number, k: readonly number[]): number[] =>
    a.map((v, i) => v + s * k[i]);
  for (let n = 1; n <= steps; n++) {
    const k1 = f(y);
    const k2 = f(axpy(y, dt / 2, k1));
    const k3 = f(axpy(y, dt / 2, k2));
    const k4 = f(axpy(y, dt, k3));
    y = y.map((v, i) => clamp01(v + (dt / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i])));
    if (n % every === 0 || n === steps) {
      out.t.push(n * dt);
      out.y.push(y);
    }
  }
  return out;
}

/** Options shared by the ODE simulations. */
export interface OdeOptions {
  /** Votes per prompt (default 7). */
  K?: number;
  /** Learning rate eta (default 1). */
  eta?: number;
  /** End time (default 200). */
  tEnd?: number;
  /** Step size (default 0.05). */
  dt?: number;
  /** Record every n-th step (default 1). */
  recordEvery?: number;
}

function odeSetup(opts: OdeOptions): { K: number; eta: number; rk: Rk4Options } {
  const K = opts.K ?? 7;
  checkK(K);
  const dt = opts.dt ?? 0.05;
  const tEnd = opts.tEnd ?? 200;
  return {
    K,
    eta: opts.eta ?? 1,
    rk: { dt, steps: Math.round(tEnd / dt), recordEvery: opts.recordEvery ?? 1 },
  };
}

/** Self-rewarding trajectories of independent agents (each state entry evolves under `selfDrift`). */
export function simulateSelfRewarding(p0: readonly number[], opts: OdeOptions = {}): Trajectory {
  p0.forEach((p, i) => checkP(p, `p0[${i}]`));
  const { K, eta, rk } = odeSetup(opts);
  return rk4((y) => y.map((p) => selfDrift(K, p, eta)), p0, rk);
}

/** Two-agent Co-RL trajectory from (pA0, pB0). */
export function simulateCoRl(pA0: number, pB0: number, opts: OdeOptions = {}): Trajectory {
  checkP(pA0, 'pA0');
  checkP(pB0, 'pB0');
  const { K, eta, rk } = odeSetup(opts);
  return rk4(([a, b]) => coRlField(K, a, b, eta), [pA0, pB0], rk);
}

/** Final state of a trajectory. */
export function finalState(tr: Trajectory): number[] {
  return tr.y[tr.y.length - 1];
}

/** Result of the worked example of docs/method.md ("Theory"). Accuracies are means over the two prompt halves. */
export interface WorkedExampleResult {
  selfRewarding: { accA: number; accB: number; mean: number; halves: [Trajectory, Trajectory] };
  coRl: { accA: number; accB: number; mean: number; halves: [Trajectory, Trajectory] };
}

/**
 * Worked example: (pA, pB) = (0.9, 0.2) on half the prompts and (0.2, 0.9) on the other half.
 * Self-rewarding: each agent keeps its strong half (-> 1) and loses its weak half (-> 0): mean 0.5.
 * Co-RL: both halves lie above the separatrix pA + pB = 1, so both agents reach 1 everywhere: mean 1.0.
 */
export function workedExample(opts: OdeOptions = {}): WorkedExampleResult {
  const halves: [number, number][] = [
    [0.9, 0.2],
    [0.2, 0.9],
  ];
  const summarize = (trs: [Trajectory, Trajectory]) => {
    const [h1, h2] = trs.map(finalState);
    const accA = (h1[0] + h2[0]) / 2;
    const accB = (h1[1] + h2[1]) / 2;
    return { accA, accB, mean: (accA + accB) / 2, halves: trs };
  };
  const self = halves.map((h) => simulateSelfRewarding(h, opts)) as [Trajectory, Trajectory];
  const co = halves.map(([a, b]) => simulateCoRl(a, b, opts)) as [Trajectory, Trajectory];
  return { selfRewarding: summarize(self), coRl: summarize(co) };
}

/**
 * Co-RL vector field sampled on an n x n grid of (pA, pB) in [0, 1]^2 (cell centres), for quiver plots.
 */
export function coRlVectorField(
  n: number,
  K = 7,
  eta = 1,
): { pA: number; pB: number; dA: number; dB: number }[] {
  if (!Number.isInteger(n) || n < 1) throw new Error(`grid size must be a positive integer, got ${n}`);
  const out: { pA: number; pB: number; dA: number; dB: number }[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const pA = (i + 0.5) / n;
      const pB = (j + 0.5) / n;
      const [dA, dB] = coRlField(K, pA, pB, eta);
      out.push({ pA, pB, dA, dB });
    }
  }
  return out;
}
