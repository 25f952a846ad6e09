// Run summaries: per method and agent, base / final / peak held-out accuracy (with the step of the peak,
// docs/method.md ("Pitfalls")), pseudo-label accuracy at the start and end of training, normalised reward std at the
// end, from the plain step and eval records. Start/end figures are means over a window of steps.
import type { AgentStepRecord, EvalRecord, StepRecord } from './records';
import type { RewardMethod } from './rewards';

/** Accuracy over training: at step 0, at the last evaluation, and the best evaluation. */
export interface AccuracyCurveSummary {
  base: number;
  final: number;
  peak: number;
  peakStep: number;
}

export interface AgentSummary {
  agent: string;
  greedy: AccuracyCurveSummary;
  /** maj@E of the agent's own samples. */
  maj: AccuracyCurveSummary;
  /** Pseudo-label accuracy of the agent's own votes: mean over the first and the last window of steps. */
  pseudoLabelStart: number | null;
  pseudoLabelEnd: number | null;
  /** Accuracy of the labels it was trained on (co-rl: predecessor's votes), first and last window. */
  trainedLabelStart: number | null;
  trainedLabelEnd: number | null;
  /** Within-group reward std normalised to step 1 (paper Fig. 4b), mean over the last window. */
  rewardGroupStdNormEnd: number | null;
  /** Batch reward std normalised to step 1, mean over the last window. */
  rewardStdNormEnd: number | null;
  /** Share of zero-std groups, mean over the last window. */
  zeroStdFractionEnd: number | null;
  /** KL to base, mean over the last window. */
  klEnd: number | null;
}

export interface MethodSummary {
  method: RewardMethod;
  steps: number;
  agents: AgentSummary[];
  /** Mean over agents of greedy accuracy. */
  meanGreedy: AccuracyCurveSummary;
  /** The pooled cohort ensemble (maj over E samples from each agent). */
  ensemble: AccuracyCurveSummary;
  /** Mean wall-clock seconds per training step. */
  secondsPerStep: number;
}

/** Steps averaged for "start" and "end" figures: 10% of the run, at least 1 and at most 20. */
export function windowSize(steps: number): number {
  return Math.max(1, Math.min(20, Math.round(steps * 0.1)));
}

const meanOf = (xs: (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

function curve(evals: readonly EvalRecord[], f: (e: EvalRecord) => number): AccuracyCurveSummary {
  if (evals.length === 0) return { base: NaN, final: NaN, peak: NaN, peakStep: 0 };
  let peak = -Infinity;
  let peakStep = 0;
  for (const e of evals) {
    const v = f(e);
    if (v > peak) {
      peak = v;
      peakStep = e.step;
    }
  }
  const base = evals.find((e) => e.step === 0);
  return { base: base ? f(base) : NaN, final: f(evals[evals.length - 1]), peak, peakStep };
}

/** Summaries of every method from its step and eval records (in step order). */
export function summarize(
  methods: readonly RewardMethod[],
  steps: readonly StepRecord[],
  evals: readonly EvalRecord[],
): MethodSummary[] {
  return methods.map((method) => {
    const st = steps.filter((s) => s.method === method);
    const ev = evals.filter((e) => e.method === method).sort((a, b) => a.step - b.step);
    const w = windowSize(st.length);
    const first = st.slice(0, w);
    const last = st.slice(-w);
    const ids = (ev[0]?.agents ?? st[0]?.agents ?? []).map((a) => a.agent);
    const pick = (ss: StepRecord[], id: string, f: (a: AgentStepRecord) => number | null): number | null =>
      meanOf(
        ss.map((s) => {
          const a = s.agents.find((x) => x.agent === id);
          return a ? f(a) : null;
        }),
      );
    const agents: AgentSummary[] = ids.map((id) => ({
      agent: id,
      greedy: curve(ev, (e) => e.agents.find((a) => a.agent === id)?.greedyAccuracy ?? NaN),
      maj: curve(ev, (e) => e.agents.find((a) => a.agent === id)?.majAccuracy ?? NaN),
      pseudoLabelStart: pick(first, id, (a) => a.pseudoLabelAccuracy),
      pseudoLabelEnd: pick(last, id, (a) => a.pseudoLabelAccuracy),
      trainedLabelStart: pick(first, id, (a) => a.trainedLabelAccuracy),
      trainedLabelEnd: pick(last, id, (a) => a.trainedLabelAccuracy),
      rewardGroupStdNormEnd: pick(last, id, (a) => a.rewardGroupStdNorm),
      rewardStdNormEnd: pick(last, id, (a) => a.rewardStdNorm),
      zeroStdFractionEnd: pick(last, id, (a) => a.zeroStdFraction),
      klEnd: pick(last, id, (a) => a.kl),
    }));
    return {
      method,
      steps: st.length,
      agents,
      meanGreedy: curve(ev, (e) => e.meanGreedyAccuracy),
      ensemble: curve(ev, (e) => e.ensembleAccuracy),
      secondsPerStep: st.length ? st.reduce((a, s) => a + s.timing.total, 0) / st.length : 0,
    };
  });
}
