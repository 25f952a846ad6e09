// Cohort presets: named cohorts of base agents on one task, from errors that overlap a lot (one family,
// two seeds) to errors that are decoupled (other architecture, other data, other view), and a
// three-agent ring (docs/method.md, "Setting" and "Diversity and error overlap"). Every agent is (family, size, seed); its base checkpoint is a
// pure function of those and the task, so presets that share an agent share its checkpoint file.
import type { TaskConfig } from '../tasks';
import { resolveTaskConfig } from '../tasks';
import type { AgentSpec } from './agent';
import { getFamily, familyArch } from './families';
import { unknownName } from './names';

/** One agent of a preset; its seed is the preset seed + seedOffset. */
export interface PresetAgent {
  id: string;
  family: string;
  size: string;
  seedOffset: number;
}

export interface CohortPreset {
  name: string;
  /** One line for the UI and the docs. */
  description: string;
  task: TaskConfig;
  agents: PresetAgent[];
}

/** The task every shipped preset uses: 2-digit addition (10,000 problems: 8,000 train, 2,000 eval). */
export const DEFAULT_TASK: TaskConfig = { kind: 'add', digits: 2 };
/** The seed the shipped checkpoints were made with. */
export const DEFAULT_PRESET_SEED = 1;

const agent = (id: string, family: string, seedOffset = 0, size = 's'): PresetAgent => ({
  id,
  family,
  size,
  seedOffset,
});

/** Every preset. */
export const PRESETS: Readonly<Record<string, CohortPreset>> = {
  'same-family': {
    name: 'same-family',
    description:
      'engineered: one architecture, one carry-heavy data recipe, two seeds: both blind on the same half (high kappa, failure built in)',
    task: DEFAULT_TASK,
    agents: [agent('A', 'rope-carry', 0), agent('B', 'rope-carry', 1)],
  },
  'different-family': {
    name: 'different-family',
    description:
      'engineered: other architecture and a hand-picked data region: a no-carry specialist and a carry specialist (kappa -0.28, built in; the natural presets are in docs/cohorts.md)',
    task: DEFAULT_TASK,
    agents: [agent('A', 'lp-nocarry'), agent('B', 'rope-carry')],
  },
  'different-family-plus': {
    name: 'different-family-plus',
    description:
      'engineered: other architecture, a hand-picked data region and another prompt view (plain vs words)',
    task: DEFAULT_TASK,
    agents: [agent('A', 'lp-nocarry'), agent('B', 'rope-carry-words')],
  },
  ring: {
    name: 'ring',
    description:
      'engineered: three families on a directed ring A -> B -> C -> A (each graded by its predecessor), two of them region specialists',
    task: DEFAULT_TASK,
    agents: [agent('A', 'lp-nocarry'), agent('B', 'rope-carry'), agent('C', 'deep-rev')],
  },
  'paper-demo': {
    name: 'paper-demo',
    description:
      'the worked example (engineered): two complementary specialists, each pretrained on a hand-picked half of 2-digit addition (no-carry vs carry), about 0.6-0.67 greedy accuracy and right in different places; a picture of the theorem, not evidence for it',
    task: DEFAULT_TASK,
    agents: [agent('A', 'lp-nocarry'), agent('B', 'rope-carry')],
  },
};

/** All preset names. */
export const PRESET_NAMES = Object.keys(PRESETS);

/** The preset named `name`, or throw listing the valid names. */
export function getPreset(name: string): CohortPreset {
  const p = PRESETS[name];
  if (!p) throw unknownName('preset', name, PRESET_NAMES);
  return p;
}

/** A short tag of a task config for file names, e.g. "add-d2" (evalFraction only when not the default). */
export function taskTag(task: TaskConfig): string {
  const c = resolveTaskConfig(task) as unknown as Record<string, unknown>;
  const parts = Object.entries(c)
    .filter(([k, v]) => k !== 'kind' && !(k === 'evalFraction' && v === 0.2))
    .map(
      ([k, v]) =>
        `${k === 'digits' ? 'd' : k}${String(v).replace(/[^A-Za-z0-9.]/g, (ch) => (ch === '+' ? 'plus' : ch === '*' ? 'times' : '_'))}`,
    );
  return [c.kind as string, ...parts].join('-');
}

/** Path (relative to public/) of the base checkpoint of (family, size, seed) on a task. */
export function checkpointPath(task: TaskConfig, family: string, size: string, seed: number): string {
  return `checkpoints/${taskTag(task)}/${family}.${size}.s${seed}.ckpt`;
}

/**
 * The agent specs of a preset for a preset seed (default: the shipped one), each with its view and
 * checkpoint path. Throws listing the valid names for an unknown preset, family or size.
 */
export function presetAgentSpecs(name: string, seed = DEFAULT_PRESET_SEED): AgentSpec[] {
  const p = getPreset(name);
  return p.agents.map((a) => {
    const family = getFamily(a.family);
    familyArch(family, a.size); // validates the size
    const s = seed + a.seedOffset;
    return {
      id: a.id,
      family: a.family,
      size: a.size,
      seed: s,
      view: family.view,
      checkpoint: checkpointPath(p.task, a.family, a.size, s),
    };
  });
}
