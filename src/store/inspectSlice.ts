// Store slice of the inspector: whether its panel is open, what it shows (method, prompt, the completion
// and block whose attention is drawn), the latest step's inspection and the attention the worker sent.
// Plain data only; src/store/inspectBridge.ts fills it, src/app/train/Inspector.tsx reads it.
import type { StateCreator } from 'zustand';
import type { StepInspection } from '../rl/inspection';
import type { RewardMethod } from '../rl/rewards';

/** The attention of one prompt + completion through one block (every head), as the worker sent it. */
export interface AttentionData {
  runId: number;
  method: RewardMethod;
  agent: string;
  prompt: number;
  sample: number;
  layer: number;
  /** The step whose completion it is (the model is the agent's after that step). */
  step: number;
  tokens: string[];
  promptTokens: number;
  heads: number;
  /** (heads, T, T) row-major. */
  probs: number[];
}

/** What the inspector shows; indices are 0-based. */
export interface InspectSelection {
  /** null: the run's first method. */
  method: RewardMethod | null;
  /** Index in the step's batch; -1: the first listed (a prompt where the votes differ, if any). */
  prompt: number;
  /** The completion whose attention is drawn: agent id (null: the first agent), sample, block, head. */
  agent: string | null;
  sample: number;
  layer: number;
  head: number;
}

export interface InspectState {
  open: boolean;
  sel: InspectSelection;
  /** The latest inspection received for sel.method (null: none yet). */
  inspection: StepInspection | null;
  /** The run the inspection belongs to. */
  runId: number;
  attention: AttentionData | null;
  /** The last error the worker gave for a request ('' = none). */
  error: string;
}

export interface InspectSlice {
  inspect: InspectState;
  setInspect(patch: Partial<InspectState>): void;
  /** Change the selection (a new method drops the inspection shown; the bridge fetches it). */
  selectInspect(patch: Partial<InspectSelection>): void;
}

export const DEFAULT_SELECTION: Readonly<InspectSelection> = {
  method: null,
  prompt: -1,
  agent: null,
  sample: 0,
  layer: 0,
  head: 0,
};

export const createInspectSlice: StateCreator<InspectSlice, [], [], InspectSlice> = (set) => ({
  inspect: {
    open: false,
    sel: { ...DEFAULT_SELECTION },
    inspection: null,
    runId: 0,
    attention: null,
    error: '',
  },
  setInspect: (patch) => set((s) => ({ inspect: { ...s.inspect, ...patch } })),
  selectInspect: (patch) =>
    set((s) => {
      const sel = { ...s.inspect.sel, ...patch };
      const methodChanged = patch.method !== undefined && patch.method !== s.inspect.sel.method;
      return {
        inspect: {
          ...s.inspect,
          sel,
          error: '',
          ...(methodChanged ? { inspection: null, attention: null } : {}),
        },
      };
    }),
});
