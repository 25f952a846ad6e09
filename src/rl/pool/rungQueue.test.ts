// Which rung a free builder takes (./rungQueue.ts): sure work before work ahead of need, the earlier build
// first, a build decided by its ladder in ladder order whatever order its rungs finish in.
import { describe, expect, it } from 'vitest';
import { RungQueue } from './rungQueue';

const out = { inBand: false, dist: 0.5 };
const band = { inBand: true, dist: 0 };

describe('RungQueue', () => {
  it('gives one builder the builds one after the other, rung by rung', () => {
    const q = new RungQueue([2, 2]);
    const order: string[] = [];
    for (let r = q.next(); r; r = q.next()) {
      order.push(`${r.build}:${r.index}`);
      q.finished(r.build, r.index, out);
    }
    expect(order).toEqual(['0:0', '0:1', '1:0', '1:1']);
    expect(q.done).toBe(true);
    expect(q.kept(0)).toBe(0); // none in band, equal distances: the earlier
  });

  it('takes sure work before work ahead of need, then runs ahead on a free builder', () => {
    const q = new RungQueue([3, 3]);
    expect(q.next()).toEqual({ build: 0, index: 0 });
    expect(q.next()).toEqual({ build: 1, index: 0 }); // not build 0's rung 1, which may not be needed
    expect(q.next()).toEqual({ build: 0, index: 1 }); // both run a rung: ahead of need, the earlier build
    q.finished(1, 0, out);
    expect(q.next()).toEqual({ build: 1, index: 1 }); // sure again: build 1's rung 0 ended out of band
  });

  it('decides a build at its first rung in band and cancels the rungs running after it', () => {
    const q = new RungQueue([3]);
    q.next();
    q.next();
    expect(q.finished(0, 1, out)).toBeUndefined(); // rung 0 still open: nothing decided
    expect(q.finished(0, 0, band)).toEqual({ kept: 0, cancel: [] });
    expect(q.recorded(0)).toEqual([0]);
    expect(q.next()).toBeNull(); // rung 2 is never started
    expect(q.done).toBe(true);

    const r = new RungQueue([3]);
    r.next();
    r.next();
    expect(r.finished(0, 0, band)).toEqual({ kept: 0, cancel: [1] });
    expect(r.finished(0, 1, band)).toBeUndefined(); // the cancelled rung's late result changes nothing
    expect(r.kept(0)).toBe(0);
  });

  it('keeps the closest rung when none is in band, only once every rung is known, ties to the earlier', () => {
    const q = new RungQueue([3]);
    q.next();
    q.next();
    q.next();
    expect(q.finished(0, 2, { inBand: false, dist: 0.1 })).toBeUndefined();
    expect(q.finished(0, 0, { inBand: false, dist: 0.3 })).toBeUndefined();
    expect(q.finished(0, 1, { inBand: false, dist: 0.1 })).toEqual({ kept: 1, cancel: [] });
    expect(q.recorded(0)).toEqual([0, 1, 2]);
  });

  it('runs a rung again after its worker stopped, and a build again from its first rung', () => {
    const q = new RungQueue([2]);
    q.next();
    q.retry(0, 0);
    expect(q.next()).toEqual({ build: 0, index: 0 });
    q.finished(0, 0, out);
    q.next();
    expect(q.restart(0)).toEqual([1]); // the rung still running, to cancel
    expect(q.next()).toEqual({ build: 0, index: 0 });
    expect(q.next((b) => b !== 0)).toBeNull(); // a filter that allows no build
  });

  it('refuses a build with no rungs', () => {
    expect(() => new RungQueue([2, 0])).toThrow('RungQueue: a build has 0 rungs');
  });
});
