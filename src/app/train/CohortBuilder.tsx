// The cohort builder: a preset from the checkpoint manifest (its description and agents, and whether
// to pretrain them in the browser rather than load the shipped checkpoints) or a cohort composed agent
// by agent (AgentComposer), and the methods to compare on copies of the same base agents (co-rl, ttrl,
// gt checked by default).
import { REWARD_METHODS } from '../../rl/config';
import type { RewardMethod } from '../../rl/rewards';
import type { PresetInfo } from '../../store/runConfigSlice';
import type { RunSettings } from '../../formats/runSettings';
import { useStore } from '../../store/store';
import { changeSettings } from '../../store/trainBridge';
import { isNaturalPreset, naturalPreset } from '../../cohort/naturalPresets';
import { AgentComposer } from './AgentComposer';
import { NaturalPresetInfo, PresetOptions } from './NaturalPresetInfo';
import { METHOD_COLOUR, METHOD_LABEL } from './chartData';
import { TaskFilePanel } from './taskFile/TaskFilePanel';
import { FILE_TASK } from '../../formats/taskFileTask';

const METHOD_HELP: Record<RewardMethod, string> = {
  'co-rl': "rewarded for matching its ring predecessor's vote",
  ttrl: 'rewarded for matching its own vote (self-rewarding)',
  gt: 'rewarded for the true answer (supervised reference)',
  intuitor: 'rewarded for self-certainty',
  rent: 'rewarded for low entropy',
  random: 'coin-flip rewards (a control that should not learn)',
  'co-rl-frozen':
    "control: rewarded for matching the vote of its ring predecessor's frozen base copy (a peer that never trains: distillation, not co-training)",
};

interface Props {
  settings: RunSettings;
  presets: PresetInfo[];
  problem?: string;
  /** The composed cohort's problems, one per line. */
  agentsProblem?: string;
  /** The composed cohort's task problem (a task file named but not loaded here). */
  taskProblem?: string;
}

const MODES = [
  { mode: 'preset', label: 'Preset', help: 'a named cohort with shipped checkpoints' },
  {
    mode: 'custom',
    label: 'Compose',
    help: 'choose the task and each agent: family, size, seed, view, tokenizer, architecture, corpus, checkpoint',
  },
] as const;

export function CohortBuilder({ settings, presets, problem, agentsProblem, taskProblem }: Props) {
  const toggle = useStore((s) => s.toggleMethod);
  const error = useStore((s) => s.presetsError);
  const preset = presets.find((p) => p.name === settings.preset);
  const custom = settings.cohortMode === 'custom';
  const natural = isNaturalPreset(settings.preset);
  return (
    <fieldset className="panel cohort">
      <legend>Cohort</legend>
      <div
        className="cohort-mode"
        role="radiogroup"
        aria-label="Cohort"
        data-testid="cohort-mode"
        data-mode={settings.cohortMode}
      >
        {MODES.map((m) => (
          <label key={m.mode} className={settings.cohortMode === m.mode ? 'on' : ''} title={m.help}>
            <input
              type="radio"
              name="cohort-mode"
              value={m.mode}
              checked={settings.cohortMode === m.mode}
              onChange={() => changeSettings({ cohortMode: m.mode })}
            />
            {m.label}
          </label>
        ))}
      </div>
      <label className="field">
        {custom ? 'Preset to start from' : 'Preset'}{' '}
        <select
          data-testid="preset"
          value={settings.preset}
          onChange={(e) => {
            // a regime candidate's gates hold at its own rollout temperature: choosing it sets that
            const t = naturalPreset(e.target.value)?.candidate?.temperature;
            changeSettings({ preset: e.target.value, ...(t !== undefined ? { temperature: t } : {}) });
          }}
        >
          <PresetOptions
            shipped={presets.length || natural ? presets.map((p) => p.name) : [settings.preset]}
          />
        </select>
      </label>
      {error && <p className="error small">{error}</p>}
      {custom && (
        <AgentComposer
          agents={settings.customAgents}
          presets={presets}
          preset={preset}
          pretrainPreset={settings.pretrainHere}
          problem={agentsProblem}
          presetName={settings.preset}
          taskName={settings.customTask}
          taskFile={settings.customTaskFile}
        />
      )}
      {custom && (
        <TaskFilePanel
          selected={settings.customTaskFile}
          active={settings.customTask === FILE_TASK}
          problem={taskProblem}
        />
      )}
      {!custom && preset && (
        <div className="preset-info" data-testid="preset-info">
          <p className="small">{preset.description}</p>
          <p className="small muted">Task: {preset.task}</p>
          <ul className="agents small">
            {preset.agents.map((a) => (
              <li key={a.id}>
                <strong>{a.id}</strong> {a.family}.{a.size} seed {a.seed}, {a.view} view,{' '}
                {a.params.toLocaleString('en')} params, base accuracy {(a.valAccuracy * 100).toFixed(0)}%
              </li>
            ))}
          </ul>
        </div>
      )}
      {!custom && natural && <NaturalPresetInfo name={settings.preset} />}
      {!custom && !natural && (
        <label
          className="method"
          title="Runs the same deterministic pretraining as npm run pretrain, on this page's backend"
        >
          <input
            type="checkbox"
            data-testid="pretrain-here"
            checked={settings.pretrainHere}
            onChange={(e) => changeSettings({ pretrainHere: e.target.checked })}
          />
          <span className="method-name">Pretrain the base agents here</span>{' '}
          <span className="muted small">
            instead of loading the shipped checkpoints (a few minutes; progress is shown above the charts)
          </span>
        </label>
      )}
      <div className="methods" role="group" aria-label="Methods to compare">
        <span className="methods-title">Methods (compared on the same base agents)</span>
        {REWARD_METHODS.map((m) => (
          <label key={m} className="method" title={METHOD_HELP[m]}>
            <input
              type="checkbox"
              data-testid={`method-${m}`}
              checked={settings.methods.includes(m)}
              onChange={() => toggle(m)}
            />
            <span className="method-dot" style={{ background: METHOD_COLOUR[m] }} />
            <span className="method-name">{METHOD_LABEL[m]}</span>{' '}
            <span className="muted small">{METHOD_HELP[m]}</span>
          </label>
        ))}
        {problem && <p className="field-help error">{problem}</p>}
      </div>
    </fieldset>
  );
}
