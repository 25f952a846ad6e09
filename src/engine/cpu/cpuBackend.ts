// The CPU reference backend: tensors are typed arrays, and every op calls a literal
// transcription of its math in ./<family>.ts. It is the oracle every WGSL and wasm kernel is tested
// against, the last fallback (where neither WebGPU nor WebAssembly SIMD runs), and `--backend cpu` in Node.
import type { AdamWParams, Backend, BackendCounters, BackendInfo } from '../backend';
import type { DType, Tensor } from '../tensor';
import { checkedViewSize, checkWrite } from '../backend';
import { shapeSize } from '../../util/shape';
import * as enc from './encoder';
import * as rope from './rope';
import * as mm from './matmul';
import * as ln from './layernorm';
import * as attn from './attention';
import * as ew from './elementwise';
import * as lp from './logprob';
import * as smp from './sample';
import * as opt from './optim';

/** A CPU tensor: its data is a typed array (a subarray for views). */
export class CpuTensor implements Tensor {
  constructor(
    readonly shape: readonly number[],
    readonly dtype: DType,
    readonly label: string,
    readonly data: Float32Array | Uint32Array,
    readonly isView: boolean,
  ) {}
  get size(): number {
    return this.data.length;
  }
}

function f(t: Tensor): Float32Array {
  const d = (t as CpuTensor).data;
  if (!(d instanceof Float32Array)) throw new Error(`tensor ${t.label} is not f32`);
  return d;
}
function u(t: Tensor): Uint32Array {
  const d = (t as CpuTensor).data;
  if (!(d instanceof Uint32Array)) throw new Error(`tensor ${t.label} is not u32`);
  return d;
}
const fo = (t: Tensor | null): Float32Array | null => (t ? f(t) : null);

export class CpuBackend implements Backend {
  readonly info: BackendInfo;
  readonly counters: BackendCounters = {
    dispatches: 0,
    readbacks: 0,
    allocations: 0,
    bytesHeld: 0,
    pipelines: 0,
  };

  constructor() {
    const where =
      typeof process !== 'undefined' && process.versions?.node ? `Node ${process.versions.node}` : 'browser';
    this.info = { name: 'cpu', adapter: `JavaScript reference (${where})`, features: [] };
  }

  alloc(shape: readonly number[], dtype: DType = 'f32', label = 'tensor'): Tensor {
    const n = shapeSize(shape);
    const data = dtype === 'f32' ? new Float32Array(n) : new Uint32Array(n);
    this.counters.allocations++;
    this.counters.bytesHeld += n * 4;
    return new CpuTensor([...shape], dtype, label, data, false);
  }
  view(base: Tensor, offset: number, shape: readonly number[], label = `${base.label}.view`): Tensor {
    const n = checkedViewSize(base, offset, shape);
    const d = (base as CpuTensor).data.subarray(offset, offset + n);
    return new CpuTensor([...shape], base.dtype, label, d, true);
  }
  write(t: Tensor, data: Float32Array | Uint32Array): void {
    checkWrite(t, data);
    (t as CpuTensor).data.set(data);
  }
  async read(t: Tensor): Promise<Float32Array | Uint32Array> {
    this.counters.readbacks++;
    return (t as CpuTensor).data.slice();
  }
  async readMany(tensors: readonly Tensor[]): Promise<(Float32Array | Uint32Array)[]> {
    if (tensors.length === 0) return [];
    this.counters.readbacks++;
    return tensors.map((t) => (t as CpuTensor).data.slice());
  }
  fill(t: Tensor, value: number): void {
    (t as CpuTensor).data.fill(value);
  }
  copy(dst: Tensor, src: Tensor, n: number, dstOffset = 0, srcOffset = 0): void {
    (dst as CpuTensor).data.set((src as CpuTensor).data.subarray(srcOffset, srcOffset + n), dstOffset);
  }
  free(t: Tensor): void {
    const ct = t as CpuTensor;
    if (!ct.isView) this.counters.bytesHeld -= ct.size * 4;
  }
  async sync(): Promise<void> {}
  destroy(): void {}

  private op(): void {
    this.counters.dispatches++;
  }

  encoderForward(
    out: Tensor,
    wte: Tensor,
    wpe: Tensor | null,
    tokens: Tensor,
    B: number,
    T: number,
    C: number,
    tokStride: number,
    pos0: number,
  ): void {
    this.op();
    enc.encoderForward(f(out), f(wte), fo(wpe), u(tokens), B, T, C, tokStride, pos0);
  }
  encoderBackward(
    dwte: Tensor,
    dwpe: Tensor | null,
    dout: Tensor,
    tokens: Tensor,
    B: number,
    T: number,
    C: number,
    tokStride: number,
    pos0: number,
  ): void {
    this.op();
    enc.encoderBackward(f(dwte), fo(dwpe), f(dout), u(tokens), B, T, C, tokStride, pos0);
  }
  ropeForward(out: Tensor, inp: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void {
    this.op();
    rope.ropeForward(f(out), f(inp), B, T, C, NH, pos0);
  }
  ropeBackward(dinp: Tensor, dout: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void {
    this.op();
    rope.ropeBackward(f(dinp), f(dout), B, T, C, NH, pos0);
  }
  matmulForward(
    out: Tensor,
    inp: Tensor,
    weight: Tensor,
    bias: Tensor | null,
    N: number,
    C: number,
    OC: number,
  ): void {
    this.op();
    mm.matmulForward(f(out), f(inp), f(weight), fo(bias), N, C, OC);
  }
  matmulBackward(
    dinp: Tensor | null,
    dweight: Tensor,
    dbias: Tensor | null,
    dout: Tensor,
    inp: Tensor,
    weight: Tensor,
    N: number,
    C: number,
    OC: number,
  ): void {
    this.op();
    mm.matmulBackward(fo(dinp), f(dweight), fo(dbias), f(dout), f(inp), f(weight), N, C, OC);
  }
  layernormForward(
    out: Tensor,
    mean: Tensor,
    rstd: Tensor,
    inp: Tensor,
    weight: Tensor,
    bias: Tensor,
    N: number,
    C: number,
  ): void {
    this.op();
    ln.layernormForward(f(out), f(mean), f(rstd), f(inp), f(weight), f(bias), N, C);
  }
  layernormBackward(
    dinp: Tensor,
    dweight: Tensor,
    dbias: Tensor,
    dout: Tensor,
    inp: Tensor,
    weight: Tensor,
    mean: Tensor,
    rstd: Tensor,
    N: number,
    C: number,
  ): void {
    this.op();
    ln.layernormBackward(f(dinp), f(dweight), f(dbias), f(dout), f(inp), f(weight), f(mean), f(rstd), N, C);
  }
  attentionForward(out: Tensor, att: Tensor, qkv: Tensor, B: number, T: number, C: number, NH: number): void {
    this.op();
    attn.attentionForward(f(out), f(att), f(qkv), B, T, C, NH);
  }
  attentionBackward(
    dqkv: Tensor,
    dout: Tensor,
    qkv: Tensor,
    att: Tensor,
    B: number,
    T: number,
    C: number,
    NH: number,
  ): void {
    this.op();
    attn.attentionBackward(f(dqkv), f(dout), f(qkv), f(att), B, T, C, NH);
  }
  kvCacheWrite(
    kcache: Tensor,
    vcache: Tensor,
    qkv: Tensor,
    B: number,
    T: number,
    pos0: number,
    Tmax: number,
    C: number,
  ): void {
    this.op();
    attn.kvCacheWrite(f(kcache), f(vcache), f(qkv), B, T, pos0, Tmax, C);
  }
  attentionCached(
    out: Tensor,
    qkv: Tensor,
    kcache: Tensor,
    vcache: Tensor,
    B: number,
    T: number,
    pos0: number,
    Tmax: number,
    C: number,
    NH: number,
  ): void {
    this.op();
    attn.attentionCached(f(out), f(qkv), f(kcache), f(vcache), B, T, pos0, Tmax, C, NH);
  }
  geluForward(out: Tensor, inp: Tensor, N: number): void {
    this.op();
    ew.geluForward(f(out), f(inp), N);
  }
  geluBackward(dinp: Tensor, inp: Tensor, dout: Tensor, N: number): void {
    this.op();
    ew.geluBackward(f(dinp), f(inp), f(dout), N);
  }
  residualForward(out: Tensor, a: Tensor, b: Tensor, N: number): void {
    this.op();
    ew.residualForward(f(out), f(a), f(b), N);
  }
  residualBackward(da: Tensor, db: Tensor, dout: Tensor, N: number): void {
    this.op();
    ew.residualBackward(f(da), f(db), f(dout), N);
  }
  logprobForward(
    logp: Tensor | null,
    entropy: Tensor | null,
    certainty: Tensor | null,
    logits: Tensor,
    targets: Tensor,
    N: number,
    V: number,
    temperature: number,
  ): void {
    this.op();
    lp.logprobForward(fo(logp), fo(entropy), fo(certainty), f(logits), u(targets), N, V, temperature);
  }
  logprobBackward(
    dlogits: Tensor,
    logits: Tensor,
    targets: Tensor,
    weights: Tensor,
    N: number,
    V: number,
    temperature: number,
  ): void {
    this.op();
    lp.logprobBackward(f(dlogits), f(logits), u(targets), f(weights), N, V, temperature);
  }
  crossEntropyForward(losses: Tensor, logits: Tensor, targets: Tensor, N: number, V: number): void {
    this.op();
    lp.crossEntropyForward(f(losses), f(logits), u(targets), N, V);
  }
  crossEntropyBackward(
    dlogits: Tensor,
    logits: Tensor,
    targets: Tensor,
    dlosses: Tensor,
    N: number,
    V: number,
  ): void {
    this.op();
    lp.crossEntropyBackward(f(dlogits), f(logits), u(targets), f(dlosses), N, V);
  }
  sampleTokens(
    out: Tensor,
    logits: Tensor,
    rows: number,
    V: number,
    temperature: number,
    seed: number,
    counter: number,
    outStride: number,
    outOffset: number,
    logp: Tensor | null = null,
    logpOffset = 0,
  ): void {
    this.op();
    smp.sampleTokens(
      u(out),
      f(logits),
      rows,
      V,
      temperature,
      seed,
      counter,
      outStride,
      outOffset,
      fo(logp),
      logpOffset,
    );
  }
  sumSquares(out: Tensor, inp: Tensor, N: number): void {
    this.op();
    opt.sumSquares(f(out), f(inp), N);
  }
  adamw(
    params: Tensor,
    grads: Tensor,
    m: Tensor,
    v: Tensor,
    normSq: Tensor | null,
    maxNorm: number,
    N: number,
    hp: AdamWParams,
  ): void {
    this.op();
    opt.adamw(f(params), f(grads), f(m), f(v), fo(normSq), maxNorm, N, hp);
  }
}
