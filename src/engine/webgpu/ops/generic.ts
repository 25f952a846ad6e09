// The WebGPU kernels of the ops whose declaration names a one-thread-per-element WGSL entry (`gpu` in
// src/engine/ops/): no wrapper per op, the declaration says how to bind and dispatch it.
import { opDecl, OP_NAMES } from '../../ops/table';
import { isTensorKind } from '../../ops/declare';
import type { OpImpls } from '../../ops/run';
import type { Tensor } from '../../tensor';
import { F, U, defineKernel, type GpuContext, type Kernel, type Param } from '../context';
import common from '../../../../shaders/common.wgsl?raw';
import elementwise from '../../../../shaders/elementwise.wgsl?raw';

const SHADERS = { elementwise: common + elementwise };
const WG = 256;

interface Generic {
  kernel: Kernel;
  tensors: string[];
  numbers: [string, 'u' | 'f'][];
  threads: string;
}

/** Every generic op's kernel, defined when this module loads (so prepare() compiles them). */
const GENERIC = new Map<string, Generic>();
for (const name of OP_NAMES) {
  const d = opDecl(name);
  if (!d.gpu) continue;
  const spec = Object.entries(d.args);
  const bad = spec.find(([, k]) => k !== 'f32' && k !== 'u32' && k !== 'int' && k !== 'float');
  if (bad)
    throw new Error(
      `op ${name}: argument ${bad[0]} (${bad[1]}) cannot bind to a generic WGSL entry; write a wrapper`,
    );
  GENERIC.set(name, {
    kernel: defineKernel({ label: d.gpu.shader, code: SHADERS[d.gpu.shader], entry: d.gpu.entry }),
    tensors: spec.filter(([, k]) => isTensorKind(k)).map(([key]) => key),
    numbers: spec.filter(([, k]) => !isTensorKind(k)).map(([key, k]) => [key, k === 'float' ? 'f' : 'u']),
    threads: d.gpu.threads,
  });
}

/** The generic ops, dispatched on `ctx`. */
export function genericOps(ctx: GpuContext): OpImpls {
  const impls: Record<string, (a: Record<string, unknown>) => void> = {};
  for (const [name, g] of GENERIC) {
    impls[name] = (a) => {
      const n = a[g.threads] as number;
      if (n <= 0) return;
      const params: Param[] = g.numbers.map(([key, t]) => (t === 'f' ? F : U)(a[key] as number));
      ctx.run(
        g.kernel,
        g.tensors.map((key) => a[key] as Tensor),
        params,
        ctx.grid(n, WG),
      );
    };
  }
  return impls as OpImpls;
}
