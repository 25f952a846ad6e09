// Store slice: the supervised demo's live loss curve and status.
import type { StateCreator } from 'zustand';

export interface LossPoint {
  step: number;
  loss: number;
}

export interface DemoSlice {
  demoStatus: 'idle' | 'running' | 'done' | 'error';
  demoMessage: string;
  losses: LossPoint[];
  demoAccuracy: number | null;
  resetDemo(): void;
  addLoss(p: LossPoint): void;
  setDemoStatus(s: DemoSlice['demoStatus'], message?: string): void;
  setDemoAccuracy(a: number): void;
}

export const createDemoSlice: StateCreator<DemoSlice, [], [], DemoSlice> = (set) => ({
  demoStatus: 'idle',
  demoMessage: '',
  losses: [],
  demoAccuracy: null,
  resetDemo: () => set({ losses: [], demoStatus: 'idle', demoMessage: '', demoAccuracy: null }),
  addLoss: (p) => set((s) => ({ losses: [...s.losses, p] })),
  setDemoStatus: (demoStatus, demoMessage = '') => set({ demoStatus, demoMessage }),
  setDemoAccuracy: (demoAccuracy) => set({ demoAccuracy }),
});
