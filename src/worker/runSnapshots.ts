// What one training run (./runLoop.ts) keeps of itself (docs/architecture-runtime.md "Faults"): the snapshots it
// posts to the page (saved in the browser, every `snapshotEvery` lock steps, at pause and at the end), and
// the recovery point, the latest snapshot kept in memory, that a divergence rolls back to and a lost device
// reloads from. The recovery point is kept after every lock step while taking it costs under KEEP_SHARE
// of a lock step (as measured on the run's backend), else at least every `snapshotEvery` (or 5) steps;
// the steps after it are re-run silently (records the page has are not posted again).
import type { RunContext } from './runContext';
import type { TrainSession } from './trainSession';

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
/** In-memory snapshots are kept after every lock step while one costs less than this share of a lock step. */
export const KEEP_SHARE = 0.1;

export class RunSnapshots {
  /** The recovery point (null: none kept yet). */
  private good: { step: number; bytes: Uint8Array } | null = null;
  /** A live change since `good`: keep a new one before the next lock step (so a re-run uses the same values). */
  private keepDue = false;
  /** The step of the latest snapshot posted (none yet: -1). */
  private posted = -1;
  /** Seconds the latest in-memory snapshot took. */
  private keepCost = 0;

  /**
   * `keepShare`: see ControllerEnv.keepShare (default KEEP_SHARE); `snapshotEvery`: post a snapshot every
   * this many lock steps (0: only at pause and done); `total`: the run's last lock step.
   */
  constructor(
    private readonly run: RunContext,
    private readonly keepShare: number | undefined,
    private readonly snapshotEvery: number,
    private readonly total: number,
  ) {}

  /** The latest snapshot kept, to roll back or reload from. */
  get recoveryPoint(): { step: number; bytes: Uint8Array } | null {
    return this.good;
  }
  /** The session's live values changed (or it was reloaded): keep a new recovery point before the next lock step. */
  renewDue(): void {
    this.keepDue = true;
  }
  /** A saved run restored at `step` from `bytes`: the recovery point, and the page holds this snapshot already. */
  restored(step: number, bytes: Uint8Array): void {
    this.good = { step, bytes };
    this.posted = step;
  }
  /** Before a lock step: a live change since the recovery point gets it the new values. */
  async beforeStep(s: TrainSession): Promise<void> {
    if (this.keepDue) await this.keep(s);
  }
  /** After a lock step that took `seconds`: post a snapshot when one is due, else keep one in memory when it is cheap or due. */
  async afterStep(s: TrainSession, seconds: number, phase: 'running' | 'paused'): Promise<void> {
    const { snapshotEvery: every, total, keepShare } = this;
    if (every > 0 && s.step % every === 0 && s.step < total) await this.post(s, phase);
    else if (
      s.step < total &&
      (this.keepCost < (keepShare ?? KEEP_SHARE) * seconds || s.step - (this.good?.step ?? 0) >= (every || 5))
    )
      await this.keep(s);
  }

  /** Post the snapshot of `s` (once per step; the page saves it), which is also the recovery point. A failure is reported, training goes on. */
  async post(s: TrainSession, phase: 'running' | 'paused' | 'done'): Promise<void> {
    const { run } = this;
    if (this.posted === s.step || run.aborted()) return;
    this.posted = s.step;
    try {
      const t0 = performance.now();
      this.keepDue = false;
      const bytes = await run.exclusive(() => s.snapshot());
      const seconds = (performance.now() - t0) / 1000;
      if (run.aborted()) return;
      this.good = { step: s.step, bytes: bytes.slice() }; // the recovery point (faults)
      const buf = bytes.buffer as ArrayBuffer;
      run.post({ type: 'snapshot', runId: run.id, step: s.step, phase, bytes: buf, seconds }, [buf]);
    } catch (e) {
      run.post({
        type: 'snapshotError',
        runId: run.id,
        step: s.step,
        message: `could not take a snapshot at step ${s.step}: ${message(e)}`,
      });
    }
  }

  /** Keep a snapshot in memory only (the recovery point), unless the kept one is current. */
  private async keep(s: TrainSession): Promise<void> {
    if (!this.keepDue && this.good?.step === s.step) return;
    this.keepDue = false;
    const t0 = performance.now();
    try {
      const bytes = await this.run.exclusive(() => s.snapshot());
      if (!this.run.aborted()) this.good = { step: s.step, bytes };
    } catch {
      this.keepDue = true; // the older snapshot stays the recovery point; try again after the next step
    }
    this.keepCost = (performance.now() - t0) / 1000;
  }
}
