// Test hook (dev builds only): backend 'auto' on a fake hardware adapter. The real WebGPU backend (or the
// CPU engine, where WebGPU cannot start) is dressed as a hardware adapter named `adapter`, and auto's
// measurement returns the given rates, so a spec can drive both outcomes (a fake fast and a fake slow
// hardware GPU) through the real decision, cache and engine line (e2e/autoHardware.spec.ts). Decisions
// go to an in-memory cache of this worker, never to the page's IndexedDB.
import { selectMeasuredBackend, type AutoDecision, type AutoShape } from '../engine/autoSelect';
import type { KvStore } from '../engine/idbKv';
import { selectBackend, type BackendPreference } from '../engine/select';

export interface FakeAdapter {
  adapter: string;
  gpuRate: number;
  cpuRate: number;
}

const mem = new Map<string, unknown>();
const memCache: KvStore = {
  get: async (k) => mem.get(k) ?? null,
  set: async (k, v) => (mem.set(k, v), true),
};

export function selectWithFakeAdapter(
  fake: FakeAdapter,
  pref: BackendPreference,
  shape: AutoShape | undefined,
): Promise<AutoDecision> {
  return selectMeasuredBackend(
    pref,
    {
      select: async (p) => {
        const s = await selectBackend(p);
        if (s.backend.info.name === 'webgpu') {
          const info = { ...s.backend.info, name: 'webgpu' as const, adapter: fake.adapter, software: false };
          Object.defineProperty(s.backend, 'info', { value: info, configurable: true });
        }
        return { ...s, fallbackReason: '' };
      },
      measure: async () => [fake.gpuRate, fake.cpuRate],
      cache: memCache,
    },
    shape,
  );
}
