// Backend selection: WebGPU where it works, else the wasm SIMD engine, else the CPU reference, with the
// reasons recorded (shown in the fallback banner).
import type { Backend } from './backend';
import { CpuBackend } from './cpu/cpuBackend';

export type BackendPreference = 'auto' | 'webgpu' | 'wasm' | 'cpu';

export interface SelectedBackend {
  backend: Backend;
  /** Why WebGPU is not in use ('' when it is); when the CPU reference runs, also why wasm does not. */
  fallbackReason: string;
}

async function wasmBackend(): Promise<Backend> {
  const { WasmBackend } = await import('./wasm/wasmBackend');
  return WasmBackend.create('auto'); // the relaxed-SIMD (FMA) kernels where the browser has them
}

/**
 * Create the preferred backend. 'auto' tries WebGPU, then wasm (a runtime without WebAssembly SIMD
 * falls back to the CPU reference, saying why); an explicit 'webgpu' or 'wasm' that cannot start throws.
 */
export async function selectBackend(pref: BackendPreference): Promise<SelectedBackend> {
  if (pref === 'cpu')
    return { backend: new CpuBackend(), fallbackReason: 'CPU backend chosen in the settings.' };
  if (pref === 'wasm')
    return { backend: await wasmBackend(), fallbackReason: 'WebAssembly backend chosen in the settings.' };
  let gpuWhy: string;
  try {
    const { WebGpuBackend } = await import('./webgpu/webgpuBackend');
    const backend = await WebGpuBackend.create();
    await (await import('./webgpu/autoTune')).enableAutoTune(backend); // kernel variants measured on this adapter, cached
    return { backend, fallbackReason: '' };
  } catch (e) {
    if (pref === 'webgpu') throw e;
    gpuWhy = e instanceof Error ? e.message : String(e);
  }
  const { backend, wasmWhy } = await cpuFallback();
  return {
    backend,
    fallbackReason: wasmWhy ? `${gpuWhy} The WebAssembly engine cannot run either: ${wasmWhy}.` : gpuWhy,
  };
}

/** The CPU engine of the fallback: the wasm SIMD engine, else the CPU reference with why wasm cannot run. */
export async function cpuFallback(): Promise<{ backend: Backend; wasmWhy: string }> {
  try {
    return { backend: await wasmBackend(), wasmWhy: '' };
  } catch (e) {
    return { backend: new CpuBackend(), wasmWhy: e instanceof Error ? e.message : String(e) };
  }
}
