// Store slice of "Keep and share": what a link's broken parameters were (the notice), why an imported file
// was refused, which imported run is on screen, and the name exports carry. Plain data only.
import type { StateCreator } from 'zustand';
import type { ExperimentConfig } from '../rl/config';

/** A run read from a file, as shown (its records and settings are in the other slices). */
export interface ImportedRun {
  /** The metrics' runId while the imported records are the ones shown. */
  runId: number;
  /** The run's name (user text: render as text only). */
  name: string;
  step: number;
  savedAt: string;
  /** The file it came from. */
  file: string;
  /** The config the run ran (exporting it again writes this one). */
  config: ExperimentConfig;
}

export interface ShareSlice {
  /** Link parameters that were ignored, one line each ("steps=-5 (must be ...)"); empty when none. */
  urlNotice: string[];
  /** The last refused import: the file and every problem found (null when none to show). */
  importError: { file: string; errors: string[] } | null;
  /** The imported run on screen (null when none, or after a new run started). */
  imported: ImportedRun | null;
  /** Name exports carry ('' = one made from the settings). */
  runName: string;
  setUrlNotice(items: string[]): void;
  dismissUrlNotice(): void;
  setImportError(e: { file: string; errors: string[] } | null): void;
  setImported(run: ImportedRun | null): void;
  setRunName(name: string): void;
}

export const createShareSlice: StateCreator<ShareSlice, [], [], ShareSlice> = (set) => ({
  urlNotice: [],
  importError: null,
  imported: null,
  runName: '',
  setUrlNotice: (urlNotice) => set({ urlNotice: [...urlNotice] }),
  dismissUrlNotice: () => set({ urlNotice: [] }),
  setImportError: (importError) => set({ importError }),
  setImported: (imported) => set({ imported }),
  setRunName: (runName) => set({ runName }),
});
