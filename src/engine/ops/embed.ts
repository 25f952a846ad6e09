// Ops of the embedding and the rotary positions. CPU kernels: src/engine/cpu/encoder.ts, cpu/rope.ts.
import { declareOp } from './declare';
import * as enc from '../cpu/encoder';
import * as rope from '../cpu/rope';

/** The token ids and sizes both encoder ops index by (the last arguments, in this order). */
const byToken = { tokens: 'u32', B: 'int', T: 'int', C: 'int', tokStride: 'int', pos0: 'int' } as const;

/**
 * out[b,t,:] = wte[tok] + (wpe ? wpe[pos0+t] : 0), tok = tokens[b*tokStride + pos0 + t].
 * out (B,T,C); wte (V,C); wpe (maxT,C) or null (rotary positions); tokens u32 (B,tokStride).
 */
export const encoderForward = declareOp({
  args: {
    out: 'f32',
    wte: 'f32',
    wpe: 'f32|null',
    ...byToken,
  },
  cpu: (a) => enc.encoderForward(a.out, a.wte, a.wpe, a.tokens, a.B, a.T, a.C, a.tokStride, a.pos0),
});

/** dwte[tok] += dout[b,t]; dwpe[pos0+t] += dout[b,t] (if dwpe). Same indexing as forward. */
export const encoderBackward = declareOp({
  args: {
    dwte: 'f32',
    dwpe: 'f32|null',
    dout: 'f32',
    ...byToken,
  },
  cpu: (a) => enc.encoderBackward(a.dwte, a.dwpe, a.dout, a.tokens, a.B, a.T, a.C, a.tokStride, a.pos0),
});

/**
 * out = rope(inp): inp/out (B,T,3C) laid out [q | k | v], heads of size hs = C/NH.
 * Within each head, pairs (2i, 2i+1) of q and k rotate by angle (pos0+t) * 10000^(-2i/hs);
 * v is copied unchanged.
 */
export const ropeForward = declareOp({
  args: { out: 'f32', inp: 'f32', B: 'int', T: 'int', C: 'int', NH: 'int', pos0: 'int' },
  cpu: (a) => rope.ropeForward(a.out, a.inp, a.B, a.T, a.C, a.NH, a.pos0),
});

/** dinp += rope^T(dout) (the inverse rotation on q and k; identity on v). */
export const ropeBackward = declareOp({
  args: { dinp: 'f32', dout: 'f32', B: 'int', T: 'int', C: 'int', NH: 'int', pos0: 'int' },
  cpu: (a) => rope.ropeBackward(a.dinp, a.dout, a.B, a.T, a.C, a.NH, a.pos0),
});
