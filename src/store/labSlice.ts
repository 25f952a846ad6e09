// Store slice of the lab views (issue 15): chart smoothing, the runs kept for comparing (imported run
// files, copies of the current run, runs saved in this browser) and which of them are shown, and the
// notice listing why a file was refused. Plain data only; the IndexedDB and file work is in labBridge.ts.
import type { StateCreator } from 'zustand';
import type { LabRun } from '../formats/labRuns';
import type { SweepReportView } from '../formats/sweep/sweepReport';

export interface LabSlice {
  /** Exponential smoothing weight of every chart, in [0, 0.99] (0: raw lines only). */
  smoothing: number;
  setSmoothing(w: number): void;
  /** Runs kept for comparing (the current run is not among them: it is always offered). */
  labRuns: LabRun[];
  /** Ids of the runs shown on the compare charts ('current' is the current run). */
  labShown: string[];
  /** Problems of the last refused file(s), or a confirmation; null: nothing to say. */
  labNotice: { kind: 'error' | 'ok'; title: string; lines: string[] } | null;
  addLabRuns(runs: readonly LabRun[], show: boolean): void;
  removeLabRun(id: string): void;
  setLabShown(id: string, shown: boolean): void;
  setLabNotice(n: LabSlice['labNotice']): void;
  /** The opened sweep report and the cell results opened with it (as runs, by cell id). */
  sweep: { file: string; report: SweepReportView; cells: Record<string, LabRun> } | null;
  setSweep(s: LabSlice['sweep']): void;
  /** The page's grid run (gridRunner.ts): cells finished of the total, and a line of progress. */
  grid: { total: number; done: number; running: boolean; message: string } | null;
  setGrid(g: LabSlice['grid']): void;
}

const clampW = (w: number): number => (Number.isFinite(w) ? Math.min(0.99, Math.max(0, w)) : 0);

export const createLabSlice: StateCreator<LabSlice, [], [], LabSlice> = (set) => ({
  smoothing: 0,
  setSmoothing: (w) => set({ smoothing: clampW(w) }),
  labRuns: [],
  labShown: ['current'],
  labNotice: null,
  addLabRuns: (runs, show) =>
    set((s) => {
      const known = new Set(s.labRuns.map((r) => r.id));
      const fresh = runs.filter((r) => !known.has(r.id));
      const shown = show ? [...s.labShown, ...fresh.map((r) => r.id)] : s.labShown;
      return { labRuns: [...s.labRuns, ...fresh], labShown: shown };
    }),
  removeLabRun: (id) =>
    set((s) => ({
      labRuns: s.labRuns.filter((r) => r.id !== id),
      labShown: s.labShown.filter((x) => x !== id),
    })),
  setLabShown: (id, shown) =>
    set((s) => ({
      labShown: shown ? [...new Set([...s.labShown, id])] : s.labShown.filter((x) => x !== id),
    })),
  setLabNotice: (labNotice) => set({ labNotice }),
  sweep: null,
  setSweep: (sweep) => set({ sweep }),
  grid: null,
  setGrid: (grid) => set({ grid }),
});
