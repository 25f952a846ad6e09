// The step budget of the training worker's run (TrainController's pause / resume / step-once, and the
// speed): how many lock steps the run loop (./runLoop.ts) may still take before it pauses, and a wake-up
// for the loop while it waits (a command, a lost device, a stop).

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class StepBudget {
  /** Lock steps the loop may still take before it pauses (Infinity while running). */
  private left = 0;
  /** The speed: milliseconds the loop waits between lock steps while running. */
  private delayMs = 0;
  /** Wakes the loop waiting in wait() (null: it is not waiting). */
  private waiter: (() => void) | null = null;

  /** Whether the loop may take another lock step. */
  get running(): boolean {
    return this.left > 0;
  }
  /** A new run starts paused or running. */
  reset(paused: boolean): void {
    this.left = paused ? 0 : Infinity;
  }
  /** Stop after the lock step in progress (the 'pause' command; a divergence). */
  pause(): void {
    this.left = 0;
  }
  /** Run until paused (the 'resume' command). */
  resume(): void {
    this.left = Infinity;
    this.wake();
  }
  /** The 'step' command: from paused, exactly one lock step; while running, stop after the step in progress. */
  stepOnce(paused: boolean): void {
    this.left = paused ? 1 : 0;
    this.wake();
  }
  /** The 'speed' command. */
  setDelay(ms: number): void {
    this.delayMs = Math.max(0, ms);
  }
  /** The loop starts a lock step. */
  take(): void {
    this.left--;
  }
  /** The lock step taken did not happen (it failed): the loop may take it again. */
  refund(): void {
    this.left++;
  }
  /** Resolves at the next wake(). */
  async wait(): Promise<void> {
    await new Promise<void>((r) => (this.waiter = r));
    this.waiter = null;
  }
  /** Wake the waiting loop (if any) to look at the budget, its stop flag and the device again. */
  wake(): void {
    this.waiter?.();
  }
  /** Between lock steps: yield to the message queue (pause, live changes), and apply the speed while running. */
  pace(): Promise<void> {
    return sleep(this.running ? this.delayMs : 0);
  }
}
