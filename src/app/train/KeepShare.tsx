// "Keep and share": export the run (JSON run file), its metrics (CSV per kind) and its charts (one PNG);
// the link that reproduces the settings; and importing a run file (checked completely; a refused file
// changes nothing and says why). The run's name is user text and is only ever rendered as text.
import { useState, type ChangeEvent } from 'react';
import { useStore } from '../../store/store';
import { RUN_NAME_MAX } from '../../formats/runFile';
import {
  copyLink,
  defaultRunName,
  downloadBlob,
  exportMetricsCsv,
  exportName,
  exportRunJson,
  fileSlug,
  hasRecords,
  importRunFile,
  shareLink,
  shownImport,
  type CsvKind,
} from '../../store/shareBridge';
import { chartsToPng } from './chartPng';
import './share.css';

const CSV_KINDS: { kind: CsvKind; label: string; help: string }[] = [
  { kind: 'steps', label: 'steps', help: 'one row per method, step and agent' },
  { kind: 'pairs', label: 'pairs', help: 'pairwise vote agreement, one row per method, step and pair' },
  {
    kind: 'evals',
    label: 'evals',
    help: 'held-out evaluations, one row per method, step and agent, plus the ensemble',
  },
];

export function KeepShare() {
  const settings = useStore((s) => s.runSettings);
  const metrics = useStore((s) => s.metrics);
  const runName = useStore((s) => s.runName);
  const setRunName = useStore((s) => s.setRunName);
  const imported = useStore((s) => shownImport(s));
  const importError = useStore((s) => s.importError);
  const setImportError = useStore((s) => s.setImportError);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const has = hasRecords(metrics);
  const link = shareLink(settings);

  const png = async () => {
    setBusy(true);
    try {
      const s = useStore.getState();
      const root = document.querySelector('[data-testid="train-charts"]') ?? document;
      const name = exportName(s);
      const blob = await chartsToPng(root, `Co-RL Playground · ${name} · step ${s.runStatus.step}`);
      downloadBlob(blob, `co-rl-${fileSlug(name)}-charts.png`);
      setNote(`Charts saved as PNG (${Math.round(blob.size / 1024)} kB).`);
    } catch (e) {
      setNote(`Could not draw the charts: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const f = input.files?.[0];
    if (!f) return;
    const ok = await importRunFile(f);
    setNote(ok ? `Imported ${f.name}.` : '');
    input.value = ''; // choosing the same file again imports it again
  };

  return (
    <section className="panel keep-share" aria-label="Keep and share" data-testid="keep-share">
      <h2 className="keep-share-title">Keep and share</h2>
      {imported && (
        <p className="small imported-run" data-testid="imported-run">
          Showing the imported run <strong data-testid="import-name">{imported.name}</strong> at step{' '}
          {imported.step} (saved {new Date(imported.savedAt).toLocaleString()}, file {imported.file}).
        </p>
      )}
      <label className="field share-name">
        Run name
        <input
          data-testid="run-name"
          value={runName}
          maxLength={RUN_NAME_MAX}
          placeholder={imported?.name ?? defaultRunName(settings)}
          onChange={(e) => setRunName(e.target.value)}
        />
      </label>
      <div className="share-buttons">
        <button
          type="button"
          data-testid="export-json"
          disabled={!has}
          onClick={exportRunJson}
          title="settings, config and every record, to import later"
        >
          Export run (JSON)
        </button>
        <button
          type="button"
          data-testid="export-png"
          disabled={!has || busy}
          onClick={() => void png()}
          title="every chart in one image"
        >
          Charts (PNG)
        </button>
      </div>
      <div className="share-csv small">
        Metrics (CSV):{' '}
        {CSV_KINDS.map((c) => (
          <button
            key={c.kind}
            type="button"
            data-testid={`export-csv-${c.kind}`}
            disabled={!has}
            title={c.help}
            onClick={() => exportMetricsCsv(c.kind)}
          >
            {c.label}
          </button>
        ))}
      </div>
      <div className="share-link">
        <input
          readOnly
          aria-label="Link to these settings"
          data-testid="share-link"
          value={link}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" data-testid="copy-link" onClick={() => void copyLink().then(setNote)}>
          Copy link
        </button>
      </div>
      <label className="import-run small">
        Import run (JSON):{' '}
        <input
          type="file"
          accept=".json,application/json"
          data-testid="import-run"
          onChange={(e) => void onFile(e)}
        />
      </label>
      {note && (
        <p className="small muted" data-testid="share-note">
          {note}
        </p>
      )}
      {importError && (
        <div className="banner warn import-error" role="alert" data-testid="import-error">
          <div className="url-notice-head">
            <strong>Not imported: {importError.file}</strong>
            <button
              type="button"
              className="dismiss"
              aria-label="Dismiss"
              data-testid="import-error-dismiss"
              onClick={() => setImportError(null)}
            >
              ×
            </button>
          </div>
          <p className="small">Nothing loaded was changed. The problems:</p>
          <ul className="small">
            {importError.errors.map((t, i) => (
              <li key={i}>{t}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
