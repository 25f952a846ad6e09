// Ops of the matmul and the layer norm. CPU kernels: src/engine/cpu/matmul.ts, cpu/layernorm.ts.
import { declareOp } from './declare';
import * as mm from '../cpu/matmul';
import * as ln from '../cpu/layernorm';

/** out[n,o] = (bias ? bias[o] : 0) + sum_c inp[n,c] * weight[o,c]. out (N,OC); inp (N,C); weight (OC,C). */
export const matmulForward = declareOp({
  args: { out: 'f32', inp: 'f32', weight: 'f32', bias: 'f32|null', N: 'int', C: 'int', OC: 'int' },
  cpu: (a) => mm.matmulForward(a.out, a.inp, a.weight, a.bias, a.N, a.C, a.OC),
});

/** dinp += dout @ weight (skipped if null); dweight += dout^T @ inp; dbias += sum_n dout (if bias). */
export const matmulBackward = declareOp({
  args: {
    dinp: 'f32|null',
    dweight: 'f32',
    dbias: 'f32|null',
    dout: 'f32',
    inp: 'f32',
    weight: 'f32',
    N: 'int',
    C: 'int',
    OC: 'int',
  },
  cpu: (a) => mm.matmulBackward(a.dinp, a.dweight, a.dbias, a.dout, a.inp, a.weight, a.N, a.C, a.OC),
});

/** out = (inp - mean) * rstd * weight + bias per row; saves mean (N) and rstd (N). eps = 1e-5. */
export const layernormForward = declareOp({
  args: { out: 'f32', mean: 'f32', rstd: 'f32', inp: 'f32', weight: 'f32', bias: 'f32', N: 'int', C: 'int' },
  cpu: (a) => ln.layernormForward(a.out, a.mean, a.rstd, a.inp, a.weight, a.bias, a.N, a.C),
});

/** dinp, dweight, dbias += the gradients of layernormForward (with its saved mean and rstd). */
export const layernormBackward = declareOp({
  args: {
    dinp: 'f32',
    dweight: 'f32',
    dbias: 'f32',
    dout: 'f32',
    inp: 'f32',
    weight: 'f32',
    mean: 'f32',
    rstd: 'f32',
    N: 'int',
    C: 'int',
  },
  cpu: (a) =>
    ln.layernormBackward(a.dinp, a.dweight, a.dbias, a.dout, a.inp, a.weight, a.mean, a.rstd, a.N, a.C),
});
