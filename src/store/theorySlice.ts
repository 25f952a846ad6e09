// Store slice: the theory view's controls (K, drawn starts, tabular settings) and the tabular run's curve.
import type { StateCreator } from 'zustand';

/** A start point of the two-agent system: p(correct) of agent A and of agent B. */
export interface TheoryPoint {
  pA: number;
  pB: number;
}

/** Settings of the tabular-agent simulation (docs/method.md ("Theory")). */
export interface TabularSettings {
  /** Reward method: agents grade each other, or each grades itself. */
  method: 'co-rl' | 'ttrl';
  /** Prompts per agent (each has its own softmax over {right, wrong}). */
  prompts: number;
  /** Step size on the logit. */
  eta: number;
  /** Run seed (each agent draws from its own stream derived from it). */
  seed: number;
}

/** One recorded point of a tabular run: ODE-equivalent time and each agent's mean p(right). */
export interface TabularPoint {
  t: number;
  a: number;
  b: number;
}

/** What a tabular run was started with (compared with the current controls to flag a stale run). */
export interface TabularRunParams extends TabularSettings {
  start: TheoryPoint;
  K: number;
  /** ODE time the run covers. */
  horizon: number;
  /** Tabular steps the run takes. */
  steps: number;
}

export interface TabularRun {
  /** Increments with every run (a stale run's late chunks are ignored). */
  id: number;
  status: 'idle' | 'running' | 'done' | 'error';
  params: TabularRunParams | null;
  stepsDone: number;
  points: TabularPoint[];
  message: string;
}

/** Most trajectories kept on the portrait at once (the oldest is dropped). */
export const MAX_STARTS = 6;

export interface TheorySlice {
  /** Samples (votes) per prompt, odd. */
  theoryK: number;
  /** Drawn trajectory starts, oldest first; the last one is the "current" start. */
  theoryStarts: TheoryPoint[];
  tabularSettings: TabularSettings;
  tabularRun: TabularRun;
  setTheoryK(K: number): void;
  addTheoryStart(p: TheoryPoint): void;
  clearTheoryStarts(): void;
  setTabularSettings(s: Partial<TabularSettings>): void;
  beginTabularRun(params: TabularRunParams, first: TabularPoint): number;
  appendTabularPoints(id: number, points: TabularPoint[], stepsDone: number): void;
  finishTabularRun(id: number, status: 'done' | 'error', message?: string): void;
}

export const createTheorySlice: StateCreator<TheorySlice, [], [], TheorySlice> = (set, get) => ({
  theoryK: 7,
  theoryStarts: [{ pA: 0.3, pB: 0.8 }],
  tabularSettings: { method: 'co-rl', prompts: 200, eta: 0.05, seed: 1 },
  tabularRun: { id: 0, status: 'idle', params: null, stepsDone: 0, points: [], message: '' },
  setTheoryK: (theoryK) => set({ theoryK }),
  addTheoryStart: (p) =>
    set((s) => ({
      // a start drawn again moves to the end (becomes current) instead of being drawn twice
      theoryStarts: [...s.theoryStarts.filter((q) => q.pA !== p.pA || q.pB !== p.pB), p].slice(-MAX_STARTS),
    })),
  clearTheoryStarts: () => set((s) => ({ theoryStarts: s.theoryStarts.slice(-1) })),
  setTabularSettings: (patch) => set((s) => ({ tabularSettings: { ...s.tabularSettings, ...patch } })),
  beginTabularRun: (params, first) => {
    const id = get().tabularRun.id + 1;
    set({ tabularRun: { id, status: 'running', params, stepsDone: 0, points: [first], message: '' } });
    return id;
  },
  appendTabularPoints: (id, points, stepsDone) =>
    set((s) =>
      s.tabularRun.id !== id
        ? s
        : { tabularRun: { ...s.tabularRun, points: [...s.tabularRun.points, ...points], stepsDone } },
    ),
  finishTabularRun: (id, status, message = '') =>
    set((s) => (s.tabularRun.id !== id ? s : { tabularRun: { ...s.tabularRun, status, message } })),
});
