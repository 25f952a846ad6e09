// `npx tsx src/sweep/speedup.ts [--cells 4] [--steps 40]`: the local pool's throughput with 1 worker and
// with 2 on the same cells (fresh folders, same sweep), as cells per hour and their ratio (issue 14:
// >= 1.7x on a 2-core machine), with the load average before and after, since a shared machine skews it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from '../util/args';
import { sweepCommand } from './pool';

const [node, ...sweepArgs] = sweepCommand([]);

const o = parseArgs(
  process.argv.slice(2),
  ['cells', 'steps'],
  'usage: npx tsx src/sweep/speedup.ts [--cells 4] [--steps 40]',
);
const cells = Number(o.cells ?? 4);
const steps = Number(o.steps ?? 40);
const root = mkdtempSync(join(tmpdir(), 'sweep-speedup-'));
const cfg = join(root, 'sweep.json');
writeFileSync(
  cfg,
  JSON.stringify({
    name: 'speedup',
    steps,
    methods: ['co-rl', 'ttrl'],
    cohort: { preset: 'paper-demo' },
    train: { batchPrompts: 8, samples: 4 },
    eval: { every: 0, problems: 50, ensembleSamples: 2 },
    grid: { seed: Array.from({ length: cells }, (_, i) => i + 1) },
  }),
);
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const rate = (workers: number): number => {
  const t0 = performance.now();
  const r = spawnSync(
    node,
    [
      ...sweepArgs,
      '--config',
      cfg,
      '--out',
      join(root, `w${workers}`),
      '--workers',
      String(workers),
      '--no-png',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`sweep with ${workers} workers failed:\n${r.stderr}`);
  const s = (performance.now() - t0) / 1000;
  const perHour = (cells / s) * 3600;
  process.stdout.write(
    `${workers} worker${workers > 1 ? 's' : ''}: ${cells} cells in ${s.toFixed(1)} s = ${perHour.toFixed(0)} cells/hour (load average ${load()})\n`,
  );
  return perHour;
};
process.stdout.write(
  `sweep speedup: ${cells} cells of ${steps} steps (co-rl + ttrl, paper-demo); load average before ${load()}\n`,
);
const one = rate(1);
const two = rate(2);
process.stdout.write(`2 workers / 1 worker: ${(two / one).toFixed(2)}x cells per hour\n`);
rmSync(root, { recursive: true, force: true });
