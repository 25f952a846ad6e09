// Kernel choice by measurement in the app (issue 13): the backend takes the choices cached for its
// adapter in IndexedDB, and after each readback (from the second on) measures the shapes it met without
// a choice, within a small wall-time budget per readback and per backend, only variants whose pipelines
// are already compiled (the others compile in the background and are measured at a later readback),
// then stores the choices. Until a shape is measured it runs the shape rule's variant.
import { tune } from './tune';
import { loadChoicesIdb, saveChoicesIdb } from './tuneCache';
import type { WebGpuBackend } from './webgpuBackend';

/** Budgets of the app's measurement (wall ms). */
export interface AutoTuneOpts {
  /** Per readback. */
  perReadMs: number;
  /** In all, for this backend. */
  totalMs: number;
}

export const AUTO_TUNE_DEFAULTS: AutoTuneOpts = { perReadMs: 150, totalMs: 600 };

/** What autoTune has done so far (for the UI and tests). */
export interface AutoTuneState {
  fromCache: number;
  cacheIgnored: string | null;
  measured: number;
  spentMs: number;
}

/** Load the cached choices and measure the rest after readbacks (see the file comment). */
export async function enableAutoTune(
  be: WebGpuBackend,
  o: AutoTuneOpts = AUTO_TUNE_DEFAULTS,
): Promise<AutoTuneState> {
  const adapter = be.info.adapter;
  const rec = await loadChoicesIdb(adapter);
  const loaded = rec ? be.kernels.load(rec, adapter) : { taken: 0, ignored: null };
  const state: AutoTuneState = {
    fromCache: loaded.taken,
    cacheIgnored: loaded.ignored,
    measured: 0,
    spentMs: 0,
  };
  const readMany = be.readMany.bind(be);
  let reads = 0;
  let busy = false;
  be.readMany = async (tensors) => {
    const out = await readMany(tensors);
    reads++;
    const left = o.totalMs - state.spentMs;
    if (busy || reads < 2 || left <= 0 || be.kernels.misses.size === 0) return out;
    busy = true;
    try {
      const r = await tune(be, {
        budgetMs: Math.min(o.perReadMs, left),
        compiledOnly: true,
        reps: 2,
        samples: 1,
      });
      state.spentMs += r.ms;
      state.measured += r.measured.length;
      if (r.measured.length) void saveChoicesIdb(adapter, be.kernels.toCache(adapter));
    } finally {
      busy = false;
    }
    return out;
  };
  return state;
}
