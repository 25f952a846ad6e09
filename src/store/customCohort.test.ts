// Tests for the composed cohort: the experiment config it describes (valid, shipped paths checked
// against the real files, a non-default view on its own path), every problem named per agent (family,
// size, duplicate ids, seeds, a shipped checkpoint the manifest lacks, an import no longer loaded), the
// start command's pretrain and checkpoint fields, and importing a checkpoint file as an agent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeReader, PUBLIC_DIR, readManifestSync } from '../cohort/nodeFiles';
import { validateExperiment } from '../rl/cohortEnv';
import { parseExperimentConfig } from '../rl/config';
import {
  agentFromImport,
  cohortContext,
  customAgentProblems,
  type CustomAgent,
} from '../formats/customCohort';
import { cohortStartFields } from './cohortStart';
import {
  DEFAULT_RUN_SETTINGS,
  settingsProblems,
  toExperimentConfig,
  type RunSettings,
} from '../formats/runSettings';
import { presetCatalog } from './trainBridge';

const agent = (id: string, family: string, seed: number, extra: Partial<CustomAgent> = {}): CustomAgent => ({
  id,
  family,
  size: 's',
  seed,
  view: family === 'deep-rev' ? 'reversed' : 'plain',
  source: 'shipped',
  ...extra,
});
const custom = (agents: CustomAgent[], more: Partial<RunSettings> = {}): RunSettings => ({
  ...DEFAULT_RUN_SETTINGS,
  cohortMode: 'custom',
  customAgents: agents,
  ...more,
});
const ctx = cohortContext(presetCatalog(readManifestSync()), {});

describe('a composed cohort in the run settings', () => {
  it('describes a valid agent-list experiment on the presets task, its shipped checkpoints really there', async () => {
    const s = custom([
      agent('A', 'lp-nocarry', 1),
      agent('B', 'rope-carry', 5, { source: 'pretrain', view: 'words' }),
    ]);
    const c = toExperimentConfig(s);
    expect(c.task).toEqual({ kind: 'add', digits: 2 });
    expect(c.name).toBe('playground-custom');
    expect(c.cohort).toEqual({
      agents: [
        {
          id: 'A',
          family: 'lp-nocarry',
          size: 's',
          seed: 1,
          view: 'plain',
          checkpoint: 'checkpoints/add-d2/lp-nocarry.s.s1.ckpt',
        },
        {
          id: 'B',
          family: 'rope-carry',
          size: 's',
          seed: 5,
          view: 'words', // no checkpoint: the worker builds it by its axes (src/worker/axisBuilds.ts)
        },
      ],
    });
    expect(parseExperimentConfig(c).ok).toBe(true);
    expect(settingsProblems(s, undefined, ctx)).toEqual({});
    // the shipped agent's file passes the worker's checks (B gets its path once built)
    const v = await validateExperiment(
      {
        ...c,
        methods: ['ttrl'],
        cohort: { agents: [(c.cohort as { agents: object[] }).agents[0] as never] },
      },
      nodeReader(),
    );
    expect(v.ok ? [] : v.errors).toEqual([]);
    // the test recipe travels to the worker's on-demand builds; no path of the older preset pretraining
    expect(cohortStartFields(s, {}, { maxSteps: 6 })).toEqual({
      pretrain: { recipe: { maxSteps: 6 }, paths: [] },
      checkpoints: undefined,
    });
    expect(cohortStartFields(s, {}, undefined)).toEqual({ pretrain: undefined, checkpoints: undefined });
    expect(cohortStartFields(custom([agent('A', 'lp-nocarry', 1)]), {}, undefined)).toEqual({
      pretrain: undefined,
      checkpoints: undefined,
    });
    // preset mode is unchanged: the preset, no task, pretrain only when asked
    expect(toExperimentConfig(DEFAULT_RUN_SETTINGS).cohort).toEqual({ preset: 'paper-demo' });
    expect(cohortStartFields({ ...DEFAULT_RUN_SETTINGS, pretrainHere: true }, {}, undefined)).toEqual({
      pretrain: {},
    });
  });

  it('names every problem with the agents, keyed customAgents', () => {
    const bad = custom([
      agent('A', 'lp-nocarry', 1),
      agent('A', 'rope-carry', 1),
      agent('C', 'gpt5', 1),
      agent('D', 'rope-carry', 2.5, { source: 'pretrain' }),
      agent('E', 'lp-nocarry', 1, { size: 'xl', source: 'pretrain' }),
      agent('F', 'rope-carry', 9),
      agent('G', 'rope-carry', 1, { view: 'swap' }),
      agent('H', 'rope-carry', 1, { source: 'imported', importKey: 'gone-12345678' }),
    ]);
    const lines = settingsProblems(bad, undefined, ctx).customAgents!.split('\n');
    expect(lines).toEqual([
      'agent 2 (A): id A is used twice (ids must be unique)',
      'agent 3 (C): unknown family "gpt5" (families: lp-nocarry, rope-carry, rope-carry-words, deep-rev, nat-rope, nat-deep, nat-abs, nat-chunk, nat-rev)',
      'agent 4 (D): the seed must be an integer in [0, 4294967295], got 2.5',
      'agent 5 (E): family lp-nocarry has no size "xl" (sizes: s, m)',
      'agent 6 (F): no shipped checkpoint for rope-carry size s seed 9 (shipped for rope-carry: s.s1, s.s2); choose "pretrain here"',
      'agent 7 (G): no checkpoint is shipped in the swap view (family rope-carry reads plain); choose "pretrain here"',
      'agent 8 (H): its imported checkpoint is not loaded in this page (files are not kept in links); import it again or choose another source',
    ]);
    // without a context (manifest not read yet) the manifest and import checks wait
    expect(customAgentProblems([agent('F', 'rope-carry', 9)])).toEqual([]);
    expect(customAgentProblems([])).toEqual(['add at least one agent']);
    // restored settings that are not agent lists are named, not thrown on
    expect(customAgentProblems({} as never)).toEqual(['the agent list must be a list, got {}']);
    expect(customAgentProblems([agent('A', 'lp-nocarry', 1), null as never])).toEqual([
      'agent 2: must be an object { id, family, size, seed, view, source }, got null',
    ]);
    expect(toExperimentConfig(custom([null as never])).cohort).toEqual({ agents: [] });
    // co-rl counts the composed agents; other fields keep their own keys
    const one = settingsProblems(custom([agent('A', 'lp-nocarry', 1)], { lr: 0 }), 2, ctx);
    expect(one.methods).toBe(
      'co-rl needs at least 2 agents (each is graded by its ring predecessor); this cohort has 1',
    );
    expect(one.lr).toMatch(/\(0, 1\]/);
    expect(one.customAgents).toBeUndefined();
  });
});

describe('importing a checkpoint file as an agent', () => {
  const file = new Uint8Array(readFileSync(join(PUBLIC_DIR, 'checkpoints/add-d2/rope-carry.s.s1.ckpt')));
  const two = [agent('A', 'lp-nocarry', 1), agent('B', 'rope-carry', 2)];

  it('adds a shipped file as the next agent; its bytes go with the start command', () => {
    const r = agentFromImport(file, 'rope carry (1).ckpt', two);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.key).toMatch(/^rope_carry__1_-[0-9a-f]{8}$/);
    expect(r.agent).toEqual({
      id: 'C',
      family: 'rope-carry',
      size: 's',
      seed: 1,
      view: 'plain',
      source: 'imported',
      importKey: r.key,
    });
    expect(r.summary).toMatch(
      /^rope-carry\.s seed 1, plain view, 13,280 params, pretrained \d+ steps to \d+% validation accuracy$/,
    );
    const s = custom([...two, r.agent]);
    expect(
      settingsProblems(s, undefined, cohortContext(presetCatalog(readManifestSync()), { [r.key]: file })),
    ).toEqual({});
    const fields = cohortStartFields(s, { [r.key]: file }, undefined);
    expect(Object.keys(fields.checkpoints!)).toEqual([`imported/${r.key}.ckpt`]);
    expect(new Uint8Array(fields.checkpoints![`imported/${r.key}.ckpt`])).toEqual(file);
    expect((toExperimentConfig(s).cohort as { agents: { checkpoint?: string }[] }).agents[2].checkpoint).toBe(
      `imported/${r.key}.ckpt`,
    );
    // the same file again is refused
    const again = agentFromImport(file, 'copy.ckpt', [...two, r.agent]);
    expect(!again.ok && again.error).toBe('this file is already agent C');
  });

  it('refuses what is not a checkpoint of ours, and leaves the list alone', () => {
    const before = structuredClone(two);
    const r = agentFromImport(new TextEncoder().encode('hello, this is a text file'), 'notes.txt', two);
    expect(!r.ok && r.error).toMatch(/^not a checkpoint: magic "hello, t", expected "CORLCKPT"$/);
    expect(two).toEqual(before);
  });
});
