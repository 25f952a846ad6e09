// Keeps this tab's training run in IndexedDB (src/store/persist.ts) and resumes it after a reload.
// Saving: the run record and the trainer snapshot bytes go into ONE transaction whenever the worker
// posts a snapshot (every few lock steps, at pause and at the end); the phase on every phase change; the
// records alone at most every 2 s. Saves run one at a time, in order; a failed one (a quota error
// included) is shown in the page. Resuming (initPersistence, when the Train view first shows): this
// tab's own run (sessionStorage; not when the tab was navigated to a link whose settings differ from the
// run's) or else the last saved run (unless the page was opened from a link with settings), if no other
// tab holds it and it was loading/running/paused: its settings and records up to the snapshot's step go
// into the store at once, and the worker restarts from the snapshot, running or
// paused as before. One TabRuns object holds all of it: this tab's run key, the snapshot saved and the
// one waiting, the phase saved, whether a resumed run has started; its writer is a SaveQueue
// (./saveQueue.ts). Downloading the agents as checkpoint files is ./exportBridge.ts.
import type { RunSnapshotRef, SavedPhase } from '../formats/runFile';
import { buildRunFile, validateRunFile, type RunFile } from '../formats/runFile';
import { keptOfRun } from '../formats/runFileTask';
import { claimRun, deleteRun, lastRun, loadRun, persistenceAvailable, releaseRun, saveRun } from './persist';
import { linkOverRun, linkSettings, planResume } from './resumePlan';
import { useStore } from './store';
import { loadCatalog, onTrainEvents, startTraining } from './trainBridge';
import { SaveQueue } from './saveQueue';
import { claimWithRetry, navigationType, newKey, readTabKey, writeTabKey } from './tabClaims';
import type { TrainEvent } from '../worker/protocol';

/** Records-only saves at most this often. */
export const METRICS_SAVE_MS = 2000;

const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const setPersist = (p: Parameters<ReturnType<typeof useStore.getState>['setPersist']>[0]) =>
  useStore.getState().setPersist(p);

/**
 * A saved run put back: none; started, waiting for the worker's run id (the store's is 0 until the 'run'
 * event); or started as run `runId`, until it runs or fails (a failure then says the resume failed).
 */
type Resuming = { kind: 'none' } | { kind: 'awaitingRunId' } | { kind: 'started'; runId: number };

/** Snapshot bytes for the next save (null: delete the old ones), with the ref they make current. */
type PendingSnapshot = { bytes: ArrayBuffer | null; ref: RunSnapshotRef | undefined; takeMs?: number };

/** This tab's saved run: what is saved, what waits for the next save, and the resume of a saved run. */
class TabRuns {
  /** initPersistence's work (once per page). */
  private started: Promise<void> | null = null;
  /** This tab's run key ('' until initPersistence has picked it: nothing is saved before). */
  private key = '';
  /** The snapshot the saved run record points to (committed with its bytes). */
  private committedRef: RunSnapshotRef | undefined;
  /** The snapshot waiting for the next save. */
  private pendingSnap: PendingSnapshot | null = null;
  /** The phase the next save records. */
  private savedPhase: SavedPhase = 'idle';
  private resuming: Resuming = { kind: 'none' };
  /** True while "Discard saved run" deletes the saved run: nothing is saved meanwhile. */
  private discarding = false;
  private readonly queue = new SaveQueue(
    () => this.write(),
    () => this.saving(),
    METRICS_SAVE_MS,
  );

  /** Whether runs are saved now: the key is picked, no discard is running, and autosave is on. */
  private saving(): boolean {
    return !!this.key && !this.discarding && useStore.getState().persist.autosave;
  }

  private isResuming(runId: number): boolean {
    return this.resuming.kind === 'started' && this.resuming.runId === runId;
  }

  /** The run record of the current store state. */
  private runFile(ref: RunSnapshotRef | undefined): RunFile {
    const s = useStore.getState();
    const run: RunFile = { ...buildRunFile(s, `autosave ${s.runSettings.preset}`), phase: this.savedPhase };
    if (ref) run.snapshot = { ...ref };
    return run;
  }

  /** One save: the run record, with the waiting snapshot's bytes in the same transaction. True when stored. */
  private async write(): Promise<boolean> {
    const { key } = this;
    const snap = this.pendingSnap;
    this.pendingSnap = null;
    const ref = snap ? snap.ref && { ...snap.ref, key } : this.committedRef;
    if (snap) snap.ref = ref; // the key is this tab's at the time of the save
    const run = this.runFile(ref);
    const t0 = performance.now();
    try {
      await saveRun(key, run, snap ? snap.bytes : undefined);
      if (snap) this.committedRef = snap.ref;
      const committed = this.committedRef;
      const ms = Math.round(performance.now() - t0);
      const bytes = snap?.bytes?.byteLength ?? 0;
      setPersist({
        lastSave: {
          step: run.step,
          snapshotStep: committed?.step ?? null,
          at: run.savedAt,
          snapshotBytes: bytes,
          ms,
        },
        ...(bytes && committed
          ? {
              snapshotSave: { step: committed.step, bytes, ms, takeMs: snap?.takeMs ?? 0, at: run.savedAt },
            }
          : {}),
      });
      return true;
    } catch (e) {
      if (snap && !this.pendingSnap) this.pendingSnap = snap; // retried with the next save
      const at = this.committedRef
        ? `a reload resumes from step ${this.committedRef.step}`
        : 'a reload cannot resume this run';
      setPersist({
        error: `Could not save the run in this browser: ${errText(e)}. Training goes on; ${at}.`,
      });
      return false;
    }
  }

  /** The worker's events of the store's run: what they change of the saved run, then a save now or throttled. */
  onEvents(events: readonly TrainEvent[]): void {
    const runId = useStore.getState().metrics.runId;
    let now = false;
    let later = false;
    for (const e of events) {
      if (e.type === 'engine' || !('runId' in e) || e.runId !== runId) continue; // regime answers: regimeBridge.ts
      switch (e.type) {
        case 'run':
          if (e.resumeFrom === undefined) {
            // a new start or a reset replaces the saved run (its old snapshot is deleted with the first save)
            this.pendingSnap = { bytes: null, ref: undefined };
            this.committedRef = undefined;
            this.savedPhase = 'loading';
            if (!useStore.getState().persist.autosave) setPersist({ autosave: true });
            this.resuming = { kind: 'none' };
            setPersist({ notice: null });
          }
          now = true;
          break;
        case 'snapshot':
          this.pendingSnap = {
            bytes: e.bytes,
            ref: { step: e.step, key: this.key },
            takeMs: Math.round(e.seconds * 1000),
          };
          this.savedPhase = e.phase;
          now = true;
          break;
        case 'snapshotError':
          setPersist({ error: `Could not save the run in this browser: ${e.message}` });
          break;
        case 'status':
          if (this.isResuming(runId) && (e.phase === 'running' || e.phase === 'paused' || e.phase === 'done'))
            this.resuming = { kind: 'none' };
          if (e.phase === 'loading' && (this.committedRef || this.pendingSnap?.ref)) break; // a resumed run keeps its phase
          if (e.phase !== this.savedPhase) {
            this.savedPhase = e.phase;
            now = true;
          }
          break;
        case 'error':
          if (this.isResuming(runId)) {
            this.resuming = { kind: 'none' };
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
      }
    }
    if (now) this.queue.request(true);
    else if (later) this.queue.request(false);
  }

  /** See discardSavedRun. */
  async discard(): Promise<void> {
    this.discarding = true; // no save starts meanwhile
    this.pendingSnap = null;
    try {
      await this.queue.cancel();
      this.committedRef = undefined;
      if (this.key) await deleteRun(this.key);
    } catch (e) {
      setPersist({ error: `Could not delete the saved run: ${errText(e)}` });
    } finally {
      this.discarding = false;
      setPersist({ autosave: false, notice: null, lastSave: null, snapshotSave: null });
    }
  }

  /** Put a saved run back and restart the worker from its snapshot. False if there is nothing to resume. */
  private async resume(saved: { run: unknown; snapshot: ArrayBuffer | null }): Promise<boolean> {
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
      this.committedRef = run.snapshot;
    }
    this.savedPhase = plan.paused ? 'paused' : 'running';
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
    this.resuming = { kind: 'awaitingRunId' };
    const unsub = useStore.subscribe((s) => {
      if (s.metrics.runId !== 0) {
        if (this.resuming.kind === 'awaitingRunId')
          this.resuming = { kind: 'started', runId: s.metrics.runId };
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

  /**
   * The run the notice passed over for a link (its `key`): resume it in place of the link's settings (this
   * tab then owns it), or delete it. Refused while a run is under way; told when another tab took it since.
   */
  async passedOver(action: 'resume' | 'discard'): Promise<void> {
    await this.started;
    const n = useStore.getState().persist.notice;
    const k = n?.key;
    if (!n || !k) return;
    if (action === 'resume' && useStore.getState().runStatus.phase !== 'idle')
      return setPersist({ error: 'Reset the current run first: the saved run would replace it.' });
    if (!(await claimWithRetry(k, 1)))
      return setPersist({
        notice: { ...n, key: undefined, text: `${n.text} Another tab has taken it since.` },
      });
    const mine = this.key;
    try {
      if (action === 'discard') {
        await deleteRun(k);
        return setPersist({ notice: null });
      }
      const saved = await loadRun(k);
      this.key = k; // the resumed run's saves go to its own record
      if (saved && (await this.resume(saved))) {
        writeTabKey(k);
        setPersist({ runKey: k });
        if (mine && mine !== k) releaseRun(mine);
        return;
      }
      this.key = mine;
      releaseRun(k);
      setPersist({
        notice: null,
        error: 'The saved run could not be resumed: it is no longer in this browser.',
      });
    } catch (e) {
      this.key = mine;
      releaseRun(k);
      setPersist({ error: `Could not ${action} the saved run: ${errText(e)}` });
    }
  }

  /** See initPersistence. */
  init(): Promise<void> {
    this.started ??= this.start();
    return this.started;
  }

  private async start(): Promise<void> {
    installTestHook();
    onTrainEvents((events) => this.onEvents(events));
    if (!persistenceAvailable()) {
      setPersist({ available: false, autosave: false });
      return;
    }
    const own = readTabKey();
    let adopted = '';
    try {
      // this tab's own run (a reload); else the last saved run of any tab (a new tab, a closed one
      // reopened), but not when the page was opened from a link that names its own settings
      const link = linkSettings(location.search); // an engine-demo link sets no run's settings
      const candidates = [own];
      if (link.used.length === 0) candidates.push((await lastRun())?.key ?? null);
      for (const c of new Set(candidates)) {
        if (!c || !(await claimWithRetry(c, c === own ? 4 : 1))) continue; // another tab owns it
        const saved = await loadRun(c);
        const passed = saved && c === own ? linkOverRun(link, saved.run, navigationType(), when) : null;
        if (passed) {
          setPersist({ notice: { ...passed, key: c } }); // the link is what was asked for; the run stays saved
          releaseRun(c);
        } else if (saved && (await this.resume(saved))) adopted = c;
        else if (saved && c === own)
          adopted = own; // this tab's own finished run: a new start replaces it
        else releaseRun(c);
        if (adopted) break;
      }
    } catch (e) {
      setPersist({ error: `Could not read the runs saved in this browser: ${errText(e)}` });
    }
    this.key = adopted || newKey();
    if (!adopted) {
      try {
        await claimRun(this.key);
      } catch (e) {
        setPersist({ error: `Could not claim this tab's run: ${errText(e)}` });
      }
    }
    writeTabKey(this.key);
    setPersist({ runKey: this.key });
    if (useStore.getState().runStatus.phase !== 'idle') this.queue.request(true); // a run started while this loaded
  }
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Read-only test hook: the store's records (e2e/resume.spec.ts). */
function installTestHook(): void {
  const w = window as unknown as { __corl?: Record<string, unknown> };
  if (w.__corl && 'metrics' in w.__corl) return;
  w.__corl = { ...(w.__corl ?? {}), metrics: () => structuredClone(useStore.getState().metrics) };
}

/** This page's one TabRuns. */
const tabRuns = new TabRuns();

/**
 * Delete the saved run of this tab; the current run is no longer saved until the next Start or Reset. The
 * page says "not saved" only once the deletion is committed: a reload right after it must not find the run.
 */
export function discardSavedRun(): Promise<void> {
  return tabRuns.discard();
}

/** Resume the saved run the notice passed over for the link (TabRuns.passedOver). */
export function resumePassedOverRun(): Promise<void> {
  return tabRuns.passedOver('resume');
}

/** Delete the saved run the notice passed over for the link (TabRuns.passedOver). */
export function discardPassedOverRun(): Promise<void> {
  return tabRuns.passedOver('discard');
}

/** Start saving this tab's runs, and resume a saved one (once per page). */
export function initPersistence(): Promise<void> {
  return tabRuns.init();
}
