// The typed message protocol between the page and the training worker: commands in, events out.

/** Commands the page sends to the worker. */
export type WorkerCommand =
  | { type: 'startDemo'; steps: number; backend: 'auto' | 'webgpu' | 'cpu'; seed: number }
  | { type: 'stop' };

/** Events the worker posts back. */
export type WorkerEvent =
  | { type: 'engine'; backend: 'webgpu' | 'cpu'; adapter: string; fallbackReason: string }
  | { type: 'loss'; step: number; loss: number }
  | { type: 'done'; accuracy: number; seconds: number }
  | { type: 'error'; message: string };
