// Parity of the memory primitives (fill, copy, views, write/read round trip) on both backends.
import { compareArrays } from '../compare';
import { type ParityCase, pair, randn, randInt } from './parityUtil';

export const cases: ParityCase[] = [
  {
    name: 'memory: write/read, fill, copy, views (f32 and u32)',
    async run(gpu, cpu) {
      const n = 1000; // not a multiple of 64 or 256
      const data = randn(n, 11);
      const a = pair(gpu, cpu, [n], data, 'a');
      const r0 = compareArrays('write/read round trip', await gpu.read(a.gpu), data, 0, 0);
      const b = pair(gpu, cpu, [n], randn(n, 12), 'b');
      for (const [be, t] of [
        [gpu, b.gpu],
        [cpu, b.cpu],
      ] as const) {
        be.fill(be.view(t, 128, [300]), 2.5);
        be.copy(t, be.view(a.gpu === t ? a.gpu : be === gpu ? a.gpu : a.cpu, 64, [200]), 100, 600, 7);
      }
      const r1 = await b.check('fill view + copy with offsets', 0, 0);
      const ids = pair(gpu, cpu, [333], randInt(333, 5, 50), 'ids');
      gpu.fill(ids.gpu, 7);
      cpu.fill(ids.cpu, 7);
      const r2 = await ids.check('u32 fill', 0, 0);
      a.free();
      b.free();
      ids.free();
      return [r0, r1, r2];
    },
  },
];
