// The writer behind saving a run in the browser (./persistBridge.ts): saves are asked for now (snapshots,
// phase changes) or throttled (records only: at most one every `minGapMs` after the last successful
// write); they run one at a time, in order, and several asks while one runs make one more write.

/** Where the queue stands: nothing to do, a throttled write waiting for its time, or a write running. */
type QueueState =
  | { kind: 'idle' }
  | { kind: 'scheduled'; timer: ReturnType<typeof setTimeout> }
  | { kind: 'writing'; done: Promise<void> };

export class SaveQueue {
  private state: QueueState = { kind: 'idle' };
  /** A save was asked for since the latest write began. */
  private dirty = false;
  /** When the latest successful write ended (Date.now()). */
  private lastWrite = 0;

  /**
   * `write`: one save of the current state, true when it was stored (never throws: it reports its own
   * failure); `allowed`: whether saving is on now (checked before every write and every ask).
   */
  constructor(
    private readonly write: () => Promise<boolean>,
    private readonly allowed: () => boolean,
    private readonly minGapMs: number,
  ) {}

  /** Ask for a save: now, or throttled. Ignored while saving is not allowed. */
  request(now: boolean): void {
    if (!this.allowed()) return;
    this.dirty = true;
    if (now) {
      this.cancelTimer();
      void this.pump();
      return;
    }
    if (this.state.kind !== 'idle') return; // the scheduled or running write takes this one too
    const timer = setTimeout(
      () => {
        this.state = { kind: 'idle' };
        void this.pump();
      },
      Math.max(0, this.lastWrite + this.minGapMs - Date.now()),
    );
    this.state = { kind: 'scheduled', timer };
  }

  /** Drop what was asked for and not started; resolves when the write running (if any) has ended. */
  async cancel(): Promise<void> {
    this.cancelTimer();
    this.dirty = false;
    if (this.state.kind === 'writing') await this.state.done;
  }

  private cancelTimer(): void {
    if (this.state.kind !== 'scheduled') return;
    clearTimeout(this.state.timer);
    this.state = { kind: 'idle' };
  }

  /** Write until nothing is dirty; one write at a time, in order. */
  private pump(): Promise<void> {
    if (this.state.kind === 'writing') return this.state.done;
    const done = (async () => {
      while (this.dirty && this.allowed()) {
        this.dirty = false;
        if (await this.write()) this.lastWrite = Date.now();
      }
    })().finally(() => {
      this.state = { kind: 'idle' };
    });
    this.state = { kind: 'writing', done };
    return done;
  }
}
