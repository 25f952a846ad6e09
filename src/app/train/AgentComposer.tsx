// The cohort composer: agents one by one (family, size, seed, prompt view) and where each base checkpoint
// comes from: the shipped file (offered only when the manifest lists it), pretraining here in the
// browser, or a checkpoint file imported from disk (checked before anything changes; a refused file
// leaves the composed agents as they were). "Start from preset" copies the chosen preset's agents.
import { useId, useRef, useState } from 'react';
import { FAMILIES, FAMILY_NAMES } from '../../cohort/families';
import { isNaturalPreset, naturalPreset, naturalPresetSpecs } from '../../cohort/naturalPresets';
import { VIEW_NAMES, type TaskConfig, type ViewName } from '../../tasks';
import { composeTaskName, hasAxes } from '../../formats/composeAxes';
import { composedTask } from '../../formats/runSettings';
import { FILE_TASK, taskFileLoaded, type TaskFileRef } from '../../formats/taskFileTask';
import {
  agentFromImport,
  customCheckpointPath,
  nextAgentId,
  MAX_AGENT_SEED,
  type AgentSource,
  type CustomAgent,
} from '../../formats/customCohort';
import type { PresetInfo } from '../../store/runConfigSlice';
import { useStore } from '../../store/store';
import { changeSettings } from '../../store/trainBridge';
import { AgentAxes, ComposeTask } from './AgentAxes';

const SOURCE_LABEL: Record<AgentSource, string> = {
  shipped: 'shipped file',
  pretrain: 'pretrain here',
  imported: 'imported file',
};

interface Props {
  agents: CustomAgent[];
  presets: PresetInfo[];
  /** The preset "Start from preset" copies. */
  preset: PresetInfo | undefined;
  /** Whether the preset's agents are to be pretrained (the preset view's checkbox). */
  pretrainPreset: boolean;
  /** The composer's problems, one per line ('' or undefined when fine). */
  problem?: string;
  /** The chosen preset's name (a natural one is not in `presets`). */
  presetName: string;
  /** The composed cohort's task name (composeAxes.ts, or "file"). */
  taskName: string;
  /** The settings' task file (customTaskFile): the task when taskName is "file". */
  taskFile: TaskFileRef | null;
}

/** Checkpoint paths the manifest lists (empty while it loads). */
function shippedSet(presets: PresetInfo[]): Set<string> {
  return new Set(presets.flatMap((p) => p.agents.flatMap((a) => (a.checkpoint ? [a.checkpoint] : []))));
}

/** `a` after a change of its family, size, seed or view: sizes and views stay valid, and a checkpoint
 * that is not shipped turns "shipped" into "pretrain here". */
function revise(
  a: CustomAgent,
  patch: Partial<CustomAgent>,
  shipped: Set<string>,
  task: TaskConfig,
): CustomAgent {
  const next = { ...a, ...patch };
  if (patch.family && patch.family !== a.family) {
    const fam = FAMILIES[patch.family];
    if (fam) {
      next.view = fam.view;
      if (!(next.size in fam.sizes)) next.size = Object.keys(fam.sizes)[0];
    }
  }
  if (
    next.source === 'shipped' &&
    ((shipped.size && !shipped.has(customCheckpointPath(next, task))) || hasAxes(next))
  )
    next.source = 'pretrain';
  return next;
}

function SeedInput({ value, onCommit, id }: { value: number; onCommit(v: number): void; id: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      id={id}
      data-testid="agent-seed"
      type="number"
      inputMode="numeric"
      min={0}
      max={MAX_AGENT_SEED}
      step={1}
      value={draft ?? String(value)}
      onChange={(e) => {
        setDraft(e.target.value);
        const v = Number(e.target.value);
        if (e.target.value.trim() !== '' && Number.isFinite(v)) onCommit(v);
      }}
      onBlur={() => setDraft(null)}
    />
  );
}

function AgentRow({
  agent,
  shipped,
  task,
  onChange,
  onRemove,
}: {
  agent: CustomAgent;
  shipped: Set<string>;
  task: TaskConfig;
  onChange(a: CustomAgent): void;
  onRemove(): void;
}) {
  const id = useId();
  const fam = FAMILIES[agent.family];
  const fixed = agent.source === 'imported'; // an imported file fixes family, size, seed and view
  const canShip =
    fam !== undefined &&
    agent.view === fam.view &&
    !hasAxes(agent) &&
    (shipped.size === 0 || shipped.has(customCheckpointPath({ ...agent, source: 'shipped' }, task)));
  const sources: AgentSource[] = [
    ...(canShip || agent.source === 'shipped' ? (['shipped'] as const) : []),
    'pretrain',
    ...(agent.source === 'imported' ? (['imported'] as const) : []),
  ];
  const set = (patch: Partial<CustomAgent>) => onChange(revise(agent, patch, shipped, task));
  return (
    <li className="agent-row" data-testid="agent-row" data-agent={agent.id}>
      <div className="agent-head">
        <strong className="agent-id">{agent.id}</strong>
        <label className="agent-family">
          <select
            aria-label={`Family of agent ${agent.id}`}
            data-testid="agent-family"
            value={agent.family}
            disabled={fixed}
            title={fam?.description}
            onChange={(e) => set({ family: e.target.value })}
          >
            {(FAMILY_NAMES.includes(agent.family) ? FAMILY_NAMES : [agent.family, ...FAMILY_NAMES]).map(
              (f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ),
            )}
          </select>
        </label>
        <button
          type="button"
          className="remove-agent"
          data-testid="remove-agent"
          onClick={onRemove}
          aria-label={`Remove agent ${agent.id}`}
          title={`Remove agent ${agent.id}`}
        >
          ×
        </button>
      </div>
      {fam && <p className="field-help">{fam.description}</p>}
      <div className="agent-fields">
        <label className="field" htmlFor={`${id}-size`}>
          Size
          <select
            id={`${id}-size`}
            data-testid="agent-size"
            value={agent.size}
            disabled={fixed}
            onChange={(e) => set({ size: e.target.value })}
          >
            {(fam && agent.size in fam.sizes
              ? Object.keys(fam.sizes)
              : [agent.size, ...Object.keys(fam?.sizes ?? {})]
            ).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="field" htmlFor={`${id}-seed`}>
          Seed
          {fixed ? (
            <input
              id={`${id}-seed`}
              data-testid="agent-seed"
              type="number"
              value={agent.seed}
              disabled
              readOnly
            />
          ) : (
            <SeedInput id={`${id}-seed`} value={agent.seed} onCommit={(v) => set({ seed: v })} />
          )}
        </label>
        <label className="field" htmlFor={`${id}-view`}>
          Prompt view
          <select
            id={`${id}-view`}
            data-testid="agent-view"
            value={agent.view}
            disabled={fixed}
            onChange={(e) => set({ view: e.target.value as ViewName })}
          >
            {(VIEW_NAMES as readonly string[]).includes(agent.view) ? null : (
              <option value={agent.view}>{agent.view}</option>
            )}
            {VIEW_NAMES.map((v) => (
              <option key={v} value={v}>
                {v}
                {fam?.view === v ? ' (default)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="field" htmlFor={`${id}-source`}>
          Checkpoint
          <select
            id={`${id}-source`}
            data-testid="agent-source"
            value={agent.source}
            onChange={(e) => set({ source: e.target.value as AgentSource })}
          >
            {sources.map((s) => (
              <option key={s} value={s}>
                {SOURCE_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {agent.source === 'imported' && <p className="field-help">from {agent.importKey}</p>}
      {agent.source === 'pretrain' && <AgentAxes agent={agent} onChange={onChange} />}
      {agent.source === 'pretrain' && fam && agent.view !== fam.view && (
        <p className="field-help">
          pretrained in the {agent.view} view (the family's recipe, another alphabet and prompt)
        </p>
      )}
    </li>
  );
}

export function AgentComposer({
  agents: given,
  presets,
  preset,
  pretrainPreset,
  problem,
  presetName,
  taskName,
  taskFile,
}: Props) {
  // restored settings may hold anything: rows only for agent objects (the problem line names the rest)
  const agents = Array.isArray(given) ? given.filter((a) => typeof a === 'object' && a !== null) : [];
  const addImported = useStore((s) => s.addImportedCheckpoint);
  const [importMsg, setImportMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const shipped = shippedSet(presets);
  // a named task file that is not loaded here has no rows to check agents against: until it is dropped (its
  // problem says so) the rows are shown against the shipped checkpoints' task
  const unloaded = taskName === FILE_TASK && taskFile !== null && !taskFileLoaded(taskFile);
  const task = composedTask(
    unloaded
      ? { customTask: 'add-d2', customTaskFile: null }
      : { customTask: taskName, customTaskFile: taskFile },
  );
  const put = (list: CustomAgent[]) => changeSettings({ customAgents: list });

  const add = () => {
    const last = agents.at(-1);
    const family = last?.family ?? FAMILY_NAMES[0];
    const base: CustomAgent = {
      id: nextAgentId(agents),
      family,
      size: 's',
      seed: (last?.seed ?? 0) + 1,
      view: FAMILIES[family].view,
      source: 'shipped',
    };
    put([...agents, revise(base, {}, shipped, task)]);
  };
  const fromPreset = () => {
    if (isNaturalPreset(presetName)) {
      // a natural preset's agents by axes, on its task (pretrained here, or read from this page's cache)
      const p = naturalPreset(presetName)!;
      const customAgents = naturalPresetSpecs(presetName).map(
        (a): CustomAgent => ({ ...a, source: 'pretrain' }),
      );
      changeSettings({ customAgents, customTask: composeTaskName(p.task) ?? p.task.kind });
      setImportMsg(null);
      return;
    }
    if (!preset) return;
    put(
      preset.agents.map((a) => ({
        id: a.id,
        family: a.family,
        size: a.size,
        seed: a.seed,
        view: a.view as ViewName,
        source:
          pretrainPreset || (shipped.size > 0 && a.checkpoint && !shipped.has(a.checkpoint))
            ? 'pretrain'
            : 'shipped',
      })),
    );
    setImportMsg(null);
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (e) {
      setImportMsg({ ok: false, text: `${file.name}: could not be read (${(e as Error).message})` });
      return;
    } finally {
      if (fileRef.current) fileRef.current.value = ''; // the same file may be chosen again
    }
    const current = useStore.getState().runSettings.customAgents;
    const r = agentFromImport(bytes, file.name, current, task);
    if (!r.ok) {
      setImportMsg({ ok: false, text: `${file.name} was not imported: ${r.error}. Nothing else changed.` });
      return;
    }
    addImported(r.key, bytes);
    put([...current, r.agent]);
    setImportMsg({ ok: true, text: `${file.name} is agent ${r.agent.id}: ${r.summary}.` });
  };

  return (
    <div className="composer" data-testid="composer">
      <div className="composer-actions">
        <button
          type="button"
          data-testid="start-from-preset"
          onClick={fromPreset}
          disabled={!preset && !isNaturalPreset(presetName)}
          title="Replace the list with the preset's agents"
        >
          Start from preset{preset || isNaturalPreset(presetName) ? ` ${presetName}` : ''}
        </button>
        <button type="button" data-testid="add-agent" onClick={add}>
          Add agent
        </button>
      </div>
      <ComposeTask value={taskName} file={taskFile} />
      <ol className="agent-list">
        {agents.map((a, i) => (
          <AgentRow
            key={`${i}-${a.id}`}
            agent={a}
            shipped={shipped}
            task={task}
            onChange={(next) => put(agents.map((x, j) => (j === i ? next : x)))}
            onRemove={() => put(agents.filter((_, j) => j !== i))}
          />
        ))}
      </ol>
      {agents.length === 0 && (
        <p className="small muted">No agents yet: start from a preset, add one, or import a checkpoint.</p>
      )}
      <label className="field import-checkpoint">
        Import a checkpoint (.ckpt, a base agent of this app for the task above)
        <input
          ref={fileRef}
          type="file"
          accept=".ckpt,application/octet-stream"
          data-testid="import-checkpoint"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
      </label>
      {importMsg && (
        <p
          className={importMsg.ok ? 'field-help' : 'field-help error'}
          data-testid={importMsg.ok ? 'checkpoint-imported' : 'checkpoint-error'}
          role={importMsg.ok ? 'status' : 'alert'}
        >
          {importMsg.text}
        </p>
      )}
      {problem && (
        <p className="field-help error composer-problems" data-testid="agents-problem">
          {problem}
        </p>
      )}
    </div>
  );
}
