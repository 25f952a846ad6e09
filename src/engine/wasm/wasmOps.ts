// The wasm backend's ops: an op runs its SIMD kernel when the module exports a function of the op's name,
// called with the op's arguments in the declared order (tensors as byte offsets, 0 for null; numbers as
// they are), unless one of the ops below says how (a kernel variant, scratch memory, a composition of
// kernels); an op with neither runs its CPU kernel over views of wasm memory, counted per op in
// `cpuFallbacks` (src/engine/ops/run.ts).
import type { Tensor } from '../tensor';
import { opDecl, OP_NAMES, type OpName } from '../ops/table';
import { isTensorKind } from '../ops/declare';
import type { OpImpls } from '../ops/run';
import type { Kernels } from './kernels';
import type { WasmHeap, WasmTensor } from './wasmHeap';

const p = (t: Tensor | null | undefined): number => (t ? (t as WasmTensor).ptr : 0);

/** What the hand-written ops need of their backend. */
export interface WasmOpHost {
  readonly k: Kernels;
  readonly h: WasmHeap;
  /** Matmul forward kernel (WasmBackend.matmulForwardVariant). */
  readonly matmulForwardVariant: 'auto' | 'dot' | 'broadcast';
}

/** The ops whose kernel call is more than their arguments in order. */
export function handWritten(w: WasmOpHost): OpImpls {
  const { k, h } = w;
  return {
    matmulForward: (a) => {
      const v = w.matmulForwardVariant;
      if (v === 'broadcast' || (v === 'auto' && a.N >= 8)) {
        const wT = h.wtPtr(a.C * a.OC);
        k.packPanels(wT, p(a.weight), a.OC, a.C);
        k.matmulForwardT(p(a.out), p(a.inp), wT, p(a.weight), p(a.bias), a.N, a.C, a.OC);
      } else k.matmulForward(p(a.out), p(a.inp), p(a.weight), p(a.bias), a.N, a.C, a.OC);
    },
    matmulBackward: (a) => {
      // dinp[n,:] += sum_o dout[n,o] weight[o,:]; dweight[o,:] += sum_n dout[n,o] inp[n,:]
      if (a.dinp) k.addRowCombination(p(a.dinp), p(a.dout), a.OC, 1, p(a.weight), a.N, a.OC, a.C);
      k.addRowCombination(p(a.dweight), p(a.dout), 1, a.OC, p(a.inp), a.OC, a.N, a.C);
      if (a.dbias) k.biasBackward(p(a.dbias), p(a.dout), a.N, a.OC);
    },
    attentionBackward: (a) => {
      const s = h.scratchPtr(a.T);
      k.attentionBackward(p(a.dqkv), p(a.dout), p(a.qkv), p(a.att), a.B, a.T, a.C, a.NH, s);
    },
    attentionCached: (a) => {
      const s = h.scratchPtr(a.pos0 + a.T);
      k.attentionCached(p(a.out), p(a.qkv), p(a.kcache), p(a.vcache), a.B, a.T, a.pos0, a.Tmax, a.C, a.NH, s);
    },
    kvCacheWrite: (a) => {
      // the reference's copy loop (src/engine/cpu/attention.ts kvCacheWrite) as row copies within memory
      const m = h.mem.f32;
      const [kc, vc, q, C] = [p(a.kcache) >>> 2, p(a.vcache) >>> 2, p(a.qkv) >>> 2, a.C];
      for (let b = 0; b < a.B; b++) {
        for (let t = 0; t < a.T; t++) {
          const src = q + (b * a.T + t) * 3 * C;
          const dst = (b * a.Tmax + a.pos0 + t) * C;
          m.copyWithin(kc + dst, src + C, src + 2 * C);
          m.copyWithin(vc + dst, src + 2 * C, src + 3 * C);
        }
      }
    },
    adamw: (a) => {
      const { hp } = a;
      const scale = a.normSq ? Math.min(1, a.maxNorm / (Math.sqrt(h.f(a.normSq)[0]) + 1e-6)) : 1;
      const bc1 = 1 - Math.pow(hp.beta1, hp.step);
      const bc2 = 1 - Math.pow(hp.beta2, hp.step);
      k.adamw(p(a.params), p(a.grads), p(a.m), p(a.v), a.N, scale, hp.lr, hp.beta1, hp.beta2, hp.eps, hp.weightDecay, bc1, bc2);
    },
  };
}

/** The table's ops the module exports by name (not hand-written), each called with its arguments in order. */
export function directOps(exports: object, skip: OpImpls): OpImpls {
  const impls: Record<string, (a: Record<string, unknown>) => void> = {};
  for (const name of OP_NAMES) {
    const fn = (exports as Record<string, unknown>)[name];
    if (typeof fn !== 'function' || skip[name]) continue;
    const spec = Object.entries(opDecl(name).args);
    const bad = spec.find(([, kind]) => kind === 'adamw');
    if (bad) throw new Error(`wasm export ${name}: argument ${bad[0]} is an object; write the op in wasmOps.ts`);
    const call = fn as (...x: number[]) => void;
    const keys = spec.map(([key]) => key);
    const tensor = spec.map(([, kind]) => isTensorKind(kind));
    impls[name] = (a) => call(...keys.map((key, i) => (tensor[i] ? p(a[key] as Tensor | null) : ((a[key] as number) ?? 0))));
  }
  return impls as unknown as OpImpls;
}

/** Wrap each op so it counts a dispatch first. */
export function counted(impls: OpImpls, count: (name: OpName) => void): OpImpls {
  const out: Record<string, (a: never) => void> = {};
  for (const [name, f] of Object.entries(impls) as [OpName, (a: never) => void][])
    out[name] = (a) => {
      count(name);
      f(a);
    };
  return out as OpImpls;
}
