// Store slice: which compute backend the worker runs on, and why (adapter or fallback reason).
import type { StateCreator } from 'zustand';

export interface EngineSlice {
  /** 'pending' until the worker reports. */
  backend: 'pending' | 'webgpu' | 'wasm' | 'cpu';
  adapter: string;
  /** Why WebGPU is not used (empty when it is). */
  fallbackReason: string;
  /** How backend 'auto' decided after measuring a software adapter ('' when it did not measure). */
  engineNote: string;
  setEngine(backend: 'webgpu' | 'wasm' | 'cpu', adapter: string, fallbackReason: string, note?: string): void;
}

export const createEngineSlice: StateCreator<EngineSlice, [], [], EngineSlice> = (set) => ({
  backend: 'pending',
  adapter: '',
  fallbackReason: '',
  engineNote: '',
  setEngine: (backend, adapter, fallbackReason, engineNote = '') =>
    set({ backend, adapter, fallbackReason, engineNote }),
});
