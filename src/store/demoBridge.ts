// Connects the store to the demo training worker: sends commands, appends the worker's events.
import type { WorkerCommand, WorkerEvent } from '../worker/protocol';
import { useStore } from './store';

let worker: Worker | null = null;

function onEvent(e: WorkerEvent): void {
  const s = useStore.getState();
  switch (e.type) {
    case 'engine':
      s.setEngine(e.backend, e.adapter, e.fallbackReason);
      break;
    case 'loss':
      s.addLoss({ step: e.step, loss: e.loss });
      break;
    case 'done':
      s.setDemoAccuracy(e.accuracy);
      s.setDemoStatus('done', `Finished in ${e.seconds.toFixed(1)} s.`);
      break;
    case 'error':
      s.setDemoStatus('error', e.message);
      break;
  }
}

/** Start the supervised demo in a fresh worker (stopping any running one). */
export function startDemo(steps: number, backend: 'auto' | 'cpu', seed = 1): void {
  worker?.terminate();
  worker = new Worker(new URL('../worker/demoWorker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (ev: MessageEvent<WorkerEvent>) => onEvent(ev.data);
  worker.onerror = (ev) =>
    useStore.getState().setDemoStatus('error', ev.message || 'the training worker crashed');
  useStore.getState().resetDemo();
  useStore.getState().setDemoStatus('running');
  const cmd: WorkerCommand = { type: 'startDemo', steps, backend, seed };
  worker.postMessage(cmd);
}

/** Ask the worker to stop after its current step. */
export function stopDemo(): void {
  worker?.postMessage({ type: 'stop' } satisfies WorkerCommand);
}
