// Helpers for kernel parity cases: the same seeded inputs on both backends, poisoned outputs,
// and a comparison of every element (DESIGN.md "Kernels and their references, side by side").
import type { Backend } from '../backend';
import type { DType, Tensor } from '../tensor';
import { compareArrays, type CompareResult } from '../compare';
import { makeNormalStream, makeUniformStream } from '../random';

/** One parity case: runs an op on the WebGPU backend and on the CPU reference and compares. */
export interface ParityCase {
  name: string;
  run(gpu: Backend, cpu: Backend): Promise<CompareResult[]>;
}

/** The same tensor on both backends. */
export class Pair {
  constructor(
    readonly gpuBackend: Backend,
    readonly cpuBackend: Backend,
    readonly gpu: Tensor,
    readonly cpu: Tensor,
  ) {}
  /** Read both sides and compare the GPU result against the CPU reference. */
  async check(name: string, atol = 1e-4, rtol = 1e-4): Promise<CompareResult> {
    const [g, c] = await Promise.all([this.gpuBackend.read(this.gpu), this.cpuBackend.read(this.cpu)]);
    return compareArrays(name, g, c, atol, rtol);
  }
  free(): void {
    this.gpuBackend.free(this.gpu);
    this.cpuBackend.free(this.cpu);
  }
}

/** Seeded standard-normal values times `scale`. */
export function randn(n: number, seed: number, scale = 1): Float32Array {
  const r = makeNormalStream(seed);
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = r() * scale;
  return a;
}

/** Seeded integers in [0, max). */
export function randInt(n: number, seed: number, max: number): Uint32Array {
  const r = makeUniformStream(seed);
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.floor(r() * max);
  return a;
}

/** Upload the same host data to both backends. */
export function pair(
  gpu: Backend,
  cpu: Backend,
  shape: readonly number[],
  host: Float32Array | Uint32Array,
  label = 't',
): Pair {
  const dtype: DType = host instanceof Uint32Array ? 'u32' : 'f32';
  const g = gpu.alloc(shape, dtype, label);
  const c = cpu.alloc(shape, dtype, label);
  gpu.write(g, host);
  cpu.write(c, host);
  return new Pair(gpu, cpu, g, c);
}

/** Output tensors on both backends filled with NaN (f32) or 0xFFFFFFFF (u32): unwritten elements fail. */
export function poisoned(
  gpu: Backend,
  cpu: Backend,
  shape: readonly number[],
  dtype: DType = 'f32',
  label = 'out',
): Pair {
  const n = shape.reduce((a, b) => a * b, 1);
  const host = dtype === 'f32' ? new Float32Array(n).fill(NaN) : new Uint32Array(n).fill(0xffffffff);
  return pair(gpu, cpu, shape, host, label);
}
