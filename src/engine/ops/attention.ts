// Ops of causal multi-head self-attention and its key/value cache. CPU kernels: src/engine/cpu/attention.ts.
import { declareOp } from './declare';
import * as attn from '../cpu/attention';

/**
 * qkv (B,T,3C) → out (B,T,C); att (B,NH,T,T) keeps the softmax probabilities (zero above the
 * diagonal), used by backward and by the attention heatmap. Scale 1/sqrt(hs).
 */
export const attentionForward = declareOp({
  args: { out: 'f32', att: 'f32', qkv: 'f32', B: 'int', T: 'int', C: 'int', NH: 'int' },
  cpu: (a) => attn.attentionForward(a.out, a.att, a.qkv, a.B, a.T, a.C, a.NH),
});

/** dqkv += gradient of attentionForward w.r.t. qkv. */
export const attentionBackward = declareOp({
  args: { dqkv: 'f32', dout: 'f32', qkv: 'f32', att: 'f32', B: 'int', T: 'int', C: 'int', NH: 'int' },
  cpu: (a) => attn.attentionBackward(a.dqkv, a.dout, a.qkv, a.att, a.B, a.T, a.C, a.NH),
});

/** Key/value cache: kcache[b, pos0+t, :] = k part of qkv[b,t]; vcache likewise. qkv (B,T,3C); caches (B,Tmax,C). */
export const kvCacheWrite = declareOp({
  args: { kcache: 'f32', vcache: 'f32', qkv: 'f32', B: 'int', T: 'int', pos0: 'int', Tmax: 'int', C: 'int' },
  cpu: (a) => attn.kvCacheWrite(a.kcache, a.vcache, a.qkv, a.B, a.T, a.pos0, a.Tmax, a.C),
});

/**
 * Attention of T new queries (at absolute positions pos0..pos0+T-1, q part of qkv (B,T,3C))
 * over cached keys/values 0..pos0+t (causal). out (B,T,C). Call kvCacheWrite first.
 */
export const attentionCached = declareOp({
  args: {
    out: 'f32',
    qkv: 'f32',
    kcache: 'f32',
    vcache: 'f32',
    B: 'int',
    T: 'int',
    pos0: 'int',
    Tmax: 'int',
    C: 'int',
    NH: 'int',
  },
  cpu: (a) => attn.attentionCached(a.out, a.qkv, a.kcache, a.vcache, a.B, a.T, a.pos0, a.Tmax, a.C, a.NH),
});
