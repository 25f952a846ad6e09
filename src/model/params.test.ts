// Tests of the flat parameter layout (alignment, count) and the GPT-2 initialisation.
import { describe, expect, it } from 'vitest';
import { VIEW_ALIGN } from '../engine/backend';
import { makeGPTConfig } from './config';
import { initParams, paramCount, paramLayout } from './params';

describe('parameter layout', () => {
  it('aligns every tensor and counts GPT-2 parameters', () => {
    const cfg = makeGPTConfig({ vocabSize: 29, blockSize: 13, nLayer: 2, nHead: 3, nEmbd: 45, mlpRatio: 4 });
    const lay = paramLayout(cfg);
    const C = 45,
      V = 29,
      L = 2,
      H = 180;
    const perLayer = 2 * C + 3 * C * C + 3 * C + C * C + C + 2 * C + H * C + H + C * H + C;
    expect(lay.count).toBe(V * C + 13 * C + L * perLayer + 2 * C);
    expect(paramCount(cfg)).toBe(lay.count);
    expect(lay.total % VIEW_ALIGN).toBe(0);
    let end = 0;
    for (const s of lay.specs) {
      expect(s.offset % VIEW_ALIGN).toBe(0);
      expect(s.offset).toBeGreaterThanOrEqual(end);
      end = s.offset + s.size;
    }
    expect(lay.specs.map((s) => s.name).slice(0, 4)).toEqual(['wte', 'wpe', 'h0.ln1w', 'h0.ln1b']);
    expect(lay.byName.get('h1.fcprojw')!.shape).toEqual([C, H]);
    expect(paramLayout({ ...cfg, pos: 'rope' }).byName.has('wpe')).toBe(false);
  });

  it('initialises deterministically with GPT-2 scales', () => {
    const cfg = makeGPTConfig({ vocabSize: 40, nEmbd: 64, nLayer: 4, nHead: 4, seed: 7 });
    const lay = paramLayout(cfg);
    const a = initParams(cfg, lay);
    const same = (x: Float32Array, y: Float32Array): boolean => x.every((v, i) => v === y[i]);
    expect(same(initParams(cfg, lay), a)).toBe(true);
    expect(same(initParams({ ...cfg, seed: 8 }, lay), a)).toBe(false);
    const std = (name: string): number => {
      const s = lay.byName.get(name)!;
      const x = a.subarray(s.offset, s.offset + s.size);
      return Math.sqrt(x.reduce((acc, v) => acc + v * v, 0) / x.length);
    };
    expect(std('h0.fcw')).toBeCloseTo(0.02, 3);
    expect(std('h2.fcprojw')).toBeCloseTo(0.02 / Math.sqrt(8), 3);
    const ln = lay.byName.get('h1.ln2w')!;
    expect([...a.subarray(ln.offset, ln.offset + ln.size)].every((v) => v === 1)).toBe(true);
    const b = lay.byName.get('h1.qkvb')!;
    expect([...a.subarray(b.offset, b.offset + b.size)].every((v) => v === 0)).toBe(true);
    // padding between tensors stays zero
    const wte = lay.byName.get('wte')!;
    expect([...a.subarray(wte.offset + wte.size, lay.specs[1].offset)].every((v) => v === 0)).toBe(true);
  });
});
