// Faults the training worker handled (docs/architecture-runtime.md "Faults"): a lost GPU device is logged as a
// console warning (it is expected and recovered from, not an error), and in a dev build the test hook
// window.__corl.loseDevice() asks the worker to destroy its WebGPU device (e2e/guard.spec.ts), and
// window.__corl.fakeAdapter(name, gpuRate, cpuRate) gives backend 'auto' a fake hardware adapter (e2e/autoHardware.spec.ts),
// window.__corl.killModelWorker() stops a model worker of the pool (e2e/poolKill.spec.ts).
import { onTrainEvents, sendTrainCommand } from './trainBridge';

let installed = false;

/** Install once: the warning on a lost device, and (dev builds only) window.__corl.loseDevice(). */
export function installGuard(): void {
  if (installed) return;
  installed = true;
  onTrainEvents((events) => {
    for (const e of events)
      if (e.type === 'fault' && e.kind === 'deviceLost') console.warn(`[co-rl] ${e.message}`);
  });
  if (import.meta.env.DEV && typeof window !== 'undefined') {
    const w = window as unknown as { __corl?: Record<string, unknown> };
    w.__corl = {
      ...(w.__corl ?? {}),
      loseDevice: () => sendTrainCommand({ type: 'debugLoseDevice' }),
      // stop one model worker of the pool mid-run (e2e/poolKill.spec.ts)
      killModelWorker: () => sendTrainCommand({ type: 'debugKillModelWorker' }),
      // backend 'auto' on a fake hardware adapter with these measured rates (src/worker/fakeAdapter.ts)
      fakeAdapter: (adapter: string, gpuRate: number, cpuRate: number) =>
        sendTrainCommand({ type: 'debugFakeAdapter', adapter, gpuRate, cpuRate }),
    };
  }
}
