// The inspector's bridge never floods the worker: one inspect request per new step while open, one
// attention request per step and selection, never two of a kind in flight, nothing while closed.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StepInspection } from '../rl/inspection';
import type { StepRecord } from '../rl/records';
import type { TrainCommand, TrainEvent } from '../worker/protocol';

const sent: TrainCommand[] = [];
let listener: ((events: readonly TrainEvent[]) => void) | null = null;
vi.mock('./trainBridge', () => ({
  sendTrainCommand: (c: TrainCommand) => sent.push(c),
  onTrainEvents: (fn: (events: readonly TrainEvent[]) => void) => {
    listener = fn;
    return () => undefined;
  },
}));

const { useStore } = await import('./store');
const { chooseInspect, refreshInspection, resetInspectBridge, setInspectorOpen } = await import(
  './inspectBridge'
);

const stepRec = (method: 'co-rl' | 'ttrl', step: number) =>
  ({ method, step, agents: [], pairs: [], timing: {} }) as unknown as StepRecord;
const inspection = (method: 'co-rl' | 'ttrl', step: number): StepInspection => ({
  method,
  step,
  K: 2,
  agents: ['A', 'B'],
  labelFrom: ['B', 'A'],
  shapes: [
    { layers: 2, heads: 4 },
    { layers: 1, heads: 4 },
  ],
  prompts: [0, 1].map((index) => ({
    index,
    truth: '5',
    disagree: false,
    agents: ['A', 'B'].map((agent) => ({
      agent,
      prompt: '2+3=',
      completions: ['#5', '#6'],
      answers: ['5', '6'],
      rewards: [1, 0],
      eos: [true, true],
      vote: '5',
      voteShare: 0.5,
      label: '5',
    })),
  })),
});

/** The worker's records of a new step of every method arrive (as the training bridge folds them). */
function newStep(step: number): void {
  const m = useStore.getState().metrics;
  useStore.setState({
    metrics: {
      ...m,
      steps: {
        'co-rl': [...(m.steps['co-rl'] ?? []), stepRec('co-rl', step)],
        ttrl: [...(m.steps.ttrl ?? []), stepRec('ttrl', step)],
      },
    },
  });
  listener!([{ type: 'step', runId: 1, record: stepRec('co-rl', step) }]);
}
const answer = (step: number, method: 'co-rl' | 'ttrl' = 'co-rl') =>
  listener!([{ type: 'inspection', runId: 1, method, inspection: inspection(method, step) }]);

beforeEach(() => {
  sent.length = 0;
  resetInspectBridge();
  useStore.setState({ metrics: { runId: 1, methods: ['co-rl', 'ttrl'], steps: {}, evals: {} } });
  useStore.getState().setInspect({ open: false, inspection: null, attention: null, runId: 0, error: '' });
  useStore.getState().selectInspect({ method: null, prompt: 0, agent: null, sample: 0, layer: 0, head: 0 });
  refreshInspection(); // installs the listener
});

describe('inspectBridge', () => {
  it('asks nothing while closed or before step 1, then once per step', () => {
    newStep(1);
    expect(sent).toEqual([]); // closed
    setInspectorOpen(true);
    expect(sent).toEqual([{ type: 'inspect', method: 'co-rl' }]);
    newStep(2); // a step arrives while the first request is in flight: no second one
    refreshInspection();
    expect(sent).toHaveLength(1);
    answer(2); // the answer is already step 2: nothing more to ask, but the attention of the selection
    expect(sent.slice(1)).toEqual([
      { type: 'attention', method: 'co-rl', agent: 'A', prompt: 0, sample: 0, layer: 0 },
    ]);
    refreshInspection();
    expect(sent).toHaveLength(2);
    newStep(3);
    expect(sent.slice(2)).toEqual([{ type: 'inspect', method: 'co-rl' }]);
    newStep(4); // still in flight
    expect(sent).toHaveLength(3);
  });

  it('asks for attention once per step and selection, one in flight, clamped to the ranges', () => {
    newStep(1);
    setInspectorOpen(true);
    answer(1);
    expect(sent).toHaveLength(2);
    chooseInspect({ agent: 'B', layer: 5, sample: 1 }); // B has one block: layer 0; the first attention is still in flight
    expect(sent).toHaveLength(2);
    listener!([
      {
        type: 'attention',
        runId: 1,
        method: 'co-rl',
        agent: 'A',
        prompt: 0,
        sample: 0,
        layer: 0,
        step: 1,
        tokens: ['a'],
        promptTokens: 1,
        heads: 4,
        probs: [1, 1, 1, 1],
      },
    ]);
    expect(sent.slice(2)).toEqual([
      { type: 'attention', method: 'co-rl', agent: 'B', prompt: 0, sample: 1, layer: 0 },
    ]);
    listener!([{ type: 'inspectError', runId: 1, request: sent[2] as never, message: 'no' }]);
    expect(useStore.getState().inspect.error).toBe('no');
    chooseInspect({ head: 3 }); // the head is drawn from the attention at hand: no request
    expect(sent).toHaveLength(3);
    chooseInspect({ method: 'ttrl' });
    expect(sent.slice(3)).toEqual([{ type: 'inspect', method: 'ttrl' }]);
    expect(useStore.getState().inspect.inspection).toBeNull();
  });

  it('drops everything when a new run begins', () => {
    newStep(1);
    setInspectorOpen(true);
    answer(1);
    listener!([{ type: 'run', runId: 2, config: {} as never }]);
    expect(useStore.getState().inspect).toMatchObject({ inspection: null, attention: null, runId: 2 });
  });
});
