// The CPU reference backend: tensors are typed arrays, and every op runs its declared CPU kernel (the op
// table, src/engine/ops/), a literal transcription of its math in ./<family>.ts. It is the oracle every WGSL
// and wasm kernel is tested against, the last fallback (where neither WebGPU nor WebAssembly SIMD runs), and
// `--backend cpu` in Node.
import type { Backend, BackendCounters, BackendInfo } from '../backend';
import type { DType, Tensor } from '../tensor';
import { checkedViewSize, checkWrite } from '../backend';
import { shapeSize } from '../../util/shape';
import { OpBackend, cpuOps, installOps } from '../ops/run';

/** A CPU tensor: its data is a typed array (a subarray for views). */
export class CpuTensor implements Tensor {
  /** Set by free (its array then serves a later alloc of the same size). */
  freed = false;
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

export class CpuBackend extends OpBackend implements Backend {
  readonly info: BackendInfo;
  readonly counters: BackendCounters = {
    dispatches: 0,
    readbacks: 0,
    allocations: 0,
    bytesHeld: 0,
    pipelines: 0,
  };

  constructor() {
    super();
    installOps(
      this,
      cpuOps({ f, u }, () => this.counters.dispatches++),
      'the CPU backend',
    );
    const where =
      typeof process !== 'undefined' && process.versions?.node ? `Node ${process.versions.node}` : 'browser';
    this.info = { name: 'cpu', adapter: `JavaScript reference (${where})`, features: [] };
  }

  /** Freed arrays by dtype and length, reused (zeroed) by the next alloc of that size: a steady loop that
   * frees and allocates the same buffers every step (activations handed between models) allocates nothing. */
  private readonly pool = new Map<string, (Float32Array | Uint32Array)[]>();

  alloc(shape: readonly number[], dtype: DType = 'f32', label = 'tensor'): Tensor {
    const n = shapeSize(shape);
    let data = this.pool.get(`${dtype}:${n}`)?.pop();
    if (data) data.fill(0);
    else {
      data = dtype === 'f32' ? new Float32Array(n) : new Uint32Array(n);
      this.counters.allocations++;
    }
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
    if (ct.isView || ct.freed) return;
    ct.freed = true;
    this.counters.bytesHeld -= ct.size * 4;
    const key = `${ct.dtype}:${ct.size}`;
    const list = this.pool.get(key);
    if (list) list.push(ct.data);
    else this.pool.set(key, [ct.data]);
  }
  async sync(): Promise<void> {}
  destroy(): void {
    this.pool.clear();
  }
}
