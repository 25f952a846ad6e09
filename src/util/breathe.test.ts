// A busy loop that awaits only promises lets a timer (a message, a cancel) in when it awaits breather().
import { describe, expect, it } from 'vitest';
import { breather, macrotask } from './breathe';

async function busy(ms: number, breathe?: () => Promise<void>): Promise<boolean> {
  let fired = false;
  setTimeout(() => (fired = true), 0);
  const end = performance.now() + ms;
  while (performance.now() < end && !fired) {
    await Promise.resolve(); // a step that awaits only a promise
    if (breathe) await breathe();
  }
  return fired;
}

describe('breather', () => {
  it('lets a timer fire during a busy loop, which without it waits for the end', async () => {
    expect(await busy(60)).toBe(false);
    expect(await busy(2000, breather(5))).toBe(true);
  });

  it('yields a macrotask', async () => {
    let fired = false;
    setTimeout(() => (fired = true), 0);
    // Bounded by time, not by a count of turns: a timer of 0 ms is due after 1 ms in Node, and 50 turns can
    // pass in less than that. A microtask in place of macrotask() never lets the timer in and fails here.
    const end = performance.now() + 1000;
    while (!fired && performance.now() < end) await macrotask();
    expect(fired).toBe(true);
  });
});
