// The run saver's writer (./saveQueue.ts) on fake timers: records-only saves throttled after the last
// successful write, saves now bypassing it, one write at a time in order, nothing while saving is off.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SaveQueue } from './saveQueue';

const GAP = 2000;

/** A queue whose writes are counted; each write waits for `release()` when `hold` is on. */
function harness(opts: { ok?: boolean; hold?: boolean } = {}) {
  const log: string[] = [];
  let running = 0;
  let allowed = true;
  const waiting: (() => void)[] = [];
  const q = new SaveQueue(
    async () => {
      running++;
      log.push(`start${running > 1 ? ' (concurrent!)' : ''}`);
      if (opts.hold) await new Promise<void>((r) => waiting.push(r));
      running--;
      log.push('end');
      return opts.ok ?? true;
    },
    () => allowed,
    GAP,
  );
  return {
    q,
    log,
    writes: () => log.filter((l) => l.startsWith('start')).length,
    release: () => waiting.shift()?.(),
    allow: (v: boolean) => (allowed = v),
  };
}

const tick = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(100_000);
});
afterEach(() => vi.useRealTimers());

describe('SaveQueue', () => {
  it('throttles records-only saves to one per gap after the last successful write', async () => {
    const h = harness();
    h.q.request(false); // nothing written yet: due at once
    await tick();
    expect(h.writes()).toBe(1);
    h.q.request(false);
    h.q.request(false); // the scheduled write takes both
    await vi.advanceTimersByTimeAsync(GAP - 1);
    expect(h.writes()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.writes()).toBe(2);
  });

  it('writes now when asked, dropping the scheduled write it makes needless', async () => {
    const h = harness();
    h.q.request(true);
    await tick();
    h.q.request(false); // scheduled GAP after the write
    h.q.request(true);
    await tick();
    expect(h.writes()).toBe(2);
    await vi.advanceTimersByTimeAsync(2 * GAP);
    expect(h.writes()).toBe(2);
  });

  it('runs one write at a time: asks during a write make exactly one more, after it', async () => {
    const h = harness({ hold: true });
    h.q.request(true);
    await tick();
    h.q.request(true);
    h.q.request(false);
    h.q.request(true);
    await tick();
    expect(h.log).toEqual(['start']);
    h.release();
    await tick();
    expect(h.log).toEqual(['start', 'end', 'start']);
    h.release();
    await vi.advanceTimersByTimeAsync(2 * GAP);
    expect(h.log).toEqual(['start', 'end', 'start', 'end']);
  });

  it('does not throttle after a failed write (the next save is not delayed by it)', async () => {
    const h = harness({ ok: false });
    h.q.request(true);
    await tick();
    h.q.request(false);
    await tick();
    expect(h.writes()).toBe(2);
  });

  it('writes nothing while saving is off, and stops between writes when it goes off', async () => {
    const h = harness({ hold: true });
    h.allow(false);
    h.q.request(true);
    h.q.request(false);
    await vi.advanceTimersByTimeAsync(2 * GAP);
    expect(h.writes()).toBe(0);
    h.allow(true);
    h.q.request(true);
    await tick();
    h.q.request(true); // dirty again during the write
    h.allow(false);
    h.release();
    await vi.advanceTimersByTimeAsync(2 * GAP);
    expect(h.log).toEqual(['start', 'end']);
  });

  it('cancel drops what is waiting and resolves once the running write has ended', async () => {
    const h = harness({ hold: true });
    h.q.request(true);
    await tick();
    h.q.request(true); // would be a second write
    let cancelled = false;
    void h.q.cancel().then(() => (cancelled = true));
    await tick();
    expect(cancelled).toBe(false);
    h.release();
    await tick();
    expect(cancelled).toBe(true);
    await vi.advanceTimersByTimeAsync(2 * GAP);
    expect(h.log).toEqual(['start', 'end']);
  });
});
