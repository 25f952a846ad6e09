// Store slice: saving runs in the browser (src/store/persistBridge.ts drives it) and exporting agents
// (src/store/exportBridge.ts).
// Plain data only: what was saved last, the latest save error, the resume notice, the export state.
import type { StateCreator } from 'zustand';

/** The latest successful save of this tab's run. */
export interface SaveInfo {
  /** Lock steps of the run when saved. */
  step: number;
  /** Step of the snapshot a reload resumes from (null: none yet). */
  snapshotStep: number | null;
  /** ISO time. */
  at: string;
  /** Snapshot bytes written with this save (0 when only the records were saved). */
  snapshotBytes: number;
  /** Milliseconds the transaction took. */
  ms: number;
}

export interface PersistState {
  /** IndexedDB exists in this browser. */
  available: boolean;
  /** This tab's run key in IndexedDB ('' before the bridge starts). */
  runKey: string;
  /** Whether the current run is being saved (off after "Discard saved run" until the next start). */
  autosave: boolean;
  lastSave: SaveInfo | null;
  /** The latest save that wrote snapshot bytes: the step, its size, how long the transaction took (ms)
   * and how long the worker took to read the tensors and encode them (takeMs). */
  snapshotSave: { step: number; bytes: number; ms: number; takeMs: number; at: string } | null;
  /** The latest failed save or load, in words ('' = none). Stays until dismissed. */
  error: string;
  /**
   * A run was resumed after a reload (or could not be), or (`key`: that run's key) this tab's saved run was
   * passed over for the link the tab was opened with, and can still be resumed or deleted from the notice.
   */
  notice: { step: number; savedAt: string; text: string; ok: boolean; key?: string } | null;
  /** Checkpoint export in progress / its last result in words. */
  exporting: boolean;
  exportMessage: string;
}

export interface PersistSlice {
  persist: PersistState;
  setPersist(patch: Partial<PersistState>): void;
}

export const INITIAL_PERSIST: Readonly<PersistState> = {
  available: true,
  runKey: '',
  autosave: true,
  lastSave: null,
  snapshotSave: null,
  error: '',
  notice: null,
  exporting: false,
  exportMessage: '',
};

export const createPersistSlice: StateCreator<PersistSlice, [], [], PersistSlice> = (set) => ({
  persist: { ...INITIAL_PERSIST },
  setPersist: (patch) => set((s) => ({ persist: { ...s.persist, ...patch } })),
});
