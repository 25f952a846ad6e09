// The Cohort panel's task file (docs/tasks.md "Bring your own task"): drop or pick a JSON Lines or CSV
// file of {prompt, answer, working?, id?} rows; the panel shows its counts per split, its first rows and
// its vocabulary, or every problem with its line. A refused file leaves the one loaded before in place.
import { useState } from 'react';
import { NORMALIZATIONS, type Normalization } from '../../../tasks/file/format';
import { previewTaskFile, type LoadedPreview, type RefusedPreview } from './preview';

const n = (x: number): string => x.toLocaleString('en');

function Loaded({ p }: { p: LoadedPreview }) {
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
      <p className="small muted">
        Pretraining and Co-RL on a file task run from the command line for now (
        <code>npm run experiment</code> with <code>{'"task": { "kind": "file", "path": ... }'}</code>).
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

export function TaskFilePanel() {
  const [loaded, setLoaded] = useState<LoadedPreview | null>(null);
  const [refused, setRefused] = useState<RefusedPreview | null>(null);
  const [normalize, setNormalize] = useState<Normalization>('exact');
  const [over, setOver] = useState(false);
  const read = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    const p = previewTaskFile(file.name, new Uint8Array(await file.arrayBuffer()), normalize);
    if (p.ok) {
      setLoaded(p);
      setRefused(null);
    } else setRefused(p);
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
          onChange={(e) => setNormalize(e.target.value as Normalization)}
        >
          {NORMALIZATIONS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      {refused && <Refused p={refused} kept={loaded?.name ?? null} />}
      {loaded && <Loaded p={loaded} />}
    </div>
  );
}
