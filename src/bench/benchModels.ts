// The models a benchmark run measures: every agent of a cohort preset at its real size (the family's
// architecture, the task's vocabulary and context), with the batch shapes its training runs at: the
// family's pretraining batch for the supervised step, and the default Co-RL batch (prompts x samples,
// prompt + completion slots) for the RL shapes.
import { PRESET_NAMES, getPreset, presetAgentSpecs } from '../cohort/presets';
import { familyGPTConfig, getFamily } from '../cohort/families';
import { agentLayout, familyTokenizer } from '../cohort/pretrain';
import { makeDataPool } from '../cohort/regions';
import { DEFAULT_TRAIN } from '../rl/config';
import { type BenchModel, UnknownBenchNameError } from './benchSuite';

/** The preset `npm run bench` measures unless told otherwise (the Train view's default). */
export const DEFAULT_BENCH_PRESET = 'paper-demo';

/** Extra completion slots the Co-RL trainer gives beyond the longest correct completion + EOS. */
const RL_SLACK = 2;

/** The agents of `preset` as benchmark models; throws listing the valid presets for an unknown name. */
export function presetBenchModels(preset: string): BenchModel[] {
  if (!PRESET_NAMES.includes(preset)) throw new UnknownBenchNameError('preset', [preset], PRESET_NAMES);
  const p = getPreset(preset);
  const pool = makeDataPool(p.task, getFamily(p.agents[0].family).recipe.valSize);
  return presetAgentSpecs(preset).map((spec) => {
    const family = getFamily(spec.family);
    const tok = familyTokenizer(family, p.task);
    const layout = agentLayout(pool.task, family.view, pool.training);
    const cfg = familyGPTConfig(family, spec.size, tok.vocabSize, layout.blockSize, spec.seed);
    const room = layout.blockSize - layout.promptLength + 1;
    return {
      agent: spec.id,
      family: spec.family,
      cfg,
      sft: { B: family.recipe.batch, T: layout.promptLength + layout.maxNewTokens - 1 },
      rl: {
        rows: DEFAULT_TRAIN.batchPrompts * DEFAULT_TRAIN.samples,
        Tp: layout.promptLength,
        maxNew: Math.min(layout.maxNewTokens + RL_SLACK, room),
      },
    };
  });
}
