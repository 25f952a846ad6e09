// Browser-side row-pass check (run by e2e/rowPasses.spec.ts through e2e/harness.ts): the policy pass in row
// passes gives the figures and gradient of one pass on WebGPU too (src/rl/rowPassCheck.ts).
import type { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { rowPassParity, type RowPassReport } from './rowPassCheck';

export const checks: Record<string, (g: WebGpuBackend) => Promise<RowPassReport>> = {
  'policy:row-passes': (gpu) => rowPassParity(gpu),
};
