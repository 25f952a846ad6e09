// What the parts of one training run (./runLoop.ts) use of it: its snapshots (./runSnapshots.ts) and its
// step-0 regime check (./regimeRequest.ts).
import type { TrainEvent } from './protocol';

export interface RunContext {
  /** The run's id (its events carry it). */
  id: number;
  /** Whether the run was stopped (a new start, a reset or close): its work is dropped, nothing more posted. */
  aborted(): boolean;
  /** Post an event; `transfer` lists ArrayBuffers handed over (snapshot bytes). */
  post(e: TrainEvent, transfer?: Transferable[]): void;
  /** Work on the run's session, one unit at a time with the controller's requests. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}
