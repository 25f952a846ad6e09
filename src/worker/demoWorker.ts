// The training worker of the first page: picks a backend (WebGPU, else CPU with the reason), trains
// the addition demo and posts each step's loss, then the held-out accuracy. Commands in, events out.
import { selectBackend } from '../engine/select';
import type { WorkerCommand, WorkerEvent } from './protocol';
import { evaluateAdditionDemo, makeAdditionDemo, trainAdditionDemo } from './additionDemo';

const post = (e: WorkerEvent): void => (self as unknown as Worker).postMessage(e);
let stopRequested = false;

async function startDemo(cmd: Extract<WorkerCommand, { type: 'startDemo' }>): Promise<void> {
  stopRequested = false;
  const { backend, fallbackReason } = await selectBackend(cmd.backend);
  post({ type: 'engine', backend: backend.info.name, adapter: backend.info.adapter, fallbackReason });
  const t0 = performance.now();
  const demo = makeAdditionDemo(backend, { steps: cmd.steps, batch: 32, seed: cmd.seed });
  try {
    await trainAdditionDemo(demo, (step, loss) => {
      post({ type: 'loss', step, loss });
      return !stopRequested;
    });
    const ev = await evaluateAdditionDemo(demo, 200);
    post({ type: 'done', accuracy: ev.answerAccuracy, seconds: (performance.now() - t0) / 1000 });
  } finally {
    backend.destroy();
  }
}

self.onmessage = (ev: MessageEvent<WorkerCommand>) => {
  const cmd = ev.data;
  if (cmd.type === 'stop') {
    stopRequested = true;
    return;
  }
  startDemo(cmd).catch((e: unknown) =>
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) }),
  );
};
