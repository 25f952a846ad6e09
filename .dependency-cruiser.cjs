// Which room (top-level folder of src/) may import which: the boundaries of docs/architecture.md,
// checked by `npm run lint` (npm run deps). Issue 19, step 4.
//
// The page's layers point one way, down: app -> store -> worker -> rl -> cohort -> model -> engine,
// with tasks, analysis and util below them all; util imports nothing of ours. Node's rooms (cli,
// sweep, bench, soak, plot, build) sit beside the page and may use its lower rooms; the page never
// imports them. A room may always import itself. Tests (*.test.ts) and browser checks
// (*.browsercheck.ts) follow their room's row; tests may also import fixtures from anywhere.

/** room -> the rooms it may import (besides itself). Every folder of src/ has a row. */
const ROOMS = {
  app: ['store', 'formats', 'rl', 'cohort', 'model', 'tasks', 'analysis', 'schema', 'util'],
  store: ['formats', 'worker', 'rl', 'cohort', 'model', 'engine', 'tasks', 'analysis', 'schema', 'util'],
  worker: ['rl', 'cohort', 'model', 'engine', 'tasks', 'analysis', 'schema', 'util'],
  rl: ['cohort', 'model', 'engine', 'tasks', 'analysis', 'schema', 'util'],
  cohort: ['model', 'engine', 'tasks', 'analysis', 'schema', 'util'],
  model: ['engine', 'tasks', 'schema', 'util'],
  engine: ['util'],
  tasks: ['schema', 'util'],
  analysis: ['util'],
  // the pure data formats of the page and Node alike: run file, URL codec, run settings, sweep report (src/formats/)
  formats: ['rl', 'cohort', 'tasks', 'analysis', 'schema', 'util'],
  // the schema layer: valibot schemas and their messages for every input surface (src/schema/)
  schema: ['util'],
  util: [],
  // Node's rooms (and the pages Node drives: src/bench/bench.html, src/soak/soak.html).
  sweep: ['formats', 'rl', 'cohort', 'model', 'engine', 'tasks', 'analysis', 'plot', 'schema', 'util'],
  bench: ['rl', 'cohort', 'model', 'engine', 'tasks', 'analysis', 'schema', 'util'],
  soak: ['rl', 'cohort', 'model', 'engine', 'tasks', 'schema', 'util'],
  cli: [
    'formats',
    'sweep',
    'bench',
    'soak',
    'worker',
    'rl',
    'cohort',
    'model',
    'engine',
    'tasks',
    'analysis',
    'plot',
    'schema',
    'util',
  ],
  plot: ['util'],
  build: [],
};

/**
 * Node-only files: they may import node:* and Node-only packages, and no page file imports them
 * (type-only imports aside, which leave nothing at run time). Every other file of src/ runs in the
 * page, the worker and Node alike.
 */
const NODE_ONLY = [
  '^src/(cli|plot|build)/',
  '^src/cohort/(cache|nodeFiles)[.]ts$',
  '^src/tasks/file/node[.]ts$', // reads a task file from disk (the page gets its bytes from a drop or a picker)
  '^src/engine/wasm/(buildKernels|nodeBackend)[.]ts$', // nodeBackend turns on a V8 flag for --backend wasm-relaxed
  '^src/rl/pool/node(Pool|Worker)[.]ts$', // the model workers as worker_threads (the page's pool uses Web Workers)
  '^src/bench/(browser|firstPoint|tfWasm|wasmSuite|poolBench|pretrainBench|pagePretrainBench|threadCpu|fmaProfile|fmaKernels)[.]ts$', // fma*: compiles AssemblyScript, sets a V8 flag
  '^src/sweep/(store|cell|checkpoints|cacheBuilds|run|figures|pool|prereg|slurm|cluster[.]slurm|testCluster|speedup|gateBGrid|vitest[.]slurm[.]config)[.]ts$',
  '^src/worker/controllerHarness[.]ts$', // test support: the controller on the shipped checkpoints read from disk
  '^e2e/(?!harness[.]ts$)', // the specs run in Node; e2e/harness.ts is the page they drive
];
const TEST = '[.](test|browsercheck|suite)[.]ts$'; // .suite.ts: cases shared by several test files
const FIXTURE = '([.]fixture[.]ts|^e2e/fixtures/.*|^e2e/labFixtures[.]ts)$';
const NODE_PACKAGES =
  '^node_modules/(@playwright|playwright|playwright-core|assemblyscript|tsx|vitest|@vitest|vite|dependency-cruiser|knip|jscpd)/';
const REACT = '^node_modules/(react|react-dom|zustand|recharts)/';

const below = (room) => `^src/(${[room, ...ROOMS[room]].join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles: split the shared part out into a file both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'room-not-in-table',
      severity: 'error',
      comment: 'A folder of src/ without a row in ROOMS of .dependency-cruiser.cjs: give it one.',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${Object.keys(ROOMS).join('|')})/` },
      to: {},
    },
    {
      name: 'engine-backends-apart',
      severity: 'error',
      comment:
        'Inside src/engine/ the three backends stay apart: the CPU reference and WebGPU import no other ' +
        "backend's folder; shared pieces go to src/engine/ or src/util/ (tests and parity cases compare them).",
      from: { path: '^src/engine/(cpu|webgpu)/', pathNot: TEST },
      to: { path: '^src/engine/(cpu|wasm|webgpu)/', pathNot: '^src/engine/$1/' },
    },
    {
      name: 'engine-wasm-falls-back-to-cpu',
      severity: 'error',
      comment: 'The wasm backend may run CPU kernels on its memory (src/engine/cpu/), never WebGPU code.',
      from: { path: '^src/engine/wasm/', pathNot: TEST },
      to: { path: '^src/engine/webgpu/' },
    },
    {
      name: 'engine-op-table-neutral',
      severity: 'error',
      comment:
        'The op table (src/engine/ops/) declares ops and their CPU kernels; it imports no wasm or WebGPU code ' +
        '(a backend overrides ops from its own folder).',
      from: { path: '^src/engine/ops/', pathNot: TEST },
      to: { path: '^src/engine/(wasm|webgpu)/' },
    },
    {
      name: 'react-below-store',
      severity: 'error',
      comment: 'Nothing below the store imports React, zustand or recharts (docs/architecture.md).',
      from: { path: '^src/', pathNot: '^src/(app|store)/|^src/main[.]tsx$' },
      to: { path: REACT },
    },
    {
      name: 'page-imports-node',
      severity: 'error',
      comment:
        'A page file imports node:* or a Node-only package: keep it out of the page, or mark the file ' +
        'Node-only in NODE_ONLY of .dependency-cruiser.cjs (and keep the page from importing it).',
      from: { path: '^(src|e2e)/', pathNot: [...NODE_ONLY, TEST] },
      to: { dependencyTypesNot: ['type-only'], path: [NODE_PACKAGES] },
    },
    {
      name: 'page-imports-node-core',
      severity: 'error',
      comment: 'A page file imports a node:* module (see page-imports-node).',
      from: { path: '^(src|e2e)/', pathNot: [...NODE_ONLY, TEST] },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'page-imports-node-only-file',
      severity: 'error',
      comment: 'A page file imports a Node-only file (NODE_ONLY of .dependency-cruiser.cjs).',
      from: { path: '^(src|e2e)/', pathNot: [...NODE_ONLY, TEST] },
      to: { path: NODE_ONLY, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'schema-imports-valibot-only',
      severity: 'error',
      comment:
        'The schema layer (src/schema/) builds on valibot alone (and util); its tests and fixtures may use the test tools.',
      from: { path: '^src/schema/', pathNot: [TEST, FIXTURE] },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-peer', 'npm-optional', 'core'],
        pathNot: '^node_modules/valibot/',
      },
    },
    {
      name: 'not-to-test',
      severity: 'error',
      comment: 'Only tests import test files.',
      from: { pathNot: TEST },
      to: { path: TEST },
    },
  ],
  // The table: a dependency none of these allow is an error (not-in-allowed).
  allowed: [
    ...Object.keys(ROOMS).map((room) => ({
      from: { path: `^src/${room}/` },
      to: { path: [below(room), '^shaders/'] },
    })),
    { from: { path: '^src/main[.]tsx$' }, to: { path: '^src/(app|store)/' } },
    { from: { path: '^e2e/' }, to: { path: '^(e2e|src)/' } }, // the browser checks drive every room
    { from: { path: TEST }, to: { path: FIXTURE } },
    { from: {}, to: { dependencyTypes: ['npm', 'npm-dev', 'npm-peer', 'npm-optional', 'core'] } },
    { from: { path: '^(vite|playwright)[.]config[.]ts$' }, to: { path: '^src/build/' } },
  ],
  allowedSeverity: 'error',
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: '^(dist|test-results|playwright-report|public|docs|wasm|runs|[.]cache|[.]ci|[.]scratch)/',
    },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    preserveSymlinks: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    // WGSL is imported with ?raw: a file of its own, with no imports to follow.
    extraExtensionsToScan: ['.wgsl'],
    reporterOptions: { text: { highlightFocused: true } },
  },
};
