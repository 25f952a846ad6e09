// The app's zustand store, combined from slices (zustand "slices pattern"). Holds plain data only:
// numbers, strings, configs — never GPU objects. Actions are callable outside React.
import { create } from 'zustand';
import { createEngineSlice, type EngineSlice } from './engineSlice';
import { createDemoSlice, type DemoSlice } from './demoSlice';

export type AppState = EngineSlice & DemoSlice;

export const useStore = create<AppState>()((...a) => ({
  ...createEngineSlice(...a),
  ...createDemoSlice(...a),
}));
