// Tests for the chunked loop runner: time-boxed chunks, completion, cancellation and errors.
import { describe, expect, it } from 'vitest';
import { runInChunks } from './chunkRunner';

/** A fake clock where each step costs `cost` ms, and a manual scheduler queue. */
function harness(cost: number) {
  let t = 0;
  const queue: (() => void)[] = [];
  return {
    now: () => t,
    tick: () => (t += cost),
    schedule: (fn: () => void) => void queue.push(fn),
    drain: () => {
      let n = 0;
      while (queue.length) {
        queue.shift()!();
        n++;
      }
      return n;
    },
  };
}

describe('runInChunks', () => {
  it('splits the loop into chunks that respect the budget and finishes once', () => {
    const h = harness(1);
    const seen: number[] = [];
    const chunks: number[] = [];
    let done = 0;
    runInChunks({
      total: 23,
      budgetMs: 5,
      step: (i) => {
        seen.push(i);
        h.tick();
      },
      onChunk: (d) => chunks.push(d),
      onDone: () => done++,
      now: h.now,
      schedule: h.schedule,
    });
    expect(seen).toEqual([]); // asynchronous start
    h.drain();
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(chunks).toEqual([5, 10, 15, 20, 23]);
    expect(done).toBe(1);
  });

  it('always makes progress even when one step exceeds the budget', () => {
    const h = harness(50);
    const chunks: number[] = [];
    runInChunks({
      total: 3,
      budgetMs: 5,
      step: h.tick,
      onChunk: (d) => chunks.push(d),
      now: h.now,
      schedule: h.schedule,
    });
    h.drain();
    expect(chunks).toEqual([1, 2, 3]);
  });

  it('cancel stops the run between chunks with no further callbacks', () => {
    const h = harness(1);
    let steps = 0;
    let done = false;
    const chunks: number[] = [];
    const run = runInChunks({
      total: 100,
      budgetMs: 10,
      step: () => {
        steps++;
        h.tick();
      },
      onChunk: (d) => {
        chunks.push(d);
        if (d >= 20) run.cancel();
      },
      onDone: () => (done = true),
      now: h.now,
      schedule: h.schedule,
    });
    h.drain();
    expect(steps).toBe(20);
    expect(chunks).toEqual([10, 20]);
    expect(done).toBe(false);
    const never = runInChunks({ total: 5, step: () => void steps++, now: h.now, schedule: h.schedule });
    never.cancel();
    h.drain();
    expect(steps).toBe(20);
  });

  it('reports a throwing step once and stops', () => {
    const h = harness(1);
    const errors: unknown[] = [];
    let done = false;
    runInChunks({
      total: 10,
      step: (i) => {
        if (i === 3) throw new Error('boom');
      },
      onError: (e) => errors.push(e),
      onDone: () => (done = true),
      now: h.now,
      schedule: h.schedule,
    });
    h.drain();
    expect(errors).toHaveLength(1);
    expect(done).toBe(false);
  });

  it('an empty loop finishes asynchronously', () => {
    const h = harness(1);
    let done = 0;
    runInChunks({ total: 0, step: () => {}, onDone: () => done++, now: h.now, schedule: h.schedule });
    expect(done).toBe(0);
    h.drain();
    expect(done).toBe(1);
  });
});
