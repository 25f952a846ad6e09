// Tests for the theory view's pure helpers: portrait geometry, ODE summaries, parsing and formatting.
import { describe, expect, it } from 'vitest';
import { FRAME, fieldArrows, fromSvg, roundPoint, toSvg, trajectoryPath } from './portraitGeometry';
import {
  computeTrajectory,
  computeWorked,
  fmtPair,
  horizonFor,
  lruMemo,
  parseProb,
  separatrixSide,
  settleTime,
  toSeries,
} from './theoryModel';

describe('portrait geometry', () => {
  it('maps the unit square onto the plot with pB upwards, and back', () => {
    expect(toSvg(FRAME, 0, 0)).toEqual([FRAME.left, FRAME.top + FRAME.plot]);
    expect(toSvg(FRAME, 1, 1)).toEqual([FRAME.left + FRAME.plot, FRAME.top]);
    const [x, y] = toSvg(FRAME, 0.3, 0.8);
    const p = fromSvg(FRAME, x, y)!;
    expect(p.pA).toBeCloseTo(0.3, 12);
    expect(p.pB).toBeCloseTo(0.8, 12);
    expect(fromSvg(FRAME, 2, 2)).toBeNull();
    expect(fromSvg(FRAME, FRAME.left - 2, FRAME.top)).toEqual({ pA: 0, pB: 1 });
    expect(roundPoint({ pA: 0.304, pB: 0.7951 })).toEqual({ pA: 0.3, pB: 0.8 });
  });

  it('arrows: agent A moves towards the peer vote (right iff pB > 1/2), B likewise (up iff pA > 1/2)', () => {
    const arrows = fieldArrows(FRAME, 7, 10);
    expect(arrows.length).toBe(100);
    for (const a of arrows) {
      const c = fromSvg(FRAME, (a.x1 + a.x2) / 2, (a.y1 + a.y2) / 2)!;
      expect(a.x2 > a.x1).toBe(c.pB > 0.5);
      expect(a.y2 < a.y1).toBe(c.pA > 0.5);
      expect(a.speed).toBeGreaterThan(0);
      expect(a.speed).toBeLessThanOrEqual(1);
    }
    expect(fieldArrows(FRAME, 1, 10)).toEqual([]); // K = 1: a group of one has no variance, no gradient
  });

  it('trajectory paths keep the end points and thin long runs', () => {
    const ys = Array.from({ length: 1001 }, (_, i) => [i / 1000, i / 1000]);
    const d = trajectoryPath(FRAME, ys, 100);
    const verts = d.split(' ');
    expect(verts.length).toBeLessThanOrEqual(102);
    expect(verts[0]).toBe(`M${FRAME.left.toFixed(1)},${(FRAME.top + FRAME.plot).toFixed(1)}`);
    expect(verts[verts.length - 1]).toBe(`L${(FRAME.left + FRAME.plot).toFixed(1)},${FRAME.top.toFixed(1)}`);
    expect(trajectoryPath(FRAME, [])).toBe('');
  });
});

describe('ODE summaries', () => {
  it('separatrix: (0.3, 0.8) goes to (1, 1), (0.3, 0.6) to (0, 0); self-rewarding splits the agents', () => {
    const up = computeTrajectory({ pA: 0.3, pB: 0.8 }, 7);
    expect(Math.min(...up.coRlEnd)).toBeGreaterThan(0.99);
    expect(up.selfEnd[0]).toBeLessThan(0.01);
    expect(up.selfEnd[1]).toBeGreaterThan(0.99);
    const down = computeTrajectory({ pA: 0.3, pB: 0.6 }, 7);
    expect(Math.max(...down.coRlEnd)).toBeLessThan(0.01);
    expect(computeTrajectory({ pA: 0.3, pB: 0.8 }, 7)).toBe(up); // memoised
  });

  it('worked example: self-rewarding 0.50, Co-RL 1.00, at several K', () => {
    for (const K of [3, 7, 15]) {
      const w = computeWorked(K);
      expect(w.self.mean.toFixed(2)).toBe('0.50');
      expect(w.coRl.mean.toFixed(2)).toBe('1.00');
      expect(w.series[0]).toEqual({ t: 0, self: 0.55, coRl: 0.55 });
      expect(w.series[w.series.length - 1].t).toBeLessThanOrEqual(w.horizon);
    }
  });

  it('settling time and horizon', () => {
    const tr = { t: [0, 1, 2, 3, 4], y: [[0.5], [0.8], [0.95], [0.99], [1]] };
    expect(settleTime(tr, 0.02)).toBe(3);
    expect(settleTime({ t: [0, 1], y: [[1], [1]] })).toBe(0);
    expect(horizonFor(tr)).toBe(10);
    const slow = computeTrajectory({ pA: 0.3, pB: 0.8 }, 7).coRl;
    const h = horizonFor(slow);
    expect(h).toBeGreaterThanOrEqual(settleTime(slow));
    expect(toSeries(slow, h).at(-1)!.t).toBeLessThanOrEqual(h);
  });

  it('lruMemo computes once per key and evicts the oldest', () => {
    let calls = 0;
    const m = lruMemo(2, (k) => (calls++, k.length));
    m('a');
    m('a');
    m('bb');
    m('ccc');
    expect(calls).toBe(3);
    m('a'); // evicted, recomputed
    expect(calls).toBe(4);
  });
});

describe('parsing and formatting', () => {
  it('parses probabilities and rejects the rest', () => {
    expect(parseProb('0.3')).toBe(0.3);
    expect(parseProb(' .8 ')).toBe(0.8);
    expect(parseProb('0,25')).toBe(0.25);
    expect(parseProb('1')).toBe(1);
    for (const bad of ['', '1.2', '-0.1', 'abc', '0.3x', '.']) expect(parseProb(bad)).toBeNull();
  });
  it('formats pairs and classifies the side of the separatrix', () => {
    expect(fmtPair(0.99812, 0.9966)).toBe('(0.998, 0.997)');
    expect(separatrixSide({ pA: 0.3, pB: 0.8 })).toBe('above');
    expect(separatrixSide({ pA: 0.3, pB: 0.6 })).toBe('below');
    expect(separatrixSide({ pA: 0.3, pB: 0.7 })).toBe('on');
  });
});
