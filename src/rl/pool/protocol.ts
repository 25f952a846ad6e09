// The messages between a pool's coordinator (PoolModels, ./poolModels.ts) and a model worker (./host.ts):
// every request names a cohort (one trainer's models on that worker) and carries plain data only (prompt
// ids, tokens, rows, rewards, model states); each gets one reply with the same id. A `rung` request
// (one rung of an agent's pretraining, ./poolBuilds.ts) names no cohort and is answered with progress
// messages, then the rung's figures and parameters; a `cancel` stops the rung of that id at its next step (it
// is answered at once, out of turn, and the rung with an error). The same messages go over Node's
// worker_threads (./nodePool.ts) and, in a page, Web Workers.
import type { RungOutcome } from '../../cohort/ladder';
import type { PretrainRecipe } from '../../cohort/familySpec';
import type { PretrainProgress, PretrainSpec } from '../../cohort/pretrainSpec';
import type { TaskConfig } from '../../tasks';
import type { GenerateResult } from '../../model/generate';
import type { GPTConfig } from '../../model/config';
import type { ForwardPlan, ModelState, ModelsSetup } from '../cohortModels';
import type { PolicyRows, TokenFigures } from '../policy';
import type { UpdateFault, UpdateOutcome } from '../policyUpdate';
import type { GenerateJob } from '../rollout';

/** What a coordinator asks of a worker. `cohort` is unique within the pool. */
export type HostRequest =
  | { op: 'open'; cohort: number; cfgs: GPTConfig[]; states: ModelState[]; setup: ModelsSetup }
  | { op: 'generate'; cohort: number; jobs: GenerateJob[] }
  | { op: 'forward'; cohort: number; rows: PolicyRows[]; plan: ForwardPlan }
  | { op: 'update'; cohort: number; rewards: number[][]; step: number; lr: number; fault?: UpdateFault }
  | { op: 'rollback'; cohort: number }
  | { op: 'read'; cohort: number }
  | { op: 'write'; cohort: number; states: ModelState[] }
  | { op: 'close'; cohort: number }
  | { op: 'rung'; spec: PretrainSpec; task: TaskConfig; recipe?: Partial<PretrainRecipe>; index: number }
  | { op: 'cancel'; target: number };

/** The value of each request's reply. */
export interface HostReplies {
  open: null;
  generate: GenerateResult[];
  forward: TokenFigures[];
  update: UpdateOutcome[];
  rollback: null;
  read: ModelState[];
  write: null;
  close: null;
  rung: RungOutcome;
  cancel: null;
}

/** A request on the wire. */
export type HostMessage = HostRequest & { id: number };

/** A worker's messages: its engine once started (or why it could not start), then one reply per request. */
export type HostReply =
  | { kind: 'ready'; engine: string }
  | { kind: 'failed'; message: string }
  | { kind: 'reply'; id: number; value: unknown }
  | { kind: 'progress'; id: number; value: PretrainProgress }
  | { kind: 'error'; id: number; message: string };

/** Both ends of a worker, whatever carries the messages. */
export interface HostPort {
  post(msg: HostMessage): void;
  /** Every message the worker sends. */
  onMessage(cb: (r: HostReply) => void): void;
  /** The worker died or could not be reached (its pending requests fail with this reason). */
  onExit(cb: (reason: string) => void): void;
  terminate(): void;
}
