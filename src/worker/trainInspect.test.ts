// The training worker's inspector requests on the CPU backend with the shipped checkpoints: the latest
// step in full and an agent's attention, while paused, while running and after the run is done; bad
// requests answered with an 'inspectError' event while the run goes on.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import type { InspectEvent } from './protocol';
import { controllerHarness } from './controllerHarness';
import { TrainController } from './trainController';

const config: ExperimentConfig = {
  name: 't',
  seed: 4,
  steps: 3,
  methods: ['co-rl', 'gt'],
  cohort: { preset: 'paper-demo' },
  task: null,
  train: { ...DEFAULT_TRAIN, batchPrompts: 2, samples: 3 },
  eval: { ...DEFAULT_EVAL, every: 0, problems: 4, ensembleSamples: 2 },
};

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('TrainController inspector requests', () => {
  it('answers inspect and attention between lock steps, and keeps a finished run loaded', async () => {
    const { c, events, until } = controllerHarness();
    close = () => c.close();
    const answer = async (cmd: Parameters<TrainController['command']>[0]): Promise<InspectEvent> => {
      const from = events.length;
      await c.command(cmd);
      const e = events
        .slice(from)
        .find((x) => x.type === 'inspection' || x.type === 'attention' || x.type === 'inspectError');
      if (!e) throw new Error(`no answer to ${JSON.stringify(cmd)}`);
      return e as InspectEvent;
    };

    // nothing loaded yet: no inspection, and attention says why
    expect(await answer({ type: 'inspect', method: 'co-rl' })).toEqual({
      type: 'inspection',
      runId: 0,
      method: 'co-rl',
      inspection: null,
    });
    expect(
      await answer({ type: 'attention', method: 'co-rl', agent: 'A', prompt: 0, sample: 0, layer: 0 }),
    ).toMatchObject({ type: 'inspectError', message: /no run is loaded/ });

    await c.command({ type: 'start', config, backend: 'cpu', delayMs: 0, paused: true });
    await until((e) => e.type === 'status' && e.phase === 'paused' && e.step === 0);
    expect(await answer({ type: 'inspect', method: 'gt' })).toMatchObject({
      type: 'inspection',
      runId: 1,
      inspection: null,
    });
    await c.command({ type: 'step' });
    await until((e) => e.type === 'status' && e.phase === 'paused' && e.step === 1);

    const ins = await answer({ type: 'inspect', method: 'co-rl' });
    if (ins.type !== 'inspection' || !ins.inspection)
      throw new Error(`expected an inspection, got ${JSON.stringify(ins)}`);
    const x = ins.inspection;
    expect([x.method, x.step, x.K, x.agents, x.labelFrom]).toEqual(['co-rl', 1, 3, ['A', 'B'], ['B', 'A']]);
    expect(x.prompts).toHaveLength(2);
    for (const p of x.prompts)
      p.agents.forEach((a, n) => {
        expect(a.label).toBe(p.agents[1 - n].vote);
        expect(a.rewards).toEqual(a.answers.map((s) => (s !== null && s === a.label ? 1 : 0)));
      });

    const layer = x.shapes[1].layers - 1;
    const att = await answer({ type: 'attention', method: 'co-rl', agent: 'B', prompt: 1, sample: 2, layer });
    if (att.type !== 'attention') throw new Error(`expected attention, got ${JSON.stringify(att)}`);
    const T = att.tokens.length;
    expect(att).toMatchObject({
      runId: 1,
      method: 'co-rl',
      agent: 'B',
      prompt: 1,
      sample: 2,
      layer,
      step: 1,
      heads: x.shapes[1].heads,
    });
    expect(att.tokens.join('')).toBe(x.prompts[1].agents[1].prompt + x.prompts[1].agents[1].completions[2]);
    expect(att.probs).toHaveLength(att.heads * T * T);

    // bad requests: a clear message, and the run goes on
    expect(
      await answer({
        type: 'attention',
        method: 'co-rl',
        agent: 'B',
        prompt: 0,
        sample: 0,
        layer: layer + 1,
      }),
    ).toMatchObject({
      type: 'inspectError',
      runId: 1,
      message: `layer ${layer + 1} is out of range for agent B: it has layers 0..${layer}`,
    });
    expect(
      await answer({ type: 'attention', method: 'co-rl', agent: 'Q', prompt: 0, sample: 0, layer: 0 }),
    ).toMatchObject({ type: 'inspectError', message: 'unknown agent "Q"; agents: A, B' });
    expect(await answer({ type: 'inspect', method: 'ttrl' })).toMatchObject({
      type: 'inspectError',
      message: 'method "ttrl" is not in this run; its methods: co-rl, gt',
    });

    // while running: requests wait for the lock step in progress, then are answered
    await c.command({ type: 'resume' });
    const during = await answer({
      type: 'attention',
      method: 'gt',
      agent: 'A',
      prompt: 0,
      sample: 0,
      layer: 0,
    });
    expect(during.type).toBe('attention');
    await until((e) => e.type === 'status' && e.phase === 'done');
    expect(
      events
        .filter((e) => e.type === 'step')
        .map((e) => e.type === 'step' && `${e.record.method}${e.record.step}`),
    ).toEqual(['co-rl1', 'gt1', 'co-rl2', 'gt2', 'co-rl3', 'gt3']);
    expect(events.some((e) => e.type === 'error')).toBe(false);

    // done: the finished run stays loaded for the inspector
    const last = await answer({ type: 'inspect', method: 'gt' });
    expect(last.type === 'inspection' && last.inspection?.step).toBe(3);
    expect(last.type === 'inspection' && last.inspection?.labelFrom).toEqual(['truth', 'truth']);
    expect(
      (await answer({ type: 'attention', method: 'gt', agent: 'A', prompt: 1, sample: 0, layer: 0 })).type,
    ).toBe('attention');

    // a reset frees it: back to no inspection until step 1
    await c.command({ type: 'reset' });
    await until((e) => e.type === 'status' && e.runId === 2 && e.phase === 'paused');
    expect(await answer({ type: 'inspect', method: 'gt' })).toMatchObject({
      type: 'inspection',
      runId: 2,
      inspection: null,
    });
  });
});
