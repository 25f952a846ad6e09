// The Train view's live charts (docs/method.md ("What is measured")): agreement, pseudo-label accuracy, reward std normalised to
// step 1 (the paper's Fig. 4b), zero-std groups, held-out accuracy with the ensemble, completion length,
// entropy, KL to the base. Data comes from the store's records; charts never drive training.
import { useMemo } from 'react';
import { useStore } from '../../store/store';
import {
  agentStepChart,
  agreementChart,
  heldOutChart,
  METHOD_COLOUR,
  peakEnsemble,
  pseudoLabelChart,
} from './chartData';
import { MetricChart } from './MetricChart';
import { DiagnosticsChart } from './DiagnosticsChart';

export function TrainCharts() {
  const { runId, methods, steps, evals } = useStore((s) => s.metrics);
  // step charts follow the step records, the held-out chart the evaluations: each rebuilds only on its own
  const st = useMemo(() => ({ runId, methods, steps, evals: {} }), [runId, methods, steps]);
  const ev = useMemo(() => ({ runId, methods, steps: {}, evals }), [runId, methods, evals]);
  const agreement = useMemo(() => agreementChart(st), [st]);
  const pseudo = useMemo(() => pseudoLabelChart(st), [st]);
  const std = useMemo(() => agentStepChart(st, (a) => a.rewardGroupStdNorm), [st]);
  const zeroStd = useMemo(() => agentStepChart(st, (a) => a.zeroStdFraction), [st]);
  const length = useMemo(() => agentStepChart(st, (a) => a.meanLength), [st]);
  const entropy = useMemo(() => agentStepChart(st, (a) => a.meanEntropy), [st]);
  const kl = useMemo(() => agentStepChart(st, (a) => a.kl), [st]);
  const heldOut = useMemo(() => heldOutChart(ev), [ev]);
  const peaks = useMemo(
    () =>
      peakEnsemble(ev).map((p) => ({
        key: p.method,
        x: p.step,
        y: p.accuracy,
        colour: METHOD_COLOUR[p.method],
      })),
    [ev],
  );

  return (
    <div className="train-charts" data-testid="train-charts">
      <MetricChart
        name="heldout"
        slot={0}
        title="Held-out accuracy"
        caption="Greedy accuracy of each agent on problems never trained on; the thick pale line is the cohort ensemble (4 samples per agent pooled into one vote); a dot marks each method's peak."
        data={heldOut}
        yMax={1}
        marks={peaks}
      />
      <MetricChart
        name="agreement"
        slot={1}
        title="Pairwise agreement"
        caption="Share of prompts labelled by both agents where their votes are equal; under Co-RL it should stay below 1 while accuracy rises (1 from the start means copies)."
        data={agreement}
        yMax={1}
      />
      <MetricChart
        name="pseudo-label"
        slot={2}
        title="Pseudo-label accuracy"
        caption="Share of an agent's labelled prompts where its own vote is the true answer; faint lines: the labels Co-RL trained it on (its predecessor's votes)."
        data={pseudo}
        yMax={1}
      />
      <MetricChart
        name="reward-std"
        slot={3}
        title="Reward std (÷ its step-1 value)"
        caption="Mean within-group reward spread divided by its step-1 value (the paper's Fig. 4b): the learning signal; heading to 0 means collapse."
        data={std}
      />
      <MetricChart
        name="zero-std"
        slot={4}
        title="Groups with zero reward std (share)"
        caption="Share of prompts whose K rewards are all equal: those groups carry no gradient; rising to 1 means learning has stopped."
        data={zeroStd}
        yMax={1}
      />
      <MetricChart
        name="length"
        slot={5}
        title="Mean completion length (tokens)"
        caption="Tokens per completion (EOS included); sudden growth or a collapse to very short outputs signals a degenerate policy."
        data={length}
      />
      <MetricChart
        name="entropy"
        slot={6}
        title="Token entropy (nats)"
        caption="Mean per-token entropy of the sampling distribution (nats): falls as an agent grows confident; a crash to 0 without an accuracy gain is collapse."
        data={entropy}
      />
      <MetricChart
        name="kl"
        slot={7}
        title="KL to the base model (nats per token)"
        caption="How far each agent has drifted from its base checkpoint (k3 estimator on its own completions; measured even with no KL penalty)."
        data={kl}
      />
      <DiagnosticsChart slot={8} />
    </div>
  );
}
