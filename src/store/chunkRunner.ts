// Runs a long loop in small time-boxed chunks, yielding to the event loop between chunks, so the page stays responsive.

/** Options of `runInChunks`. */
export interface ChunkOptions {
  /** Number of iterations in all. */
  total: number;
  /** Does iteration i (0-based). May throw: the run stops and `onError` is called. */
  step(i: number): void;
  /** Wall-clock budget of one chunk in ms (default 12); a chunk always does at least one iteration. */
  budgetMs?: number;
  /** Called after every chunk with the iterations done so far. */
  onChunk?(done: number): void;
  /** Called once after the last iteration. */
  onDone?(): void;
  /** Called once if `step` throws. */
  onError?(err: unknown): void;
  /** Clock in ms (default performance.now). */
  now?(): number;
  /** Runs a callback later (default setTimeout 0). */
  schedule?(fn: () => void): void;
}

/**
 * Run `step(0..total-1)` in chunks of at most `budgetMs` each. The first chunk starts asynchronously.
 * Returns a handle whose `cancel()` stops the run before its next iteration (no callbacks after that).
 */
export function runInChunks(opts: ChunkOptions): { cancel(): void } {
  const budget = opts.budgetMs ?? 12;
  const now = opts.now ?? (() => performance.now());
  const schedule = opts.schedule ?? ((fn: () => void) => void setTimeout(fn, 0));
  let i = 0;
  let cancelled = false;
  const chunk = (): void => {
    if (cancelled) return;
    const t0 = now();
    try {
      do {
        opts.step(i);
        i++;
      } while (i < opts.total && !cancelled && now() - t0 < budget);
    } catch (err) {
      cancelled = true;
      opts.onError?.(err);
      return;
    }
    if (cancelled) return;
    opts.onChunk?.(i);
    if (i >= opts.total) opts.onDone?.();
    else schedule(chunk);
  };
  if (opts.total <= 0) {
    schedule(() => {
      if (!cancelled) opts.onDone?.();
    });
  } else schedule(chunk);
  return {
    cancel: () => {
      cancelled = true;
    },
  };
}
