// Vitest configuration of `npm run test:slurm`: the sweep's tests on a real one-node Slurm cluster
// (src/sweep/*.slurm.ts; needs root and Debian's slurm-wlm and munge, which .ci/run installs).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: { include: ['src/**/*.slurm.ts'], environment: 'node', testTimeout: 240_000, fileParallelism: false },
});
