// Store slice: the Train view's run settings (their format, defaults and checks: src/formats/runSettings.ts),
// the preset catalogue read from the checkpoint manifest, and the bytes of imported checkpoints and task files.
import type { StateCreator } from 'zustand';
import { REWARD_METHODS } from '../rl/config';
import { DEFAULT_RUN_SETTINGS, type RunSettings } from '../formats/runSettings';
import type { KeptTaskFile } from '../formats/taskFileTask';
import type { RewardMethod } from '../rl/rewards';

/** One agent of a preset as the manifest lists it. */
export interface PresetAgentInfo {
  id: string;
  family: string;
  size: string;
  seed: number;
  view: string;
  params: number;
  /** Greedy accuracy on the validation slice when pretraining stopped. */
  valAccuracy: number;
  /** Its checkpoint path relative to public/ (the composer offers "shipped" only for these). */
  checkpoint?: string;
}

/** A preset of the catalogue. */
export interface PresetInfo {
  name: string;
  description: string;
  /** The task, in words. */
  task: string;
  agents: PresetAgentInfo[];
}

export interface RunConfigSlice {
  runSettings: RunSettings;
  presets: PresetInfo[];
  /** Loading the manifest: '' when fine, else the reason it failed. */
  presetsError: string;
  setRunSettings(patch: Partial<RunSettings>): void;
  toggleMethod(m: RewardMethod): void;
  setPresets(presets: PresetInfo[], error?: string): void;
  /** Bytes of checkpoint files imported into the composer, by import key (never in the URL). */
  importedCheckpoints: Record<string, Uint8Array>;
  addImportedCheckpoint(key: string, bytes: Uint8Array): void;
  /** Texts of the task files loaded in this page, by content hash (never in the URL; run files embed theirs). */
  taskFiles: Record<string, KeptTaskFile>;
  addTaskFile(hash: string, file: KeptTaskFile): void;
}

export const createRunConfigSlice: StateCreator<RunConfigSlice, [], [], RunConfigSlice> = (set) => ({
  runSettings: { ...DEFAULT_RUN_SETTINGS, methods: [...DEFAULT_RUN_SETTINGS.methods] },
  presets: [],
  presetsError: '',
  setRunSettings: (patch) => set((s) => ({ runSettings: { ...s.runSettings, ...patch } })),
  toggleMethod: (m) =>
    set((s) => {
      const has = s.runSettings.methods.includes(m);
      const methods = REWARD_METHODS.filter((x) => (x === m ? !has : s.runSettings.methods.includes(x)));
      return { runSettings: { ...s.runSettings, methods } };
    }),
  setPresets: (presets, presetsError = '') => set({ presets, presetsError }),
  importedCheckpoints: {},
  addImportedCheckpoint: (key, bytes) =>
    set((s) => ({ importedCheckpoints: { ...s.importedCheckpoints, [key]: bytes } })),
  taskFiles: {},
  addTaskFile: (hash, file) => set((s) => ({ taskFiles: { ...s.taskFiles, [hash]: file } })),
});
