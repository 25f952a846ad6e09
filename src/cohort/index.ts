// Public entry point of the cohort module (runs in the page, a worker and Node): agents, families,
// presets, the pretraining factory, greedy scoring, the checkpoint manifest and loaders. The Node-only
// file helpers live in ./nodeFiles (import them directly, from Node code only).
export * from './agent';
export * from './names';
export * from './regions';
export * from './families';
export * from './presets';
export * from './evaluate';
export * from './pretrain';
export * from './manifest';
export * from './build';
export * from './overlapTable';
export * from './fetchReader';
