// The app's zustand store, combined from slices (zustand "slices pattern"). Holds plain data only:
// numbers, strings, configs, records — never GPU objects. Actions are callable outside React.
import { create } from 'zustand';
import { createEngineSlice, type EngineSlice } from './engineSlice';
import { createDemoSlice, type DemoSlice } from './demoSlice';
import { createUiSlice, type UiSlice } from './uiSlice';
import { createTheorySlice, type TheorySlice } from './theorySlice';
import { createRunConfigSlice, type RunConfigSlice } from './runConfigSlice';
import { createRunStatusSlice, type RunStatusSlice } from './runStatusSlice';
import { createMetricsSlice, type MetricsSlice } from './metricsSlice';
import { createInspectSlice, type InspectSlice } from './inspectSlice';
import { createShareSlice, type ShareSlice } from './shareSlice';
import { createPersistSlice, type PersistSlice } from './persistSlice';
import { createLabSlice, type LabSlice } from './labSlice';
import { createRegimeSlice, type RegimeSlice } from './regimeSlice';

export type AppState = EngineSlice &
  DemoSlice &
  UiSlice &
  TheorySlice &
  RunConfigSlice &
  RunStatusSlice &
  MetricsSlice &
  InspectSlice &
  ShareSlice &
  PersistSlice &
  LabSlice &
  RegimeSlice;

export const useStore = create<AppState>()((...a) => ({
  ...createEngineSlice(...a),
  ...createDemoSlice(...a),
  ...createUiSlice(...a),
  ...createTheorySlice(...a),
  ...createRunConfigSlice(...a),
  ...createRunStatusSlice(...a),
  ...createMetricsSlice(...a),
  ...createInspectSlice(...a),
  ...createShareSlice(...a),
  ...createPersistSlice(...a),
  ...createLabSlice(...a),
  ...createRegimeSlice(...a),
}));
