// Parity of the batched readback (Backend.readMany) on both backends: several tensors of both dtypes,
// views at offsets and odd sizes come back in one readback with exactly their values, in order.
import { compareArrays } from '../compare';
import { type ParityCase, pair, randn, randInt } from './parityUtil';

export const cases: ParityCase[] = [
  {
    name: 'memory: readMany returns every tensor in one readback',
    async run(gpu, cpu) {
      const a = pair(gpu, cpu, [1000], randn(1000, 21), 'a');
      const ids = pair(gpu, cpu, [333], randInt(333, 22, 1 << 30), 'ids');
      const one = pair(gpu, cpu, [1], randn(1, 23), 'one');
      const out = [];
      for (const [be, x, y, z] of [
        [gpu, a.gpu, ids.gpu, one.gpu],
        [cpu, a.cpu, ids.cpu, one.cpu],
      ] as const) {
        be.fill(be.view(x, 128, [50]), -3); // queued work before the read must land
        const before = be.counters.readbacks;
        const got = await be.readMany([x, y, be.view(x, 64, [7]), z, be.view(y, 320, [13])]);
        out.push({ got, reads: be.counters.readbacks - before });
      }
      const [g, c] = out;
      const res = [
        compareArrays(
          `readbacks per readMany: webgpu ${g.reads}, cpu ${c.reads} (expected 1)`,
          [g.reads, c.reads],
          [1, 1],
          0,
          0,
        ),
        compareArrays(
          'readMany: dtypes (1 = Float32Array for f32, Uint32Array for u32)',
          g.got.map((x, i) => (x instanceof (i === 1 || i === 4 ? Uint32Array : Float32Array) ? 1 : 0)),
          [1, 1, 1, 1, 1],
          0,
          0,
        ),
        ...g.got.map((x, i) => compareArrays(`readMany tensor ${i} (${x.length} values)`, x, c.got[i], 0, 0)),
      ];
      for (const p of [a, ids, one]) p.free();
      return res;
    },
  },
];
