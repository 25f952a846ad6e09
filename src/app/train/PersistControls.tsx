// The saved run and the agents' checkpoints: the notice after a reload resumed a run, any failed save
// (a full storage quota included), what was saved last, "Discard saved run", and "Export checkpoints"
// (one .ckpt per method per agent). Starts the persist bridge when the Train view first shows.
import { useEffect } from 'react';
import { useStore } from '../../store/store';
import {
  discardPassedOverRun,
  discardSavedRun,
  initPersistence,
  resumePassedOverRun,
} from '../../store/persistBridge';
import { exportCheckpoints } from '../../store/exportBridge';

const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
const time = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
};

export function PersistControls() {
  const p = useStore((s) => s.persist);
  const phase = useStore((s) => s.runStatus.phase);
  useEffect(() => {
    void initPersistence();
  }, []);
  const hasRun = phase === 'running' || phase === 'paused' || phase === 'done';
  const saved = p.lastSave;
  let status: string;
  if (!p.available) status = 'This browser cannot keep runs (no IndexedDB): a reload starts over.';
  else if (!p.autosave)
    status = 'This run is not saved in the browser (discarded); Start or Reset saves again.';
  else if (saved) {
    status =
      `Saved in this browser at ${time(saved.at)}, step ${saved.step}; ` +
      (saved.snapshotStep === null
        ? 'no snapshot yet.'
        : `a reload resumes from step ${saved.snapshotStep}.`);
    if (p.snapshotSave)
      status += ` Last snapshot: ${kb(p.snapshotSave.bytes)}, taken in ${p.snapshotSave.takeMs} ms, saved in ${p.snapshotSave.ms} ms.`;
  } else status = 'Runs are saved in this browser as they train: a reload resumes where it stopped.';

  return (
    <>
      {p.notice && (
        <div
          className={`banner ${p.notice.ok ? 'info' : 'warn'}`}
          role="status"
          data-testid="resume-notice"
          data-ok={p.notice.ok}
          data-step={p.notice.step}
        >
          {p.notice.text}{' '}
          {p.notice.key ? (
            <>
              <button
                type="button"
                data-testid="resume-passed-over"
                onClick={() => void resumePassedOverRun()}
                title="resume the saved run instead of the link's settings"
              >
                Resume it instead
              </button>{' '}
              <button
                type="button"
                data-testid="discard-passed-over"
                onClick={() => void discardPassedOverRun()}
                title="delete that saved run from the browser's storage"
              >
                Discard it
              </button>
            </>
          ) : (
            <button type="button" data-testid="discard-saved-run" onClick={() => void discardSavedRun()}>
              Discard saved run
            </button>
          )}{' '}
          <button
            type="button"
            aria-label="Dismiss the notice"
            onClick={() => p.notice && useStore.getState().setPersist({ notice: null })}
          >
            ×
          </button>
        </div>
      )}
      {p.error && (
        <div className="banner warn" role="alert" data-testid="persist-error">
          {p.error}{' '}
          <button
            type="button"
            aria-label="Dismiss the save error"
            onClick={() => useStore.getState().setPersist({ error: '' })}
          >
            ×
          </button>
        </div>
      )}
      <section className="panel persist-controls" aria-label="Saved run and checkpoints">
        <div className="buttons">
          <button
            type="button"
            data-testid="export-checkpoints"
            onClick={exportCheckpoints}
            disabled={!hasRun || p.exporting}
            title="download every method's agents as checkpoint files (.ckpt), one per method per agent"
          >
            Export checkpoints
          </button>{' '}
          {!p.notice && (
            <button
              type="button"
              data-testid="discard-saved-run"
              onClick={() => void discardSavedRun()}
              disabled={!p.autosave || !saved}
              title="delete this run from the browser's storage"
            >
              Discard saved run
            </button>
          )}
        </div>
        <p
          className="small muted"
          data-testid="persist-status"
          data-snapshot-step={saved?.snapshotStep ?? ''}
          data-snapshot-bytes={p.snapshotSave?.bytes ?? ''}
          data-snapshot-ms={p.snapshotSave?.ms ?? ''}
          data-snapshot-take-ms={p.snapshotSave?.takeMs ?? ''}
        >
          {status}
        </p>
        {p.exportMessage && (
          <p className="small muted" data-testid="export-message">
            {p.exportMessage}
          </p>
        )}
      </section>
    </>
  );
}
