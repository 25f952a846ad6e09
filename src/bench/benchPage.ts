// Browser side of `npm run bench`: exposes window.runWebGpuBench() returning the WebGPU report.
import { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { runBench } from './runBench';

(window as unknown as { runWebGpuBench: () => Promise<unknown> }).runWebGpuBench = async () => {
  const backend = await WebGpuBackend.create();
  try {
    return await runBench(backend, 20);
  } finally {
    backend.destroy();
  }
};
document.title = 'bench ready';
