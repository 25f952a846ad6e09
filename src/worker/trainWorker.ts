// The training worker of the playground: a TrainController (pick a backend, WebGPU else CPU with the
// reason; fetch the preset's base checkpoints; train the chosen methods in lock step; post every
// StepRecord and EvalRecord as plain data) driven by the page's commands. Protocol: ./protocol.ts.
import { fetchReader } from '../cohort/fetchReader';
import { selectMeasuredBackend } from '../engine/autoSelect';
import type { TrainCommand, TrainEvent } from './protocol';
import { TrainController } from './trainController';
import { spawnWebModelWorker } from './pagePool';

const post = (e: TrainEvent, transfer: Transferable[] = []): void =>
  (self as unknown as Worker).postMessage(e, transfer);

const controller = new TrainController({
  post,
  reader: (base) => fetchReader(base),
  selectBackend: (pref, shape) => selectMeasuredBackend(pref, {}, shape),
  spawnModelWorker: typeof Worker === 'function' ? spawnWebModelWorker : undefined,
});

self.onmessage = (ev: MessageEvent<TrainCommand>) => {
  controller
    .command(ev.data)
    .catch((e: unknown) =>
      post({ type: 'error', runId: 0, message: e instanceof Error ? e.message : String(e) }),
    );
};
