// The page's pool of model workers (docs/architecture-runtime.md, "The cohort in parallel"): Web Workers started by
// the training worker (./modelWorker.ts), one per model up to the pool size, on the training worker's own
// engine and kernel variant, so the metrics are the same to the bit as with every model here. It serves
// the wasm and CPU engines (WebGPU keeps every model on its one device). Where workers cannot be started
// (no nested workers, a failed load, no reply) the run keeps every model in this worker, with a notice.
import { presetAgentSpecs } from '../cohort';
import { engineId, type Backend } from '../engine/backend';
import type { ExperimentConfig } from '../rl/config';
import { ModelPool } from '../rl/pool/poolModels';
import type { HostPort, HostReply } from '../rl/pool/protocol';
import type { ModelsFactory } from '../rl/trainer';

/** Starts one model worker on an engine (undefined where the environment has none, e.g. unit tests). */
export type SpawnModelWorker = (engine: string) => HostPort;

/** How long a pool may take to start before the run goes on without it. */
const START_MS = 30_000;

/** The models of a run's lock step: every method's copy of every agent. */
export function poolModels(config: ExperimentConfig): number {
  const c = config.cohort as { agents?: unknown[]; preset?: string };
  try {
    return config.methods.length * (c.agents?.length ?? presetAgentSpecs(c.preset!).length);
  } catch {
    return config.methods.length; // an unknown preset: the session's validation names it
  }
}

/** A model worker as a Web Worker (module worker; Vite bundles ./modelWorker.ts). */
export const spawnWebModelWorker: SpawnModelWorker = (engine) => {
  const w = new Worker(new URL('./modelWorker.ts', import.meta.url), { type: 'module' });
  let exited: ((reason: string) => void) | null = null;
  w.onerror = (ev) => exited?.(ev.message || 'the model worker failed to load');
  w.postMessage({ engine });
  return {
    post: (m) => w.postMessage(m),
    onMessage: (cb) => (w.onmessage = (ev: MessageEvent<HostReply>) => cb(ev.data)),
    onExit: (cb) => (exited = cb),
    terminate: () => {
      w.terminate();
      exited?.('terminated');
    },
  };
};

export class PagePool {
  private pool: ModelPool | null = null;
  private ports: HostPort[] = [];
  private key = '';

  constructor(private readonly spawn?: SpawnModelWorker) {}

  /**
   * The trainers' models factory for a run of `models` models on `be` with a pool of `size` (undefined:
   * every model on `be`, as with size 1, WebGPU, or when the workers cannot start; `notice` says why then).
   */
  async factory(
    be: Backend,
    size: number,
    models: number,
    notice: (m: string) => void,
  ): Promise<ModelsFactory | undefined> {
    const pool = await this.ensure(
      be,
      Math.min(size, models),
      notice,
      (n, engine) => `The ${models} models of each lock step train in ${n} model workers (${engine}).`,
      'every model trains in one worker (same results, slower)',
    );
    return pool?.factory;
  }

  /**
   * The pool that pretrains `builds` agents of `rungs` rungs in all (their corpus ladders') on `be`'s engine
   * side by side with this worker (src/rl/pool/poolBuilds.ts: this worker is one of the `size` builders, so the
   * pool has one worker fewer; a builder runs a rung at a time; undefined: they are built one after the other
   * on `be`, as for `factory`).
   */
  builds(
    be: Backend,
    size: number,
    builds: number,
    notice: (m: string) => void,
    rungs = builds,
  ): Promise<ModelPool | undefined> {
    return this.ensure(
      be,
      Math.min(size, Math.max(builds, rungs)) - 1,
      notice,
      (n, engine) =>
        `${builds === 1 ? 'The base agent to pretrain is' : `The ${builds} base agents to pretrain are`} built side by side in this worker and ${n} model worker${n > 1 ? 's' : ''} (${engine})` +
        (n + 1 > builds
          ? `, rung by rung (${rungs} rungs of ${builds === 1 ? 'its corpus ladder' : 'their corpus ladders'} at most).`
          : '.'),
      'they are pretrained one after the other in one worker (same bytes, slower)',
      1,
    );
  }

  /**
   * The pool of `n` workers on `be`'s engine (none below `least`): the current one if it fits and is whole,
   * else new workers.
   */
  private async ensure(
    be: Backend,
    n: number,
    notice: (m: string) => void,
    started: (n: number, engine: string) => string,
    fallback: string,
    least = 2,
  ): Promise<ModelPool | undefined> {
    if (n < least || be.info.name === 'webgpu') return undefined;
    const engine = engineId(be.info);
    const key = `${engine} x${n}`;
    if (this.pool && this.key === key && !this.pool.broken) {
      notice(started(n, engine));
      return this.pool;
    }
    this.close();
    try {
      if (!this.spawn) throw new Error('this environment starts no workers');
      const ports = Array.from({ length: n }, () => this.spawn!(engine));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          ports.forEach((p) => p.terminate());
          reject(new Error(`no reply within ${START_MS / 1000} s`));
        }, START_MS);
      });
      this.pool = await Promise.race([ModelPool.start(ports), late]).finally(() => clearTimeout(timer));
      this.ports = ports;
      this.key = key;
      notice(started(n, engine));
      return this.pool;
    } catch (e) {
      notice(
        `The ${n} model worker${n > 1 ? 's' : ''} could not be started (${e instanceof Error ? e.message : String(e)}); ${fallback}.`,
      );
      return undefined;
    }
  }

  /** True when a worker of the current pool has stopped (the next run starts new ones). */
  get broken(): boolean {
    return this.pool?.broken ?? false;
  }

  /** Test hook (debugKillModelWorker): stop the pool's last worker as a crash would; false when there is no pool. */
  killOne(): boolean {
    const p = this.pool && !this.pool.broken ? this.ports.at(-1) : undefined;
    p?.terminate();
    return p !== undefined;
  }

  /** Stop the workers. */
  close(): void {
    this.pool?.close();
    this.pool = null;
    this.ports = [];
    this.key = '';
  }
}
