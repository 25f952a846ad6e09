// The training worker's regime checks on the CPU backend with the shipped paper-demo checkpoints: the
// 'regime' command answers with the same report as regimeCheck on the same agents (what the CLI runs), a
// bad count is an error event naming the field, and a run with eval.regime reuses a matching page report
// at step 0 and measures its own otherwise.
import { describe, expect, it } from 'vitest';
import { nodeReader } from '../cohort/nodeFiles';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { CohortLoader, validateExperiment } from '../rl/cohortEnv';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import { baseRegime } from '../rl/experiment';
import { makeTask } from '../tasks';
import { controllerHarness } from './controllerHarness';
import type { TrainEvent } from './protocol';

const config: ExperimentConfig = {
  name: 'regime',
  seed: 1,
  steps: 1,
  methods: ['gt'],
  cohort: { preset: 'paper-demo' },
  task: null,
  train: { ...DEFAULT_TRAIN, batchPrompts: 2, samples: 4 },
  eval: { ...DEFAULT_EVAL, problems: 4, every: 0, regime: 40 },
};

describe('worker regime checks', () => {
  it('answers a regime command with the report regimeCheck gives; reuses it at step 0 only when it matches', async () => {
    const { c, events, until } = controllerHarness();
    await c.command({ type: 'regime', requestId: 7, config, backend: 'cpu', problems: 40 });
    const ans = (await until((e) => e.type === 'regime' || e.type === 'regimeError')) as Extract<
      TrainEvent,
      { type: 'regime' }
    >;
    expect(ans.type).toBe('regime');
    expect(ans.requestId).toBe(7);
    expect(events.some((e) => e.type === 'regimeStatus' && e.requestId === 7)).toBe(true);

    const v = await validateExperiment(config, nodeReader());
    if (!v.ok) throw new Error(v.errors.join('\n'));
    const be = new CpuBackend();
    const agents = await new CohortLoader(nodeReader(), v.specs).load(be);
    const direct = await baseRegime(agents, makeTask(v.config.task!), v.config);
    expect(ans.report.figures.agents.map((a) => a.majK)).toEqual(direct.figures.agents.map((a) => a.majK));
    expect(ans.report.figures.agents.map((a) => a.greedy)).toEqual(
      direct.figures.agents.map((a) => a.greedy),
    );
    expect(ans.report.verdict).toEqual(direct.verdict);

    // a bad count names the field
    await c.command({ type: 'regime', requestId: 8, config, backend: 'cpu', problems: 3 });
    const bad = await until((e) => e.type === 'regimeError' && e.requestId === 8);
    expect((bad as { message: string }).message).toMatch(/problems: must be an integer >= 10, got 3/);

    // a run with the matching page report reuses it (the very object's figures); another K measures its own
    const from = events.length;
    await c.command({ type: 'start', config, backend: 'cpu', delayMs: 0, regime: ans.report });
    const r1 = await until((e) => e.type === 'runRegime', from);
    expect(r1).toMatchObject({ reused: true, report: ans.report });
    await until((e) => e.type === 'status' && e.phase === 'done', from);
    const from2 = events.length;
    const k2 = { ...config, train: { ...config.train, samples: 2 } };
    await c.command({ type: 'start', config: k2, backend: 'cpu', delayMs: 0, regime: ans.report });
    const r2 = (await until((e) => e.type === 'runRegime', from2)) as Extract<
      TrainEvent,
      { type: 'runRegime' }
    >;
    expect(r2.reused).toBe(false);
    expect(r2.report.K).toBe(2);
    expect(r2.report.figures.agents.map((a) => a.greedy)).toEqual(direct.figures.agents.map((a) => a.greedy));
    await c.close();
    for (const a of agents) a.model.free();
    be.destroy();
  }, 120_000);
});
