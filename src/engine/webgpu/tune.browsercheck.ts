// Kernel choice by measurement on the adapter at hand (e2e/tune.spec.ts): tune() measures every variant
// that can run each shape the backend met and picks the fastest (never slower than the shape rule's
// variant, with both timings), the backend then runs the chosen variant, a forced variant that cannot
// run a shape is refused naming the valid ones, and the choices round-trip through IndexedDB while a
// record of another adapter or kernel version is ignored.
import { KERNEL_VERSION, KernelChoices } from './choices';
import { tune } from './tune';
import { loadChoicesIdb, saveChoicesIdb } from './tuneCache';
import { WebGpuBackend } from './webgpuBackend';

interface CheckReport {
  ok: boolean;
  lines: string[];
  figures: Record<string, number>;
}

async function tuneCheck(): Promise<CheckReport> {
  const be = await WebGpuBackend.create();
  const lines: string[] = [];
  let ok = true;
  const expect = (cond: boolean, what: string): void => {
    ok &&= cond;
    lines.push(`${cond ? 'ok' : 'FAIL'} ${what}`);
  };
  try {
    // meet a few shapes of the default agents (and one only 'tiled' can run: C % 4 != 0)
    const shapes: [number, number, number][] = [
      [128, 24, 72],
      [320, 96, 24],
      [37, 30, 16],
    ];
    for (const [N, C, OC] of shapes) {
      const [a, w, o] = [be.alloc([N, C]), be.alloc([OC, C]), be.alloc([N, OC])];
      be.matmulForward({ out: o, inp: a, weight: w, bias: null, N, C, OC });
      for (const t of [a, w, o]) be.free(t);
    }
    const [x, y, m, r, g] = [
      be.alloc([320, 24]),
      be.alloc([320, 24]),
      be.alloc([320]),
      be.alloc([320]),
      be.alloc([24]),
    ];
    be.layernormForward({ out: y, mean: m, rstd: r, inp: x, weight: g, bias: g, N: 320, C: 24 });
    for (const t of [x, y, m, r, g]) be.free(t);
    await be.sync();
    expect(
      be.kernels.misses.size === 4,
      `4 shapes met without a choice: ${[...be.kernels.misses.keys()].join(', ')}`,
    );
    const rep = await tune(be);
    lines.push(`measured ${rep.measured.length} shapes in ${rep.ms.toFixed(0)} ms (${rep.timing})`);
    for (const c of rep.measured) {
      const times = Object.entries(c.ms)
        .map(([v, t]) => `${v} ${t === null ? 'n/a' : t.toFixed(3)}`)
        .join(', ');
      const fastest = Object.values(c.ms).every((t) => t === null || t >= c.ms[c.variant]!);
      expect(
        fastest && c.ms[c.rule] !== null,
        `${c.op} ${c.dims.join('x')}: ${times} ms -> ${c.variant} (rule ${c.rule}), the fastest measured`,
      );
      expect(
        be.kernels.pick(c.op, c.dims) === c.variant,
        `${c.op} ${c.dims.join('x')} now runs ${c.variant}`,
      );
    }
    const odd = rep.measured.find((c) => c.dims[1] === 30);
    expect(odd?.ms.blocked === null && odd.variant === 'tiled', 'C = 30: blocked cannot run, tiled chosen');
    expect(be.kernels.misses.size === 0, 'no shape left unmeasured');
    // forced variants
    be.kernels.force({ matmul: 'blocked' });
    let msg = '';
    try {
      const [a, w, o] = [be.alloc([37, 30]), be.alloc([16, 30]), be.alloc([37, 16])];
      be.matmulForward({ out: o, inp: a, weight: w, bias: null, N: 37, C: 30, OC: 16 });
    } catch (e) {
      msg = String(e);
    }
    be.kernels.force({});
    expect(/cannot run matmul .* valid here: tiled/.test(msg), `forced blocked at C = 30 refused: ${msg}`);
    // IndexedDB round trip, and records that must be ignored
    const adapter = be.info.adapter;
    const saved = await saveChoicesIdb(adapter, be.kernels.toCache(adapter));
    const back = await loadChoicesIdb(adapter);
    const k2 = new KernelChoices();
    const got = k2.load(back, adapter);
    expect(
      saved && got.taken === rep.measured.length,
      `IndexedDB round trip: ${got.taken} choices for ${adapter}`,
    );
    const other = new KernelChoices().load({ ...(back as object), adapter: 'some other gpu' }, adapter);
    expect(
      other.taken === 0 && /another|adapter/.test(other.ignored ?? ''),
      `another adapter's record ignored: ${other.ignored}`,
    );
    const old = new KernelChoices().load({ ...(back as object), kernelVersion: KERNEL_VERSION - 1 }, adapter);
    expect(
      old.taken === 0 && /kernel version/.test(old.ignored ?? ''),
      `an older kernel version's record ignored: ${old.ignored}`,
    );
    return { ok, lines, figures: { measured: rep.measured.length, tuneMs: rep.ms } };
  } finally {
    be.destroy();
  }
}

export const checks = { 'kernels:tune': tuneCheck };
