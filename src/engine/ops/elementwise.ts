// Elementwise ops (llm.c gelu_forward/backward, residual_forward/backward). CPU kernels: src/engine/cpu/elementwise.ts;
// WGSL: shaders/elementwise.wgsl; wasm: wasm/elementwise.ts (exports of the ops' names).
import { declareOp } from './declare';
import * as ew from '../cpu/elementwise';

/** out = GELU(inp), tanh approximation (GPT-2). */
export const geluForward = declareOp({
  args: { out: 'f32', inp: 'f32', N: 'int' },
  cpu: (a) => ew.geluForward(a.out, a.inp, a.N),
  gpu: { shader: 'elementwise', entry: 'gelu_forward', threads: 'N' },
});

/** dinp += GELU'(inp) * dout. */
export const geluBackward = declareOp({
  args: { dinp: 'f32', inp: 'f32', dout: 'f32', N: 'int' },
  cpu: (a) => ew.geluBackward(a.dinp, a.inp, a.dout, a.N),
  gpu: { shader: 'elementwise', entry: 'gelu_backward', threads: 'N' },
});

/** out = a + b. */
export const residualForward = declareOp({
  args: { out: 'f32', a: 'f32', b: 'f32', N: 'int' },
  cpu: (x) => ew.residualForward(x.out, x.a, x.b, x.N),
  gpu: { shader: 'elementwise', entry: 'residual_forward', threads: 'N' },
});

/** da += dout; db += dout. */
export const residualBackward = declareOp({
  args: { da: 'f32', db: 'f32', dout: 'f32', N: 'int' },
  cpu: (a) => ew.residualBackward(a.da, a.db, a.dout, a.N),
  gpu: { shader: 'elementwise', entry: 'residual_backward', threads: 'N' },
});
