// The charts' staggered update is a throttle: a stream of new data faster than the delay still reaches the
// chart (a debounce that restarts its wait on every value would show nothing until the stream stops, which
// froze the last charts of the Train view on a busy page).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStagger } from './stagger';

describe('makeStagger', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('shows the latest value once per delay while values keep arriving faster than the delay', () => {
    const shown: number[] = [];
    const s = makeStagger<number>(160, (v) => shown.push(v));
    for (let i = 1; i <= 20; i++) {
      s.push(i);
      vi.advanceTimersByTime(100); // a new value every 100 ms, the delay is 160 ms
    }
    // 2,000 ms of pushes: one show per 160-200 ms, each the newest value at that moment
    expect(shown.length).toBeGreaterThanOrEqual(9);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(new Set(shown).size).toBe(shown.length);
    vi.advanceTimersByTime(160);
    expect(shown.at(-1)).toBe(20); // the last value is shown once the stream stops
  });

  it('shows a single value after the delay, and nothing once cancelled', () => {
    const shown: string[] = [];
    const s = makeStagger<string>(40, (v) => shown.push(v));
    s.push('a');
    vi.advanceTimersByTime(39);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(['a']);
    s.push('b');
    s.cancel();
    vi.advanceTimersByTime(100);
    expect(shown).toEqual(['a']);
  });
});
