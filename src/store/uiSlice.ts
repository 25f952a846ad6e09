// Store slice: which top-level view of the app is shown (mirrors the URL hash / `view=` parameter).
import type { StateCreator } from 'zustand';

/** The app's top-level views. */
export type ViewId = 'demo' | 'theory' | 'help';

export interface UiSlice {
  /** The view on screen (default: the engine demo). */
  view: ViewId;
  setView(view: ViewId): void;
}

export const createUiSlice: StateCreator<UiSlice, [], [], UiSlice> = (set) => ({
  view: 'demo',
  setView: (view) => set({ view }),
});
