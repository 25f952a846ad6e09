// The Train view's "RL prompts" setting (src/formats/runSettings.ts -> train.prompts, src/rl/unseenPrompts.ts):
// carried into the config only when it says 'unseen' (the configs before it keep their bytes), and refused with
// the reason where the agents' pools leave no unseen train problems.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_SETTINGS, settingsProblems, toExperimentConfig, type RunSettings } from './runSettings';
import { settingsFromQuery } from './urlConfig';

const at = (s: Partial<RunSettings>): RunSettings => ({ ...DEFAULT_RUN_SETTINGS, ...s });

describe('the RL prompts setting', () => {
  it("reaches the config only as 'unseen'", () => {
    expect(toExperimentConfig(at({})).train).not.toHaveProperty('prompts');
    expect(toExperimentConfig(at({ prompts: 'unseen', preset: 'regime-mulw-seed-only' })).train.prompts).toBe(
      'unseen',
    );
  });

  it('is refused on a preset whose agents pretrained on every train problem, and allowed on one in the regime', () => {
    expect(settingsProblems(at({ prompts: 'unseen' })).prompts).toMatch(
      /train\.prompts 'unseen': the base agents' pretraining pools cover all but 0 of the train split/,
    );
    expect(settingsProblems(at({ prompts: 'train' })).prompts).toBeUndefined();
    expect(settingsProblems(at({ prompts: 'unseen', preset: 'regime-mulw-seed-only' }))).toEqual({});
  });

  it('round-trips through a link, and an unknown source is named', () => {
    const r = settingsFromQuery('?preset=regime-mulw-seed-only&prompts=unseen');
    expect(r.settings.prompts).toBe('unseen');
    expect(settingsProblems(at({ prompts: 'fresh' as RunSettings['prompts'] })).prompts).toMatch(
      /prompts must be one of train, unseen; got "fresh"/,
    );
  });
});
