// The Cohort panel's task file (docs/tasks.md "Bring your own task", "In the page"): drop or pick a JSON
// Lines or CSV file of {prompt, answer, working?, id?} rows; the panel shows its counts per split, its first
// rows and its vocabulary, or every problem with its line. A file that loads becomes the composed cohort's
// task (customTask "file", its text kept in the store for the worker); a refused file changes nothing.
import { useState } from 'react';
import { NORMALIZATIONS, type Normalization } from '../../../tasks/file/format';
import { useStore } from '../../../store/store';
import { changeSettings } from '../../../store/trainBridge';
import { FILE_TASK, type TaskFileRef } from '../../../formats/taskFileTask';
import { keptPreview, previewTaskFile, type LoadedPreview, type RefusedPreview } from './preview';

const n = (x: number): string => x.toLocaleString('en');

function Loaded({ p, active }: { p: LoadedPreview; active: boolean }) {
  const c = p.counts;
  return (
    <div className="task-file-loaded" data-testid="task-file-loaded">
      <p className="small" data-testid="task-file-counts">
        <strong>{p.name}</strong>: {n(c.rows)} rows; train {n(c.pretrain + c.rl)} ({n(c.pretrain)} for
        pretraining, {n(c.rl)} RL prompts only), validation {n(c.validation)}, test {n(c.test)}; answers
        compared {p.normalize}; hash {p.hash.slice(0, 16)}
      </p>
      <table className="small task-file-rows" data-testid="task-file-rows">
        <thead>
          <tr>
            <th>line</th>
            <th>id</th>
            <th>prompt</th>
            <th>working</th>
            <th>answer</th>
          </tr>
        </thead>
        <tbody>
          {p.rows.map((r) => (
            <tr key={r.line}>
              <td>{r.line}</td>
              <td>{r.id ?? ''}</td>
              <td>
                <code>{r.prompt}</code>
              </td>
              <td>
                <code>{r.working ?? ''}</code>
              </td>
              <td>
                <code>{r.answer}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small" data-testid="task-file-vocabulary">
        Vocabulary: {p.vocabulary.length} characters + PAD, BOS, EOS: <code>{p.vocabulary.join(' ')}</code>
      </p>
      <p className="small muted" data-testid="task-file-use">
        {active
          ? 'The composed cohort trains on this file: agents pretrained here learn its pretraining rows (natural families, the plain view, one token per character), Co-RL draws prompts from its RL rows, and evaluation reads its validation or test rows.'
          : 'Loaded, but not the task now: choose it in Task above.'}
      </p>
    </div>
  );
}

function Refused({ p, kept }: { p: RefusedPreview; kept: string | null }) {
  const count = p.problems.length + p.more;
  return (
    <div className="field-help error" role="alert" data-testid="task-file-problems">
      <p>
        {p.name}: {count} problem{count === 1 ? '' : 's'}; nothing was loaded
        {kept ? ` (${kept} stays loaded)` : ''}:
      </p>
      <ul>
        {p.problems.map((m, i) => (
          <li key={i}>{m}</li>
        ))}
      </ul>
      {p.more > 0 && <p>... and {n(p.more)} more</p>}
    </div>
  );
}

interface Props {
  /** The settings' task file (customTaskFile), if one is named. */
  selected: TaskFileRef | null;
  /** Whether it is the composed cohort's task (customTask "file"). */
  active: boolean;
  /** Why the named task file cannot run (not loaded in this page), if so. */
  problem?: string;
}

export function TaskFilePanel({ selected, active, problem }: Props) {
  const kept = useStore((s) => s.taskFiles);
  const addTaskFile = useStore((s) => s.addTaskFile);
  const [refused, setRefused] = useState<RefusedPreview | null>(null);
  const [over, setOver] = useState(false);
  const [normalize, setNormalize] = useState<Normalization>(selected?.normalize ?? 'exact');
  const keptFile = selected ? kept[selected.hash] : undefined;
  const loaded = selected && keptFile ? keptPreview(selected, keptFile) : null;
  const show = (p: LoadedPreview | RefusedPreview): void => {
    if (!p.ok) return setRefused(p);
    setRefused(null);
    addTaskFile(p.hash, { name: p.name, text: p.text });
    changeSettings({
      customTask: FILE_TASK,
      customTaskFile: { name: p.name, hash: p.hash, normalize: p.normalize },
    });
  };
  const read = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    show(previewTaskFile(file.name, new Uint8Array(await file.arrayBuffer()), normalize));
  };
  const renormalize = (m: Normalization): void => {
    setNormalize(m);
    // the loaded file read again under the new comparison (a file it refuses stays as it was)
    if (loaded) show(previewTaskFile(loaded.name, new TextEncoder().encode(loaded.text), m));
  };
  return (
    <div
      className={`task-file${over ? ' over' : ''}`}
      data-testid="task-file-drop"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void read(e.dataTransfer.files[0]);
      }}
    >
      <label className="field">
        Task from a file (.jsonl or .csv of prompt, answer, optional working and id; drop it here)
        <input
          type="file"
          accept=".jsonl,.ndjson,.json,.csv,text/csv,application/json"
          data-testid="task-file-input"
          onChange={(e) => void read(e.target.files?.[0])}
        />
      </label>
      <label className="field">
        Answers compare{' '}
        <select
          data-testid="task-file-normalize"
          value={normalize}
          onChange={(e) => renormalize(e.target.value as Normalization)}
        >
          {NORMALIZATIONS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      {problem && (
        <p className="field-help error" role="alert" data-testid="task-file-missing">
          {problem}
        </p>
      )}
      {refused && <Refused p={refused} kept={loaded?.name ?? null} />}
      {loaded && <Loaded p={loaded} active={active} />}
    </div>
  );
}
