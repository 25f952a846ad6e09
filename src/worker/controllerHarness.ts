// Test support (not a test file): a TrainController on the CPU backend reading the shipped checkpoints
// from public/, with every event it posts kept, and a way to wait for one. Used by the controller's tests.
import { nodeReader } from '../cohort/nodeFiles';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import type { EvalRecord, StepRecord } from '../rl/records';
import type { TrainEvent } from './protocol';
import { TrainController, type ControllerEnv } from './trainController';

/** Poll `events` (from index `from`) until one matches; its index + 1, or throw after `tries` x 5 ms. */
export async function eventIndex(
  events: readonly TrainEvent[],
  pred: (e: TrainEvent) => boolean,
  from = 0,
  tries = 6000,
): Promise<number> {
  for (let i = 0; i < tries; i++) {
    const k = events.findIndex((e, j) => j >= from && pred(e));
    if (k >= 0) return k + 1;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out; last events: ${JSON.stringify(events.slice(-3)).slice(0, 400)}`);
}

/** A controller with its posted events; `until` resolves with the first matching event from `from` on. */
export function controllerHarness(env: Partial<ControllerEnv> = {}) {
  const events: TrainEvent[] = [];
  const c = new TrainController({
    post: (e) => events.push(structuredClone(e)),
    reader: () => nodeReader(),
    selectBackend: async () => ({ backend: new CpuBackend(), fallbackReason: 'test' }),
    ...env,
  });
  const until = async (pred: (e: TrainEvent) => boolean, from = 0): Promise<TrainEvent> =>
    events[(await eventIndex(events, pred, from)) - 1];
  return {
    c,
    events,
    until,
    untilAt: (pred: (e: TrainEvent) => boolean, from: number) => eventIndex(events, pred, from),
  };
}

/** The step records among `ev`, their wall-clock timing zeroed. */
export const stepRecords = (ev: TrainEvent[]): StepRecord[] =>
  ev.flatMap((e) =>
    e.type === 'step' ? [{ ...e.record, timing: { rollout: 0, forward: 0, update: 0, total: 0 } }] : [],
  );

/** The evaluation records among `ev`, their seconds zeroed. */
export const evalRecords = (ev: TrainEvent[]): EvalRecord[] =>
  ev.flatMap((e) => (e.type === 'eval' ? [{ ...e.record, seconds: 0 }] : []));
