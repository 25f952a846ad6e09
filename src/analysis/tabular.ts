// Stochastic tabular-agent simulation: per-prompt softmax over {right, wrong}, K samples, votes, GRPO updates.
import { deriveRng, type Rng } from '../util/rng';

/** Reward method of the tabular simulation (docs/method.md ("Reward methods"); `gt` is the supervised reference). */
export type TabularMethod = 'ttrl' | 'co-rl' | 'gt';

/** GRPO advantage epsilon (docs/method.md ("One training step", step 6)). */
export const GRPO_EPS = 1e-4;

/**
 * GRPO group advantages A_k = (r_k - mean) / (std_unbiased + eps). A group of size < 2 or with all
 * rewards equal gets all-zero advantages (no gradient).
 */
export function grpoAdvantages(rewards: readonly number[], eps = GRPO_EPS): number[] {
  const k = rewards.length;
  if (k < 2) return rewards.map(() => 0);
  const mean = rewards.reduce((a, b) => a + b, 0) / k;
  let ss = 0;
  for (const r of rewards) ss += (r - mean) ** 2;
  if (ss === 0) return rewards.map(() => 0);
  const std = Math.sqrt(ss / (k - 1));
  return rewards.map((r) => (r - mean) / (std + eps));
}

/**
 * Majority vote over binary samples (true = right) in rollout order: the more frequent outcome wins;
 * a tie goes to the outcome of the first sample (the public Co-RL code's first-appearance rule).
 */
export function binaryVote(samples: readonly boolean[]): boolean {
  if (samples.length === 0) throw new Error('binaryVote needs at least one sample');
  let right = 0;
  for (const s of samples) if (s) right++;
  const wrong = samples.length - right;
  return right === wrong ? samples[0] : right > wrong;
}

/**
 * ODE time that one tabular step corresponds to, so a tabular run and the theory ODE (with eta = 1) can be
 * drawn on one axis. With the summed GRPO gradient and unbiased std, the expected logit change per step
 * is eta * sqrt(K(K-1)) times the ODE's per-unit-time rate (exact for eps -> 0 and small eta).
 */
export function tabularStepToOdeTime(K: number, eta: number): number {
  return eta * Math.sqrt(K * (K - 1));
}

/** Options of the tabular simulation. */
export interface TabularOptions {
  method: TabularMethod;
  /** Initial p(right) per agent: a constant for every prompt, or one value per prompt. N = its length. */
  initialP: readonly (number | readonly number[])[];
  /** Number of prompts P (required when all `initialP` entries are constants; else their length). */
  prompts?: number;
  /** Samples per prompt (default 7). */
  K?: number;
  /** Step size on the logit (default 0.05). */
  eta?: number;
  /** Prompts per step, drawn without replacement, same prompts for every agent (default: all). */
  batchSize?: number;
  /** Run seed; agent n samples from its own stream derived from it (default 0). */
  seed?: number;
}

/** A recorded point of a tabular run. */
export interface TabularRecord {
  step: number;
  /** Mean p(right) over all prompts, per agent. */
  meanP: number[];
  /** Share of this step's batch whose vote was right, per agent (NaN at step 0). */
  voteAccuracy: number[];
}

/** A running tabular simulation (step it yourself, e.g. for a live view). */
export interface TabularSim {
  readonly agents: number;
  readonly prompts: number;
  /** Steps taken so far. */
  readonly stepCount: number;
  /** Advance one step (all rollouts and votes before any update); returns the new record. */
  step(): TabularRecord;
  /** Current p(right) of one agent, per prompt (a copy). */
  p(agent: number): number[];
  /** Current mean p(right) per agent. */
  meanP(): number[];
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
const P_CLAMP = 1e-6;
const logit = (p: number): number => {
  const c = Math.min(1 - P_CLAMP, Math.max(P_CLAMP, p));
  return Math.log(c / (1 - c));
};

/**
 * Create a tabular simulation. Each agent has one logit theta per prompt with pi(right) = sigmoid(theta)
 * (softmax over {right, wrong} with logits (theta, 0)). A step: every agent draws K samples per batch
 * prompt from its own seeded stream; votes are computed; rewards are 1 if a sample equals the reference
 * outcome (own vote for `ttrl`, ring predecessor's vote for `co-rl` (N = 2: each other), truth for `gt`);
 * GRPO advantages per group; theta += eta * sum_k A_k d/dtheta log pi(a_k), where that derivative is
 * (1 - p) for right and -p for wrong.
 */
export function createTabularSim(opts: TabularOptions): TabularSim {
  const N = opts.initialP.length;
  const K = opts.K ?? 7;
  const eta = opts.eta ?? 0.05;
  const seed = opts.seed ?? 0;
  if (N < 1) throw new Error('initialP must list at least one agent');
  if (opts.method === 'co-rl' && N < 2) throw new Error('co-rl needs at least 2 agents (N = 1 has no peer)');
  if (!['ttrl', 'co-rl', 'gt'].includes(opts.method)) {
    throw new Error(`unknown method ${JSON.stringify(opts.method)}; valid methods: ttrl, co-rl, gt`);
  }
  if (!Number.isInteger(K) || K < 2) throw new Error(`K must be an integer >= 2, got ${K}`);
  if (!(eta > 0)) throw new Error(`eta must be > 0, got ${eta}`);
  const arrays = opts.initialP.filter((x): x is readonly number[] => typeof x !== 'number');
  const P = arrays.length > 0 ? arrays[0].length : (opts.prompts ?? NaN);
  if (!Number.isInteger(P) || P < 1)
    throw new Error('prompts must be a positive integer (or give per-prompt initialP)');
  if (arrays.some((a) => a.length !== P) || (opts.prompts !== undefined && opts.prompts !== P)) {
    throw new Error(`every per-prompt initialP array and 'prompts' must have the same length (${P})`);
  }
  const B = opts.batchSize ?? P;
  if (!Number.isInteger(B) || B < 1 || B > P)
    throw new Error(`batchSize must be an integer in [1, ${P}], got ${B}`);

  const theta = opts.initialP.map((init, n) =>
    Float64Array.from({ length: P }, (_, i) => {
      const p = typeof init === 'number' ? init : init[i];
      if (!(p >= 0 && p <= 1)) throw new Error(`initialP[${n}] must be in [0, 1], got ${p}`);
      return logit(p);
    }),
  );
  const agentRng: Rng[] = theta.map((_, n) => deriveRng(seed, 'tabular', 'agent', n));
  const batchRng = deriveRng(seed, 'tabular', 'batch');
  const order = Array.from({ length: P }, (_, i) => i);
  let stepCount = 0;

  const meanP = (): number[] => theta.map((th) => th.reduce((s, x) => s + sigmoid(x), 0) / P);

  const step = (): TabularRecord => {
    let batch = order;
    if (B < P) {
      // partial Fisher-Yates: the first B entries of `order` are a uniform draw without replacement
      for (let i = 0; i < B; i++) {
        const j = i + batchRng.int(P - i);
        [order[i], order[j]] = [order[j], order[i]];
      }
      batch = order.slice(0, B);
    }
    // 1) all rollouts and votes
    const samples: boolean[][][] = theta.map((th, n) =>
      batch.map((i) => {
        const p = sigmoid(th[i]);
        return Array.from({ length: K }, () => agentRng[n].float() < p);
      }),
    );
    const votes = samples.map((perAgent) => perAgent.map(binaryVote));
    // 2) rewards, advantages, updates
    for (let n = 0; n < N; n++) {
      const th = theta[n];
      batch.forEach((i, b) => {
        const xs = samples[n][b];
        const target =
          opts.method === 'gt' ? true : opts.method === 'ttrl' ? votes[n][b] : votes[(n - 1 + N) % N][b];
        const adv = grpoAdvantages(xs.map((x) => (x === target ? 1 : 0)));
        const p = sigmoid(th[i]);
        let g = 0;
        for (let k = 0; k < K; k++) g += adv[k] * (xs[k] ? 1 - p : -p);
        th[i] += eta * g;
      });
    }
    stepCount++;
    return {
      step: stepCount,
      meanP: meanP(),
      voteAccuracy: votes.map((v) => v.filter(Boolean).length / batch.length),
    };
  };

  return {
    agents: N,
    prompts: P,
    get stepCount() {
      return stepCount;
    },
    step,
    p: (agent) => Array.from(theta[agent], sigmoid),
    meanP,
  };
}

/** A finished tabular run. */
export interface TabularResult {
  /** Records at step 0 and every `recordEvery` steps (and the last step). */
  records: TabularRecord[];
  /** Final p(right) per agent per prompt. */
  finalP: number[][];
}

/** Run a tabular simulation for `steps` steps, recording every `recordEvery` steps (default 1). */
export function simulateTabular(
  opts: TabularOptions & { steps: number; recordEvery?: number },
): TabularResult {
  const sim = createTabularSim(opts);
  const every = opts.recordEvery ?? 1;
  if (!Number.isInteger(opts.steps) || opts.steps < 0)
    throw new Error(`steps must be a non-negative integer`);
  if (!Number.isInteger(every) || every < 1) throw new Error(`recordEvery must be a positive integer`);
  const records: TabularRecord[] = [
    { step: 0, meanP: sim.meanP(), voteAccuracy: sim.meanP().map(() => NaN) },
  ];
  for (let s = 1; s <= opts.steps; s++) {
    const r = sim.step();
    if (s % every === 0 || s === opts.steps) records.push(r);
  }
  return { records, finalP: Array.from({ length: sim.agents }, (_, n) => sim.p(n)) };
}

/** Per-prompt initial p for the worked example of docs/method.md ("Theory"): (0.9, 0.2) on the first half, (0.2, 0.9) on the second. */
export function workedExampleInitialP(prompts: number): [number[], number[]] {
  const half = Math.floor(prompts / 2);
  const a = Array.from({ length: prompts }, (_, i) => (i < half ? 0.9 : 0.2));
  const b = Array.from({ length: prompts }, (_, i) => (i < half ? 0.2 : 0.9));
  return [a, b];
}
