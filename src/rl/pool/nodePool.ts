// The pool of model workers in Node (docs/architecture-runtime.md, "The cohort in parallel"): worker_threads
// running ./nodeWorker.ts, each with its own engine of the coordinator's name. The default size is the
// machine's cores (a sweep running cells side by side gives each cell its share, `defaultWorkers(cells)`).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { NodeBackendName } from '../../engine/wasm/nodeBackend';
import { MAX_POOL_SIZE, ModelPool, poolSizeProblems } from './poolModels';
import type { ModelsFactory } from '../trainer';
import type { HostPort, HostReply } from './protocol';

/** Workers for one run when `parallel` runs share the machine: its cores divided between them, at least 1. */
export function defaultWorkers(parallel = 1): number {
  return Math.max(1, Math.min(MAX_POOL_SIZE, Math.floor(availableParallelism() / Math.max(1, parallel))));
}

/** `--workers` checked: a whole number 1..64 (undefined = the default), else an error saying what to pass. */
export function workersArg(v: string | undefined, fallback = defaultWorkers()): number {
  if (v === undefined) return fallback;
  const n = /^\d+$/.test(v) ? Number(v) : v;
  const problems = poolSizeProblems(n, '--workers');
  if (problems.length) throw new Error(problems[0]);
  return n as number;
}

/** One model worker thread on `engine`, as a pool's port. */
export function nodePort(engine: NodeBackendName): HostPort {
  // the worker runs the TypeScript source, as the CLIs do: tsx's loader first, then ./nodeWorker.ts
  const entry = JSON.stringify(new URL('./nodeWorker.ts', import.meta.url).href);
  const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${entry}); })`;
  const w = new Worker(boot, { eval: true, workerData: { engine } });
  let exited: ((reason: string) => void) | null = null;
  w.on('error', (e) => exited?.(e.message));
  w.on('exit', (code) => exited?.(`exit code ${code}`));
  return {
    post: (m) => w.postMessage(m),
    onMessage: (cb) => w.on('message', (r: HostReply) => cb(r)),
    onExit: (cb) => (exited = cb),
    terminate: () => void w.terminate(),
  };
}

/** A started pool of `size` worker threads on engine `engine`. */
export function startNodePool(size: number, engine: NodeBackendName): Promise<ModelPool> {
  const problems = poolSizeProblems(size, 'the worker count');
  if (problems.length) return Promise.reject(new Error(problems[0]));
  return ModelPool.start(Array.from({ length: size }, () => nodePort(engine)));
}

/**
 * Run `fn` with a run's models in a pool of `workers` threads on `engine` (closed after), or with no pool
 * (undefined: every model on the coordinator's engine, today's single-worker run) when one worker is asked
 * for or the run has no more than one model.
 */
export async function withNodePool<T>(
  workers: number,
  engine: NodeBackendName,
  models: number,
  fn: (factory: ModelsFactory | undefined) => Promise<T>,
): Promise<T> {
  const size = Math.min(workers, models);
  if (size <= 1) return fn(undefined);
  const pool = await startNodePool(size, engine);
  try {
    return await fn(pool.factory);
  } finally {
    pool.close();
  }
}
