// The Train view's hyperparameters (defaults from src/rl/config.ts), each with one line of help; the
// learning rate and the temperature change a running run live, the others apply at the next Start.
import { useMemo, useState } from 'react';
import type { ScaleRewards } from '../../rl/advantages';
import type { LossType } from '../../rl/grpo';
import { changeSettings } from '../../store/trainBridge';
import { toExperimentConfig, type RunSettings, type TrainBackend } from '../../formats/runSettings';
import { seenPromptShare } from '../../rl/unseenPrompts';
import { NumberField } from './NumberField';
import { PromptsField } from './PromptsField';
import { TeacherField } from './TeacherField';

type NumKey = {
  [K in keyof RunSettings]: RunSettings[K] extends number ? K : never;
}[keyof RunSettings];

interface FieldDef {
  key: NumKey;
  label: string;
  help: string;
  step?: number | 'any';
  min?: number;
  live?: boolean;
}

const FIELDS: FieldDef[] = [
  {
    key: 'batchPrompts',
    label: 'B prompts',
    help: 'prompts per step, the same for every agent',
    step: 1,
    min: 1,
  },
  {
    key: 'samples',
    label: 'K samples',
    help: 'completions per prompt and agent; the vote is over these (≥ 2)',
    step: 1,
    min: 2,
  },
  { key: 'temperature', label: 'Temperature T', help: 'rollout sampling temperature', min: 0, live: true },
  { key: 'lr', label: 'Learning rate', help: 'AdamW step size of every agent', min: 0, live: true },
  { key: 'steps', label: 'Steps', help: 'training steps per method', step: 1, min: 1 },
  {
    key: 'evalEvery',
    label: 'Eval every',
    help: 'held-out evaluation every this many steps (0: start and end)',
    step: 1,
    min: 0,
  },
  {
    key: 'evalProblems',
    label: 'Eval problems',
    help: 'held-out problems per evaluation, never trained on',
    step: 1,
    min: 1,
  },
  {
    key: 'workers',
    label: 'Model workers',
    help: "workers the models of a step train in, and the base agents' corpus-ladder rungs pretrain in, on the wasm and CPU engines (1 to 64); the same results for any number",
    step: 1,
    min: 1,
  },
  {
    key: 'portraitSamples',
    label: 'Portrait samples S',
    help: 'samples per agent and held-out problem at T for the live phase portrait (0: off)',
    step: 1,
    min: 0,
  },
  {
    key: 'tau',
    label: 'Vote threshold τ',
    help: "a prompt is unlabelled when its top answer's share is below τ",
    min: 0,
  },
  {
    key: 'beta',
    label: 'KL coefficient β',
    help: 'penalty on drift from the base (0: none, as in the paper)',
    min: 0,
  },
  {
    key: 'innerEpochs',
    label: 'Inner epochs',
    help: 'optimizer passes over one step’s rollouts (1: on-policy)',
    step: 1,
    min: 1,
  },
  { key: 'seed', label: 'Seed', help: 'run seed: the same seed gives the same run', step: 1, min: 0 },
];

const SCALES: { v: ScaleRewards; label: string }[] = [
  { v: 'group', label: 'group (default)' },
  { v: 'batch', label: 'batch' },
  { v: 'none', label: 'none' },
];
const BACKENDS: { v: TrainBackend; label: string }[] = [
  { v: 'auto', label: 'auto (default)' },
  { v: 'webgpu', label: 'WebGPU' },
  { v: 'wasm', label: 'WebAssembly (SIMD)' },
  { v: 'cpu', label: 'CPU' },
];
const LOSSES: { v: LossType; label: string }[] = [
  { v: 'grpo', label: 'GRPO (Eq. 5)' },
  { v: 'bnpo', label: 'BNPO' },
  { v: 'dr_grpo', label: 'Dr. GRPO' },
];

interface Props {
  settings: RunSettings;
  problems: Partial<Record<keyof RunSettings, string>>;
}

/** Narrow screens start with the hyperparameters folded, so the controls and charts are near the top. */
const NARROW = '(max-width: 1100px)';

export function HyperParams({ settings, problems }: Props) {
  const [open, setOpen] = useState(() => typeof matchMedia === 'undefined' || !matchMedia(NARROW).matches);
  const bad = Object.keys(problems).some((k) => k !== 'methods' && k !== 'preset');
  const seen = useMemo(() => {
    try {
      return seenPromptShare(toExperimentConfig(settings));
    } catch {
      return null; // a cohort that cannot run yet: its own problems say why
    }
  }, [settings]);
  return (
    <details className="panel hyper" open={open || bad} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <strong>Hyperparameters</strong>{' '}
        <span className="muted small">
          B {settings.batchPrompts} · K {settings.samples} · T {settings.temperature} · lr {settings.lr} ·{' '}
          {settings.steps} steps
        </span>
      </summary>
      <div className="fields">
        {FIELDS.map((f) => (
          <NumberField
            key={f.key}
            label={f.label}
            help={f.help}
            value={settings[f.key]}
            step={f.step}
            min={f.min}
            live={f.live}
            testId={`hp-${f.key}`}
            problem={problems[f.key]}
            onCommit={(v) => changeSettings({ [f.key]: v })}
          />
        ))}
        <div className="field">
          <label htmlFor="hp-scale">Advantage scaling</label>
          <select
            id="hp-scale"
            data-testid="hp-scaleRewards"
            value={settings.scaleRewards}
            onChange={(e) => changeSettings({ scaleRewards: e.target.value as ScaleRewards })}
          >
            {SCALES.map((s) => (
              <option key={s.v} value={s.v}>
                {s.label}
              </option>
            ))}
          </select>
          <p className="field-help">
            rewards minus the group mean, divided by this group's or the batch's std
          </p>
        </div>
        <div className="field">
          <label htmlFor="hp-loss">Loss aggregation</label>
          <select
            id="hp-loss"
            data-testid="hp-lossType"
            value={settings.lossType}
            onChange={(e) => changeSettings({ lossType: e.target.value as LossType })}
          >
            {LOSSES.map((s) => (
              <option key={s.v} value={s.v}>
                {s.label}
              </option>
            ))}
          </select>
          <p className="field-help">
            GRPO: mean per completion; BNPO: mean per token; Dr. GRPO: fixed length
          </p>
        </div>
        <TeacherField value={settings.teacher} problem={problems.teacher} />
        <PromptsField value={settings.prompts} problem={problems.prompts} seen={seen} />
        <div className="field">
          <label htmlFor="hp-backend">Backend</label>
          <select
            id="hp-backend"
            data-testid="backend"
            value={settings.backend}
            onChange={(e) => changeSettings({ backend: e.target.value as TrainBackend })}
          >
            {BACKENDS.map((s) => (
              <option key={s.v} value={s.v}>
                {s.label}
              </option>
            ))}
          </select>
          <p className={problems.backend ? 'field-help error' : 'field-help'}>
            {problems.backend ??
              'auto uses WebGPU when available, else WebAssembly SIMD, else the CPU backend; applies at the next Start'}
          </p>
        </div>
      </div>
    </details>
  );
}
