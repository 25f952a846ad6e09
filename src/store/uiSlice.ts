// Store slice: which top-level view of the app is shown (mirrors the URL hash / `view=` parameter).
import type { StateCreator } from 'zustand';

/** The app's top-level views. */
export type ViewId = 'demo' | 'train' | 'compare' | 'sweep' | 'theory' | 'help';

export interface UiSlice {
  /** The view on screen (default: the training playground). */
  view: ViewId;
  setView(view: ViewId): void;
}

export const createUiSlice: StateCreator<UiSlice, [], [], UiSlice> = (set) => ({
  view: 'train',
  setView: (view) => set({ view }),
});
