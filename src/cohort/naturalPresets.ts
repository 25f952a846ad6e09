// The natural presets (docs/method.md ("Natural diversity"); docs/natural-cohorts.md): the cohorts of
// experiments/natural-rl/{addw,muladdw}-*.json, one definition shared by the page and checked against those
// files by naturalPresets.test.ts so the two cannot drift. Their agents are given by axes with no checkpoint:
// each is pretrained on first use (NATURAL_RECIPE, its corpus ladder included) into a content-addressed cache.
import type { TaskConfig } from '../tasks';
import { describeTaskConfig, resolveTaskConfig } from '../tasks';
import type { AgentSpec } from './agent';
import { parseAxisAgent } from './axes';
import type { NaturalPreset, NaturalPresetAgent } from './presetTypes';
import { REGIME_CANDIDATES } from './regimePresets';

export { REGIME_CANDIDATES };
export type { NaturalPreset } from './presetTypes';

/** The two task kinds with working (src/tasks/workKinds.ts), as the natural presets use them. */
export const NATURAL_TASKS: Readonly<Record<'addw' | 'muladdw', TaskConfig>> = {
  addw: { kind: 'addw', digits: 3 },
  muladdw: { kind: 'muladdw', aDigits: 2, cDigits: 2 },
};

const a = (id: string, family: string, size = 's', view?: AgentSpec['view']): NaturalPresetAgent => ({
  id,
  family,
  size,
  seed: 1,
  ...(view ? { view } : {}),
});

/** The six levels: agents and what differs (docs/natural-cohorts.md "The natural presets"). */
type Kind = keyof typeof NATURAL_TASKS;
type Level = { level: string; differs: string; agents: NaturalPresetAgent[] };
const LEVELS: readonly (Level | ((kind: Kind) => Level))[] = [
  {
    level: 'seed-only',
    differs:
      'nothing: one checkpoint (nat-rope.s seed 1) twice, two sampling streams and optimizers (the paper\'s "Same family" Co-RL)',
    agents: [a('A', 'nat-rope'), a('B', 'nat-rope')],
  },
  {
    level: 'same-family',
    differs: 'one lineage, two widths (nat-rope.s x nat-rope.xs, one corpus stream)',
    agents: [a('R', 'nat-rope'), a('Rx', 'nat-rope', 'xs')],
  },
  {
    level: 'different-arch',
    differs: 'architecture only (nat-rope.s x nat-deep.s: same tokenizer, view and corpus stream)',
    agents: [a('R', 'nat-rope'), a('D', 'nat-deep')],
  },
  {
    level: 'different-family',
    differs: 'architecture, tokenizer and corpus (nat-rope.s x nat-chunk.s)',
    agents: [a('R', 'nat-rope'), a('C', 'nat-chunk')],
  },
  {
    level: 'different-family-plus',
    differs:
      'architecture, tokenizer, corpus and a rephrased prompt (nat-rope.s x nat-chunk.s in the words view)',
    agents: [a('R', 'nat-rope'), a('Cw', 'nat-chunk', 's', 'words')],
  },
  // on addw the third family is nat-deep.s: nat-rev.s never plateaued inside the band there (the config's note)
  (kind) => {
    const third = kind === 'addw' ? a('D', 'nat-deep') : a('V', 'nat-rev');
    return {
      level: 'ring',
      differs: `three families on the directed ring nat-rope.s -> nat-chunk.s -> ${third.family}.s`,
      agents: [a('R', 'nat-rope'), a('C', 'nat-chunk'), third],
    };
  },
];

/** Every natural preset, by name: each level on each task kind. */
export const NATURAL_PRESETS: Readonly<Record<string, NaturalPreset>> = Object.fromEntries(
  (['addw', 'muladdw'] as const).flatMap((kind) =>
    LEVELS.map((entry) => {
      const l = typeof entry === 'function' ? entry(kind) : entry;
      const name = `natural-${kind}-${l.level}`;
      return [
        name,
        { name, level: l.level, differs: l.differs, task: NATURAL_TASKS[kind], agents: l.agents },
      ];
    }),
  ),
);

/** The presets the page offers beside the engineered ones: the memorising natural ones, then the candidates. */
const ALL: Readonly<Record<string, NaturalPreset>> = { ...NATURAL_PRESETS, ...REGIME_CANDIDATES };

/** All natural preset names, addw first, then the regime candidates. */
export const NATURAL_PRESET_NAMES = Object.keys(ALL);

/** Whether `name` is a natural preset. */
export const isNaturalPreset = (name: unknown): name is string =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(ALL, name);

/** The natural preset or regime candidate of that name (undefined for any other). */
export const naturalPreset = (name: string): NaturalPreset | undefined =>
  isNaturalPreset(name) ? ALL[name] : undefined;

/** The experiment-config agent specs of a natural preset (defaults filled by parseAxisAgent; no checkpoint). */
export function naturalPresetSpecs(name: string): AgentSpec[] {
  const p = naturalPreset(name);
  if (!p)
    throw new Error(
      `unknown natural preset ${JSON.stringify(name)}; valid: ${NATURAL_PRESET_NAMES.join(', ')}`,
    );
  return p.agents.map((x, i) => {
    const r = parseAxisAgent({ ...x }, `${name}.agents[${i}]`);
    if ('errors' in r) throw new Error(r.errors.join('; '));
    return r.spec;
  });
}

/** The task of a natural preset in words. */
export const naturalPresetTask = (name: string): string =>
  describeTaskConfig(resolveTaskConfig(ALL[name].task));
