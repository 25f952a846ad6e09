// The coordinator's side of the pool (docs/architecture-runtime.md, "The cohort in parallel"): ModelPool starts
// with its workers (each a HostPort, ./protocol.ts) and places every model of every trainer it is given on
// a worker, one model per worker up to the pool size, then by load (placeModels: each model, largest first,
// on the worker with the fewest parameters so far, so a cohort of two sizes does not put every large model
// on one worker); PoolModels is one trainer's CohortModels over those workers. A phase sends each worker its models' share and waits
// for all: the models of one step work in parallel, each from its own seed stream, so the numbers are the
// same as on one worker for the same engine and kernel variant.
import type { Agent } from '../../cohort/agent';
import type { PretrainProgress } from '../../cohort/pretrainSpec';
import { engineId } from '../../engine/backend';
import { paramCount } from '../../model/params';
import type { GenerateResult } from '../../model/generate';
import type { CohortModels, ForwardPlan, ModelState, ModelsSetup } from '../cohortModels';
import type { PolicyRows, TokenFigures } from '../policy';
import type { UpdateFault, UpdateOutcome } from '../policyUpdate';
import type { GenerateJob } from '../rollout';
import { fingerprint } from '../snapshot';
import type { ModelsFactory } from '../trainer';
import type { RungOutcome } from '../../cohort/ladder';
import type { HostPort, HostReplies, HostReply, HostRequest } from './protocol';

/** The most workers a pool takes (settings, links and --workers refuse more). */
export const MAX_POOL_SIZE = 64;

/** Problems with a pool size (a setting, a link, --workers): [] when it is an integer 1..64. */
export function poolSizeProblems(n: unknown, what = 'the pool size'): string[] {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_POOL_SIZE)
    return [
      `${what} must be a whole number of workers from 1 to ${MAX_POOL_SIZE} (1 = every model in one worker), got ${JSON.stringify(n)}`,
    ];
  return [];
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  progress?: (p: PretrainProgress) => void;
}

/**
 * The worker of each new model (by index in `sizes`), given each worker's load so far (parameters of the
 * models it holds; updated in place): largest model first, each on the least-loaded worker, ties to the lower
 * worker. Where a model runs changes only the wall time: every model computes from its own seed streams.
 */
export function placeModels(sizes: readonly number[], load: number[]): number[] {
  const out: number[] = new Array(sizes.length);
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a] || a - b);
  for (const i of order) {
    let w = 0;
    for (let k = 1; k < load.length; k++) if (load[k] < load[w]) w = k;
    out[i] = w;
    load[w] += sizes[i];
  }
  return out;
}

/** One worker and its requests in flight. */
class Lane {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private dead: string | null = null;
  constructor(
    readonly index: number,
    private readonly port: HostPort,
    onReady: (r: HostReply) => void,
  ) {
    port.onMessage((r) => {
      if (r.kind === 'ready' || r.kind === 'failed') return onReady(r);
      if (r.kind === 'progress') return this.pending.get(r.id)?.progress?.(r.value);
      const p = this.pending.get(r.id);
      this.pending.delete(r.id);
      if (r.kind === 'reply') p?.resolve(r.value);
      else p?.reject(new Error(`model worker ${index}: ${r.message}`));
    });
    port.onExit((reason) => this.stop(reason));
    this.onStop = onReady;
  }

  private readonly onStop: (r: HostReply) => void;

  /** The worker has stopped: every request in flight and every later one fails with the reason. */
  private stop(reason: string): void {
    if (this.dead) return;
    this.dead = `model worker ${this.index} stopped (${reason})`;
    for (const p of this.pending.values()) p.reject(new Error(this.dead));
    this.pending.clear();
    this.onStop({ kind: 'failed', message: reason });
  }

  /** True once the worker has stopped (every later request fails). */
  get stopped(): boolean {
    return this.dead !== null;
  }

  request<K extends HostRequest['op']>(
    req: Extract<HostRequest, { op: K }>,
    progress?: (p: PretrainProgress) => void,
  ): Promise<HostReplies[K]> {
    return this.cancellable(req, progress).done;
  }

  /** A request and a way to cancel it (the worker stops it at its next step; it then fails). */
  cancellable<K extends HostRequest['op']>(
    req: Extract<HostRequest, { op: K }>,
    progress?: (p: PretrainProgress) => void,
  ): { done: Promise<HostReplies[K]>; cancel: () => void } {
    if (this.dead) return { done: Promise.reject(new Error(this.dead)), cancel: () => undefined };
    const id = this.nextId++;
    const done = new Promise<HostReplies[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, progress });
      this.port.post({ ...req, id });
    });
    const cancel = () => {
      if (this.dead || !this.pending.has(id)) return;
      const c = this.nextId++;
      this.pending.set(c, { resolve: () => undefined, reject: () => undefined });
      this.port.post({ op: 'cancel', target: id, id: c });
    };
    return { done, cancel };
  }

  /** Stop the worker (the pool is closed: it serves nothing more). */
  terminate(): void {
    this.port.terminate();
    this.stop('closed');
  }
}

/** A started pool of model workers. */
export class ModelPool {
  /** Parameters of the models placed on each worker so far (placeModels). */
  private readonly load: number[];
  private cohorts = 0;
  private constructor(
    private readonly lanes: Lane[],
    /** The engine every worker runs (engineId). */
    readonly engine: string,
  ) {
    this.load = lanes.map(() => 0);
  }

  /** Start on `ports` (one per worker) and wait until every worker has its engine; all must run the same one. */
  static async start(ports: HostPort[]): Promise<ModelPool> {
    const problems = poolSizeProblems(ports.length);
    if (problems.length) throw new Error(problems[0]);
    const ready: Promise<HostReply>[] = [];
    const lanes = ports.map((p, i) => {
      let done!: (r: HostReply) => void;
      ready.push(new Promise((r) => (done = r)));
      return new Lane(i, p, (r) => done?.(r));
    });
    const replies = await Promise.all(ready);
    const failed = replies.find((r) => r.kind === 'failed');
    const engines = [...new Set(replies.map((r) => (r.kind === 'ready' ? r.engine : '')))];
    if (failed || engines.length !== 1) {
      lanes.forEach((l) => l.terminate());
      throw new Error(
        failed?.kind === 'failed'
          ? `a model worker could not start: ${failed.message}`
          : `the model workers run different engines (${engines.join(', ')})`,
      );
    }
    return new ModelPool(lanes, engines[0]);
  }

  /** True when a worker has stopped: the pool cannot serve another run (start a new one). */
  get broken(): boolean {
    return this.lanes.some((l) => l.stopped);
  }

  /** Workers in the pool. */
  get size(): number {
    return this.lanes.length;
  }

  /** The trainer option that puts a trainer's models into this pool (its backend must run the pool's engine). */
  readonly factory: ModelsFactory = (agents, setup) => {
    const be = agents[0].model.backend;
    if (engineId(be.info) !== this.engine)
      throw new Error(
        `the trainer runs ${engineId(be.info)}, its model workers ${this.engine}: a pool serves one engine and kernel variant`,
      );
    const sizes = agents.map((a) => paramCount(a.model.cfg));
    const at = placeModels(sizes, this.load);
    const release = () => at.forEach((w, i) => (this.load[w] -= sizes[i])); // the trainer is disposed
    return new PoolModels(
      this.cohorts++,
      agents,
      setup,
      at.map((w) => this.lanes[w]),
      release,
    );
  };

  /**
   * Train one rung of an agent's pretraining on worker `slot` mod size (./poolBuilds.ts), its progress to
   * `progress`; a worker runs its requests one after the other, the workers side by side. `cancel` stops it.
   */
  rung(
    slot: number,
    req: Omit<Extract<HostRequest, { op: 'rung' }>, 'op'>,
    progress?: (p: PretrainProgress) => void,
  ): { done: Promise<RungOutcome>; cancel: () => void } {
    return this.lanes[slot % this.lanes.length].cancellable({ op: 'rung', ...req }, progress);
  }

  /** True when worker `slot` has stopped (its requests fail; the others may still serve). */
  laneStopped(slot: number): boolean {
    return this.lanes[slot % this.lanes.length].stopped;
  }

  /** Stop every worker. */
  close(): void {
    for (const l of this.lanes) l.terminate();
  }
}

/** One trainer's models on the pool: model n on lanes[n]. */
class PoolModels implements CohortModels {
  readonly remote = true;
  /** Per worker used, the models (agent indices, in order) it holds. */
  private readonly groups: { lane: Lane; ns: number[] }[] = [];
  private readonly opened: Promise<string[]>;

  constructor(
    private readonly cohort: number,
    agents: Agent[],
    setup: ModelsSetup,
    lanes: Lane[],
    private readonly release: () => void,
  ) {
    for (const [n, lane] of lanes.entries()) {
      const g = this.groups.find((x) => x.lane === lane);
      if (g) g.ns.push(n);
      else this.groups.push({ lane, ns: [n] });
    }
    this.opened = this.open(agents, setup);
    this.opened.catch(() => undefined); // reported by the first phase that waits on it
  }

  private async open(agents: Agent[], setup: ModelsSetup): Promise<string[]> {
    const states: ModelState[] = [];
    for (const a of agents) {
      const m = a.model;
      const [params, mm, v] = (await m.backend.readMany([m.params, m.m, m.v])) as Float32Array[];
      states.push({ params, m: mm, v, optSteps: 0 });
    }
    const pick = <T>(xs: readonly T[], ns: number[]) => ns.map((n) => xs[n]);
    await Promise.all(
      this.groups.map(({ lane, ns }) =>
        lane.request({
          op: 'open',
          cohort: this.cohort,
          cfgs: pick(agents, ns).map((a) => a.model.cfg),
          states: pick(states, ns),
          setup: { ...setup, ids: pick(setup.ids, ns), maxNewTokens: pick(setup.maxNewTokens, ns) },
        }),
      ),
    );
    return states.map((s) => fingerprint(s.params));
  }

  /** Send each worker its share (`part(ns)`) and put the replies back in model order (`out(n)` per model). */
  private async each<T>(
    ask: (lane: Lane, ns: number[]) => Promise<T[]>,
    slots: (ns: number[]) => number[] = (ns) => ns,
  ): Promise<T[]> {
    await this.opened;
    const out: T[] = [];
    await Promise.all(
      this.groups.map(async ({ lane, ns }) => {
        const got = await ask(lane, ns);
        slots(ns).forEach((slot, i) => (out[slot] = got[i]));
      }),
    );
    return out;
  }

  baseHashes(): Promise<string[]> {
    return this.opened;
  }

  generate(jobs: GenerateJob[]): Promise<GenerateResult[]> {
    const N = this.groups.reduce((k, g) => k + g.ns.length, 0);
    const frozen = jobs.length > N; // jobs N..2N-1 decode on the frozen copies
    const slots = (ns: number[]) => (frozen ? [...ns, ...ns.map((n) => N + n)] : ns);
    return this.each(
      (lane, ns) =>
        lane.request({ op: 'generate', cohort: this.cohort, jobs: slots(ns).map((j) => jobs[j]) }),
      slots,
    );
  }

  forward(rows: PolicyRows[], plan: ForwardPlan): Promise<TokenFigures[]> {
    return this.each((lane, ns) =>
      lane.request({ op: 'forward', cohort: this.cohort, rows: ns.map((n) => rows[n]), plan }),
    );
  }

  update(rewards: number[][], step: number, lr: number, fault?: UpdateFault): Promise<UpdateOutcome[]> {
    return this.each((lane, ns) =>
      lane.request({
        op: 'update',
        cohort: this.cohort,
        rewards: ns.map((n) => rewards[n]),
        step,
        lr,
        fault,
      }),
    );
  }

  async rollback(): Promise<void> {
    await this.each(
      async (lane) => {
        await lane.request({ op: 'rollback', cohort: this.cohort });
        return [];
      },
      () => [],
    );
  }

  readState(): Promise<ModelState[]> {
    return this.each((lane) => lane.request({ op: 'read', cohort: this.cohort }));
  }

  async writeState(states: readonly ModelState[]): Promise<void> {
    await this.each(
      async (lane, ns) => {
        await lane.request({ op: 'write', cohort: this.cohort, states: ns.map((n) => states[n]) });
        return [];
      },
      () => [],
    );
  }

  private disposed = false;

  dispose(): void {
    if (!this.disposed) this.release();
    this.disposed = true;
    for (const { lane } of this.groups)
      lane.request({ op: 'close', cohort: this.cohort }).catch(() => undefined); // a stopped worker holds nothing
  }
}
