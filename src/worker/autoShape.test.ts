// The shapes backend 'auto' times for a run: B x K rows and the widest agent's width and MLP width.
import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTO_SHAPE } from '../engine/autoSelect';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import { autoShapeOf } from './autoShape';

const config = (cohort: ExperimentConfig['cohort'], batchPrompts = 16, samples = 8): ExperimentConfig => ({
  name: 'x',
  seed: 1,
  steps: 1,
  methods: ['co-rl'],
  cohort,
  task: null,
  train: { ...DEFAULT_TRAIN, batchPrompts, samples },
  eval: DEFAULT_EVAL,
});

describe('autoShapeOf', () => {
  it("the default preset at 16 x 8 is the default shape; B x K follow the run's settings", () => {
    expect(autoShapeOf(config({ preset: 'paper-demo' }))).toEqual(DEFAULT_AUTO_SHAPE);
    expect(autoShapeOf(config({ preset: 'paper-demo' }, 4, 2)).rows).toBe(8);
  });

  it('an unknown preset is timed at the default widths (it is refused later with its own message)', () => {
    expect(autoShapeOf(config({ preset: 'no-such-preset' }, 2, 2))).toEqual({
      ...DEFAULT_AUTO_SHAPE,
      rows: 4,
    });
  });
});
