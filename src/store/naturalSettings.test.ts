// The run settings of the natural presets and of composed agents by axes (src/formats/composeAxes.ts): the
// experiment config they describe (agents by axes, no checkpoint, the preset's or chosen task), the start
// command's fields (only the test recipe travels; no older preset pretraining), links and JSON carrying
// them, and bad axes refused with Node's own messages (parseAxisAgent, contextErrors) before any work.
import { describe, expect, it } from 'vitest';
import { contextErrors } from '../cohort/axes';
import { NATURAL_PRESETS, naturalPresetSpecs } from '../cohort/naturalPresets';
import { composeTask, COMPOSE_TASK_NAMES } from '../formats/composeAxes';
import { cohortStartFields } from './cohortStart';
import { customAgentProblems, customAgentSpecs, type CustomAgent } from '../formats/customCohort';
import {
  DEFAULT_RUN_SETTINGS,
  settingsProblems,
  toExperimentConfig,
  type RunSettings,
} from '../formats/runSettings';
import { settingsFromJson, settingsFromQuery, settingsToQuery } from '../formats/urlConfig';

const natural = (preset: string, more: Partial<RunSettings> = {}): RunSettings => ({
  ...DEFAULT_RUN_SETTINGS,
  preset,
  ...more,
});
const agent = (id: string, extra: Partial<CustomAgent> = {}): CustomAgent => ({
  id,
  family: 'nat-rope',
  size: 's',
  seed: 1,
  view: 'plain',
  source: 'pretrain',
  ...extra,
});
const composed = (agents: CustomAgent[], customTask = 'addw'): RunSettings => ({
  ...DEFAULT_RUN_SETTINGS,
  cohortMode: 'custom',
  customAgents: agents,
  customTask,
});

describe('natural presets in the run settings', () => {
  it('describe an agent-list experiment by axes on the preset task', () => {
    const s = natural('natural-muladdw-ring');
    const c = toExperimentConfig(s);
    expect(c.task).toEqual({ kind: 'muladdw', aDigits: 2, cDigits: 2 });
    expect(c.cohort).toEqual({ agents: naturalPresetSpecs('natural-muladdw-ring') });
    expect(settingsProblems(s)).toEqual({});
    expect(settingsProblems({ ...s, methods: ['co-rl'] })).toEqual({});
  });

  it('send only the test recipe to the worker (never the older preset pretraining)', () => {
    const s = natural('natural-addw-seed-only');
    expect(cohortStartFields(s, {}, { maxSteps: 2 })).toEqual({
      pretrain: { recipe: { maxSteps: 2 }, paths: [] },
    });
    expect(cohortStartFields(s, {}, undefined)).toEqual({ pretrain: undefined });
    expect(cohortStartFields({ ...s, pretrainHere: true }, {}, undefined)).toEqual({ pretrain: undefined });
  });

  it('travel in links and JSON; an unknown compose task is refused, naming the valid ones', () => {
    const s = natural('natural-addw-different-family-plus');
    const back = settingsFromQuery(`?${settingsToQuery(s)}`);
    expect(back.settings.preset).toBe('natural-addw-different-family-plus');
    const c = composed([
      agent('A', { tokenizer: 'chunk2', arch: { nLayer: 1 }, corpus: { draw: 'share', index: 1, of: 3 } }),
      agent('B', { corpus: { draw: 'random', size: 500, stream: 'b' } }),
    ]);
    expect(settingsFromQuery(`?${settingsToQuery(c)}`).settings).toEqual(c); // a link carries the axes
    const j = settingsFromJson(JSON.parse(JSON.stringify(c)));
    expect(j.ok && j.settings).toEqual(c);
    const r = settingsFromJson({ ...c, customTask: 'mul' });
    expect(!r.ok && r.errors).toEqual([
      `customTask: customTask must be one of ${[...COMPOSE_TASK_NAMES, 'file'].join(', ')}; got "mul"`,
    ]);
  });
});

describe('composed agents by axes', () => {
  it('carry their axes into the config; shipped agents keep their path', () => {
    const a = agent('A', { family: 'nat-chunk', tokenizer: 'chunk3', arch: { nEmbd: 24, pos: 'rope' } });
    const c = toExperimentConfig(composed([a, agent('B')]));
    expect(c.task).toEqual(NATURAL_PRESETS['natural-addw-seed-only'].task);
    expect(c.cohort).toEqual({
      agents: [
        {
          id: 'A',
          family: 'nat-chunk',
          size: 's',
          seed: 1,
          view: 'plain',
          tokenizer: 'chunk3',
          arch: { nEmbd: 24, pos: 'rope' },
        },
        { id: 'B', family: 'nat-rope', size: 's', seed: 1, view: 'plain' },
      ],
    });
    expect(customAgentSpecs([agent('S', { family: 'lp-nocarry', source: 'shipped' })])[0].checkpoint).toBe(
      'checkpoints/add-d2/lp-nocarry.s.s1.ckpt',
    );
    expect(settingsProblems(composed([a, agent('B')]))).toEqual({});
  });

  it('refuse bad axes with the messages of a Node config, before any work', () => {
    const task = composeTask('addw');
    const small = agent('A', { arch: { blockSize: 12 } });
    const [node] = contextErrors({ ...small, arch: { blockSize: 12 } }, task);
    expect(node).toMatch(
      /^agent A: arch\.blockSize 12 cannot hold the prompt \(\d+ tokens\) plus the longest completion with EOS \(\d+ tokens\) of addw\(digits=3, evalFraction=0\.2\) in the plain view: needs at least \d+$/,
    );
    const problems = customAgentProblems(
      [
        small,
        agent('B', { tokenizer: 'bytes' as never }),
        agent('C', { arch: { nLayer: 2.5, pos: 'alibi' as never } }),
        agent('D', { corpus: { draw: 'share', index: 3, of: 2 } }),
        agent('E', { family: 'lp-nocarry', source: 'shipped', tokenizer: 'chunk2' }),
        agent('F', { family: 'lp-nocarry', source: 'shipped' }),
      ],
      {},
      task,
    );
    expect(problems).toEqual([
      node.replace(/^agent A:/, 'agent 1 (A):'),
      'agent 2 (B).tokenizer: unknown tokenizer "bytes"; valid tokenizers: digit, chunk2, chunk3, words',
      'agent 3 (C).arch.nLayer: must be an integer in [1, 12], got 2.5',
      "agent 3 (C).arch.pos: must be 'learned' or 'rope', got \"alibi\"",
      expect.stringMatching(/^agent 4 \(D\)\.corpus\.index: /),
      'agent 5 (E): tokenizer, arch and corpus apply only to an agent pretrained here; choose "pretrain here"',
      'agent 5 (E): checkpoints are shipped only for add-d2; choose "pretrain here"',
      'agent 6 (F): checkpoints are shipped only for add-d2; choose "pretrain here"',
    ]);
    // the same messages reach the settings and block Start
    expect(settingsProblems(composed([small])).customAgents).toBe(problems[0]);
  });
});
