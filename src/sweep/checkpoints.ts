// The sweep's pre-pass over its cells' agents: every base checkpoint a cell needs that is not on disk
// is built ONCE (however many cells share it) before any cell runs, then every cell is validated with
// its checkpoints (src/rl/cohortEnv.ts). Files under public/ are built by a hook (default: pretrain an
// agent at its canonical path, src/cohort/presets.ts checkpointPath, on the CPU backend); agents by axes
// (`@cache/KEY.ckpt`, axisAgents.ts) are fetched from or built into the content-addressed cache on the
// sweep's engine (src/cohort/cache.ts), side by side on the sweep's workers (./cacheBuilds.ts). docs/sweeps.md.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkpointPath, getFamily } from '../cohort';
import { CACHE_PREFIX, cacheReader, DEFAULT_CACHE_DIR } from '../cohort/cache';
import { nodeReader, PUBLIC_DIR, writeFileUnder } from '../cohort/nodeFiles';
import { validateExperiment } from '../rl/cohortEnv';
import type { SweepBackend } from './backends';
import type { NeededAgent } from './cacheBuilds';
import type { Cell } from './grid';

export type { NeededAgent };

/** Builds a missing base checkpoint under `root` (or throws saying why it cannot). */
export type CheckpointBuilder = (need: NeededAgent, root: string, log: (s: string) => void) => Promise<void>;

/** The distinct agents (by checkpoint path) of the cells whose path passes `keep`. */
function distinctAgents(cells: readonly Cell[], keep: (path: string) => boolean): NeededAgent[] {
  const byPath = new Map<string, NeededAgent>();
  for (const c of cells) {
    for (const s of c.specs) {
      if (!s.checkpoint || !keep(s.checkpoint)) continue;
      const have = byPath.get(s.checkpoint);
      if (have) {
        if (!have.cells.includes(c.index)) have.cells.push(c.index); // two agents of a cell on one file
      } else
        byPath.set(s.checkpoint, { spec: s as NeededAgent['spec'], task: c.config.task!, cells: [c.index] });
    }
  }
  return [...byPath.values()];
}

/** The distinct agents of the cells whose checkpoint file is missing under `root` (cache entries aside). */
export const missingAgents = (cells: readonly Cell[], root: string = PUBLIC_DIR): NeededAgent[] =>
  distinctAgents(cells, (p) => !p.startsWith(CACHE_PREFIX) && !existsSync(join(root, p)));

/** The distinct cache entries (`@cache/KEY.ckpt`) the cells' agents by axes need. */
export const cacheAgents = (cells: readonly Cell[]): NeededAgent[] =>
  distinctAgents(cells, (p) => p.startsWith(CACHE_PREFIX));

/** The default builder: pretrain (CPU, deterministic) an agent whose checkpoint path is the canonical one. */
export const pretrainBuilder: CheckpointBuilder = async (need, root, log) => {
  const { spec, task } = need;
  const canonical = checkpointPath(task, spec.family, spec.size, spec.seed);
  if (spec.checkpoint !== canonical || spec.view !== getFamily(spec.family).view) {
    throw new Error(
      `checkpoint ${spec.checkpoint} is missing and cannot be built: only a family's own view at the canonical path (${canonical}) can be pretrained here; make it with npm run pretrain or fix the path`,
    );
  }
  const [{ CpuBackend }, { pretrainAgent }] = await Promise.all([
    import('../engine/cpu/cpuBackend'),
    import('../cohort/pretrain'),
  ]);
  const t0 = performance.now();
  const r = await pretrainAgent(new CpuBackend(), spec, task);
  r.agent.model.free();
  writeFileUnder(root, spec.checkpoint, r.bytes);
  log(
    `built ${spec.checkpoint} (${spec.family}.${spec.size} seed ${spec.seed}, ${r.meta.steps} steps, val acc ${r.meta.valAccuracy.toFixed(3)}) in ${((performance.now() - t0) / 1000).toFixed(0)} s, for cells ${need.cells.join(', ')}`,
  );
};

/**
 * Build every missing checkpoint once (`builder`, default pretrainBuilder), then check every cell's
 * checkpoints. Returns the problems, each naming its cell; [] when every cell can run.
 */
export async function prepareCheckpoints(
  cells: readonly Cell[],
  opts: {
    root?: string;
    builder?: CheckpointBuilder;
    log?: (s: string) => void;
    /** The sweep's engine, which builds the missing cache entries (default wasm, as a sweep's). */
    backend?: SweepBackend;
    /** The cache folder (default DEFAULT_CACHE_DIR: $CORL_CACHE_DIR or .cache/checkpoints). */
    cacheDir?: string;
    /** Builders of the missing cache entries, side by side (default 1: one build after the other). */
    workers?: number;
  } = {},
): Promise<string[]> {
  const root = opts.root ?? PUBLIC_DIR;
  const cacheDir = opts.cacheDir ?? DEFAULT_CACHE_DIR;
  const log = opts.log ?? ((s: string) => void process.stderr.write(`${s}\n`));
  const errs: string[] = [];
  const missing = missingAgents(cells, root);
  if (missing.length)
    log(
      `${missing.length} base checkpoint${missing.length > 1 ? 's' : ''} missing; building each once before the cells run`,
    );
  for (const need of missing) {
    try {
      await (opts.builder ?? pretrainBuilder)(need, root, log);
    } catch (e) {
      errs.push(`cells ${need.cells.join(', ')}: agent ${need.spec.id}: ${(e as Error).message}`);
    }
  }
  const cached = cacheAgents(cells);
  if (cached.length) {
    const { buildCacheEntries } = await import('./cacheBuilds'); // the engine and the pool only when needed
    errs.push(...(await buildCacheEntries(cached, opts.backend ?? 'wasm', cacheDir, opts.workers ?? 1, log)));
  }
  if (errs.length) return errs;
  const cache = new Map<string, Promise<Uint8Array>>();
  const base = cacheReader(cacheDir, nodeReader(root));
  const read = (p: string): Promise<Uint8Array> => cache.get(p) ?? (cache.set(p, base(p)), cache.get(p)!);
  for (const c of cells) {
    const v = await validateExperiment(c.raw, read);
    if (!v.ok) for (const e of v.errors) errs.push(`cell ${c.index} (${c.label}): ${e}`);
  }
  return errs;
}
