// Backend selection: WebGPU where it works, else the CPU reference with the reason recorded.
import type { Backend } from './backend';
import { CpuBackend } from './cpu/cpuBackend';

export type BackendPreference = 'auto' | 'webgpu' | 'cpu';

export interface SelectedBackend {
  backend: Backend;
  /** Why WebGPU is not in use ('' when it is). */
  fallbackReason: string;
}

/** Create the preferred backend; 'auto' falls back to CPU with the WebGPU error as the reason. */
export async function selectBackend(pref: BackendPreference): Promise<SelectedBackend> {
  if (pref === 'cpu') return { backend: new CpuBackend(), fallbackReason: 'CPU backend chosen in the settings.' };
  try {
    const { WebGpuBackend } = await import('./webgpu/webgpuBackend');
    const backend = await WebGpuBackend.create();
    await (await import('./webgpu/autoTune')).enableAutoTune(backend); // kernel variants measured on this adapter, cached
    return { backend, fallbackReason: '' };
  } catch (e) {
    if (pref === 'webgpu') throw e;
    return { backend: new CpuBackend(), fallbackReason: e instanceof Error ? e.message : String(e) };
  }
}
