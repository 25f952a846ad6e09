// Keeps this tab's training run in IndexedDB (src/store/persist.ts) and resumes it after a reload, and
// downloads the agents as checkpoint files. Saving: the run record and the trainer snapshot bytes go into
// ONE transaction whenever the worker posts a snapshot (every few lock steps, at pause and at the end);
// the phase on every phase change; the records alone at most every 2 s. Saves run one at a time, in
// order; a failed one (a quota error included) is shown in the page. Resuming (initPersistence, when the
// Train view first shows): this tab's own run (sessionStorage) or else the last saved run (unless the
// page was opened from a link with settings), if no other tab holds it and it was loading/running/paused: its settings and records up to the snapshot's step go
// into the store at once, and the worker restarts from the snapshot, running or paused as before.
import type { RunSnapshotRef, SavedPhase } from '../formats/runFile';
import { buildRunFile, validateRunFile, type RunFile } from '../formats/runFile';
import { keptOfRun } from '../formats/runFileTask';
import { claimRun, deleteRun, lastRun, loadRun, persistenceAvailable, releaseRun, saveRun } from './persist';
import { planResume } from './resumePlan';
import { downloadBlob } from './shareBridge';
import { useStore } from './store';
import { settingsFromQuery } from '../formats/urlConfig';
import { loadCatalog, onTrainEvents, sendTrainCommand, startTraining } from './trainBridge';
import type { TrainEvent } from '../worker/protocol';

/** sessionStorage key of this tab's run key (it survives a reload of the tab, not a new tab). */
const TAB_KEY = 'co-rl-playground:run-key';
/** Records-only saves at most this often. */
export const METRICS_SAVE_MS = 2000;

let started: Promise<void> | null = null;
/** This tab's run key ('' until initPersistence has picked it). */
let key = '';
/** The snapshot the saved run record points to (committed with its bytes). */
let committedRef: RunSnapshotRef | undefined;
/** Snapshot bytes (null: delete the old ones) waiting for the next save, with the ref they make current. */
let pendingSnap: { bytes: ArrayBuffer | null; ref: RunSnapshotRef | undefined; takeMs?: number } | null =
  null;
let savedPhase: SavedPhase = 'idle';
let dirty = false;
let writing: Promise<void> | null = null;
let lastWrite = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
/** The run id (store metrics.runId) resumed from a save, until it runs or fails. */
let resuming: number | null = null;
/** True while "Discard saved run" deletes the saved run: nothing is saved meanwhile. */
let discarding = false;

const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const setPersist = (p: Parameters<ReturnType<typeof useStore.getState>['setPersist']>[0]) =>
  useStore.getState().setPersist(p);

function newKey(): string {
  return typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** The run record of the current store state. */
function currentRunFile(ref: RunSnapshotRef | undefined): RunFile {
  const s = useStore.getState();
  const run: RunFile = { ...buildRunFile(s, `autosave ${s.runSettings.preset}`), phase: savedPhase };
  if (ref) run.snapshot = { ...ref };
  return run;
}

/** Write until nothing is dirty; one transaction at a time, in order. */
function pump(): Promise<void> {
  writing ??= (async () => {
    while (dirty && key && !discarding && useStore.getState().persist.autosave) {
      dirty = false;
      const snap = pendingSnap;
      pendingSnap = null;
      const ref = snap ? snap.ref && { ...snap.ref, key } : committedRef;
      if (snap) snap.ref = ref; // the key is this tab's at the time of the save
      const run = currentRunFile(ref);
      const t0 = performance.now();
      try {
        await saveRun(key, run, snap ? snap.bytes : undefined);
        if (snap) committedRef = snap.ref;
        lastWrite = Date.now();
        const ms = Math.round(performance.now() - t0);
        const bytes = snap?.bytes?.byteLength ?? 0;
        setPersist({
          lastSave: {
            step: run.step,
            snapshotStep: committedRef?.step ?? null,
            at: run.savedAt,
            snapshotBytes: bytes,
            ms,
          },
          ...(bytes && committedRef
            ? {
                snapshotSave: {
                  step: committedRef.step,
                  bytes,
                  ms,
                  takeMs: snap?.takeMs ?? 0,
                  at: run.savedAt,
                },
              }
            : {}),
        });
      } catch (e) {
        if (snap && !pendingSnap) pendingSnap = snap; // retried with the next save
        const at = committedRef
          ? `a reload resumes from step ${committedRef.step}`
          : 'a reload cannot resume this run';
        setPersist({
          error: `Could not save the run in this browser: ${errText(e)}. Training goes on; ${at}.`,
        });
      }
    }
  })().finally(() => {
    writing = null;
  });
  return writing;
}

/** Ask for a save: now (snapshots, phase changes) or throttled (records only). */
function requestSave(now: boolean): void {
  if (!key || discarding || !useStore.getState().persist.autosave) return;
  dirty = true;
  if (now) {
    if (timer) clearTimeout(timer);
    timer = null;
    void pump();
    return;
  }
  if (timer) return;
  timer = setTimeout(
    () => {
      timer = null;
      void pump();
    },
    Math.max(0, lastWrite + METRICS_SAVE_MS - Date.now()),
  );
}

function onEvents(events: readonly TrainEvent[]): void {
  const runId = useStore.getState().metrics.runId;
  let now = false;
  let later = false;
  for (const e of events) {
    if (e.type === 'engine' || !('runId' in e) || e.runId !== runId) continue; // regime answers: regimeBridge.ts
    switch (e.type) {
      case 'run':
        if (e.resumeFrom === undefined) {
          // a new start or a reset replaces the saved run (its old snapshot is deleted with the first save)
          pendingSnap = { bytes: null, ref: undefined };
          committedRef = undefined;
          savedPhase = 'loading';
          if (!useStore.getState().persist.autosave) setPersist({ autosave: true });
          if (resuming !== null) resuming = null;
          setPersist({ notice: null });
        }
        now = true;
        break;
      case 'snapshot':
        pendingSnap = { bytes: e.bytes, ref: { step: e.step, key }, takeMs: Math.round(e.seconds * 1000) };
        savedPhase = e.phase;
        now = true;
        break;
      case 'snapshotError':
        setPersist({ error: `Could not save the run in this browser: ${e.message}` });
        break;
      case 'status':
        if (resuming === runId && (e.phase === 'running' || e.phase === 'paused' || e.phase === 'done'))
          resuming = null;
        if (e.phase === 'loading' && (committedRef || pendingSnap?.ref)) break; // a resumed run keeps its phase
        if (e.phase !== savedPhase) {
          savedPhase = e.phase;
          now = true;
        }
        break;
      case 'error':
        if (resuming === runId) {
          resuming = null;
          const n = useStore.getState().persist.notice;
          setPersist({
            notice: {
              step: n?.step ?? 0,
              savedAt: n?.savedAt ?? '',
              ok: false,
              text: `Could not resume the saved run: ${e.message}`,
            },
          });
        }
        break;
      case 'step':
      case 'eval':
      case 'live':
        later = true;
        break;
      case 'checkpoints':
        receiveCheckpoints(e);
        break;
    }
  }
  if (now) requestSave(true);
  else if (later) requestSave(false);
}

function receiveCheckpoints(e: Extract<TrainEvent, { type: 'checkpoints' }>): void {
  if (!useStore.getState().persist.exporting) return;
  if (e.files.length === 0) {
    setPersist({ exporting: false, exportMessage: `Nothing exported: ${e.message}` });
    return;
  }
  for (const f of e.files) downloadBlob(new Blob([f.bytes], { type: 'application/octet-stream' }), f.name);
  setPersist({
    exporting: false,
    exportMessage: `Exported ${e.files.length} checkpoint files at step ${e.step}: ${e.files.map((f) => f.name).join(', ')}`,
  });
}

/** Download every method's agents as .ckpt files (answered by the worker between lock steps). */
export function exportCheckpoints(): void {
  setPersist({ exporting: true, exportMessage: 'Collecting the agents…' });
  sendTrainCommand({ type: 'exportCheckpoints' });
}

/**
 * Delete the saved run of this tab; the current run is no longer saved until the next Start or Reset. The
 * page says "not saved" only once the deletion is committed: a reload right after it must not find the run.
 */
export async function discardSavedRun(): Promise<void> {
  discarding = true; // no save starts meanwhile
  if (timer) clearTimeout(timer);
  timer = null;
  dirty = false;
  pendingSnap = null;
  try {
    await writing;
    committedRef = undefined;
    if (key) await deleteRun(key);
  } catch (e) {
    setPersist({ error: `Could not delete the saved run: ${errText(e)}` });
  } finally {
    discarding = false;
    setPersist({ autosave: false, notice: null, lastSave: null, snapshotSave: null });
  }
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Put a saved run back and restart the worker from its snapshot. False if there is nothing to resume. */
async function resume(saved: { run: unknown; snapshot: ArrayBuffer | null }): Promise<boolean> {
  const v = validateRunFile(saved.run);
  if (!v.ok) {
    setPersist({
      error: `The run saved in this browser cannot be read, so it was not resumed: ${v.errors.slice(0, 3).join('; ')}`,
    });
    return false;
  }
  const run = v.run;
  const plan = planResume(run, saved.snapshot !== null);
  if (plan.kind === 'none') return false;
  await loadCatalog();
  const st = useStore.getState();
  if (st.runStatus.phase !== 'idle') return false; // the user started something meanwhile
  st.setRunSettings(run.settings);
  useStore.setState({ taskFiles: { ...st.taskFiles, ...keptOfRun(run) } }); // a file task's saved run keeps its file
  const savedAt = when(run.savedAt);
  if (plan.kind === 'resume') {
    useStore.setState({
      metrics: { runId: 0, ...plan.metrics, ...(run.regime ? { regime: run.regime } : {}) },
    });
    st.setRunStatus({
      phase: 'loading',
      step: plan.step,
      totalSteps: run.config.steps,
      config: run.config,
      message: `Resuming the saved run from step ${plan.step}…`,
    });
    committedRef = run.snapshot;
  }
  savedPhase = plan.paused ? 'paused' : 'running';
  const problems = startTraining({
    paused: plan.paused,
    config: run.config,
    resume: plan.kind === 'resume' ? { step: plan.step, snapshot: saved.snapshot! } : undefined,
  });
  const listed = Object.entries(problems).map(([k, m]) => `${k}: ${m}`);
  if (listed.length) {
    useStore
      .getState()
      .setRunStatus({ phase: 'idle', message: 'The saved run could not be resumed (see above).' });
    setPersist({
      notice: {
        step: 0,
        savedAt,
        ok: false,
        text: `Could not resume the run saved at ${savedAt}: ${listed.join('; ')}`,
      },
    });
    return true;
  }
  resuming = 0; // the store's run id until the worker's 'run' event
  const unsub = useStore.subscribe((s) => {
    if (s.metrics.runId !== 0) {
      if (resuming === 0) resuming = s.metrics.runId;
      unsub();
    }
  });
  const text =
    plan.kind === 'resume'
      ? `Resumed run from step ${plan.step} (saved at ${savedAt})${plan.paused ? ', paused' : ''}.` +
        (plan.missing.length ? ` Some records were missing from the save: ${plan.missing.join('; ')}.` : '')
      : `Restarted the saved run from step 0 (it was still loading when saved at ${savedAt}).`;
  setPersist({ notice: { step: plan.kind === 'resume' ? plan.step : 0, savedAt, ok: true, text } });
  return true;
}

/** Claim a run key, trying `tries` times 250 ms apart (a reloaded page's old document may still hold it). */
async function claimWithRetry(k: string, tries: number): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 250));
    if (await claimRun(k)) return true;
  }
  return false;
}

/** Read-only test hook: the store's records (e2e/resume.spec.ts). */
function installTestHook(): void {
  const w = window as unknown as { __corl?: Record<string, unknown> };
  if (w.__corl && 'metrics' in w.__corl) return;
  w.__corl = { ...(w.__corl ?? {}), metrics: () => structuredClone(useStore.getState().metrics) };
}

/** Start saving this tab's runs, and resume a saved one (once per page). */
export function initPersistence(): Promise<void> {
  started ??= (async () => {
    installTestHook();
    onTrainEvents(onEvents);
    if (!persistenceAvailable()) {
      setPersist({ available: false, autosave: false });
      return;
    }
    let own: string | null = null;
    try {
      own = sessionStorage.getItem(TAB_KEY);
    } catch {
      /* storage blocked: no per-tab key */
    }
    let adopted = '';
    try {
      // this tab's own run (a reload); else the last saved run of any tab (a new tab, a closed one
      // reopened), but not when the page was opened from a link that names its own settings
      const candidates = [own];
      if (settingsFromQuery(location.search).used.length === 0)
        candidates.push((await lastRun())?.key ?? null);
      for (const c of new Set(candidates)) {
        if (!c || !(await claimWithRetry(c, c === own ? 4 : 1))) continue; // another tab owns it
        const saved = await loadRun(c);
        if (saved && (await resume(saved))) adopted = c;
        else if (saved && c === own)
          adopted = own; // this tab's own finished run: a new start replaces it
        else releaseRun(c);
        if (adopted) break;
      }
    } catch (e) {
      setPersist({ error: `Could not read the runs saved in this browser: ${errText(e)}` });
    }
    key = adopted || newKey();
    if (!adopted) {
      try {
        await claimRun(key);
      } catch (e) {
        setPersist({ error: `Could not claim this tab's run: ${errText(e)}` });
      }
    }
    try {
      sessionStorage.setItem(TAB_KEY, key);
    } catch {
      /* storage blocked */
    }
    setPersist({ runKey: key });
    if (useStore.getState().runStatus.phase !== 'idle') requestSave(true); // a run started while this loaded
  })();
  return started;
}
