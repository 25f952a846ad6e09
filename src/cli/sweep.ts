// `npm run sweep -- --config SWEEP.json --out DIR [--workers N] [--force] [--no-png]`: a grid of
// experiments (cohorts x seeds x methods x any experiment field), every cell in its own child process N
// at a time, resumable, then DIR/report.{md,json} and PNGs with the paper's claims checked. Also
// --list, --cell I (for any scheduler), --merge, and --slurm [--partition P] [--sbatch-args "..."]
// [--no-wait]. Exit status: 0 every cell done, 1 some failed, 2 invalid input (nothing run). docs/sweeps.md.
// Cells for any scheduler and on Slurm: docs/sweeps-schedulers.md.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { cellAt, PROGRESS_TAG, runCell } from '../sweep/cell';
import { prepareCheckpoints } from '../sweep/checkpoints';
import { promptNotices } from '../sweep/promptNotice';
import { loadConfig, planAndGate, planOrThrow, runSweep, SweepInputError, writeReport } from '../sweep/run';
import { claimDir, readManifest, readRecord } from '../sweep/store';

const USAGE = `usage: npm run sweep -- --config SWEEP.json --out DIR [--workers N] [--force] [--no-png]
       npm run sweep -- --config SWEEP.json [--out DIR] --list
       npm run sweep -- [--config SWEEP.json] --out DIR --cell I
       npm run sweep -- [--config SWEEP.json] --out DIR --merge [--no-png]
       npm run sweep -- --config SWEEP.json --out DIR --slurm [--partition P] [--sbatch-args "..."] [--no-wait]`;
const VALUED = ['config', 'out', 'workers', 'cell', 'partition', 'sbatch-args'];
const FLAGS = ['list', 'merge', 'force', 'slurm', 'no-wait', 'no-png'];

function cliArgs(argv: string[]): Record<string, string | true> {
  const o: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (!argv[i].startsWith('--') || (!VALUED.includes(k) && !FLAGS.includes(k)))
      throw new SweepInputError([`unknown argument ${argv[i]}\n${USAGE}`]);
    if (FLAGS.includes(k)) o[k] = true;
    else if (argv[i + 1] === undefined) throw new SweepInputError([`--${k} needs a value\n${USAGE}`]);
    else o[k] = argv[++i];
  }
  if (!o.out && !o.list) throw new SweepInputError([`missing --out DIR\n${USAGE}`]);
  if (!o.config && !o.out) throw new SweepInputError([`missing --config SWEEP.json\n${USAGE}`]);
  const modes = ['list', 'merge', 'cell', 'slurm'].filter((m) => o[m] !== undefined);
  if (modes.length > 1)
    throw new SweepInputError([`--${modes.join(' and --')} cannot be combined\n${USAGE}`]);
  for (const [k, f] of [
    ['partition', 'slurm'],
    ['sbatch-args', 'slurm'],
    ['no-wait', 'slurm'],
  ])
    if (o[k] && !o[f]) throw new SweepInputError([`--${k} needs --${f}`]);
  if (o.workers !== undefined && !(Number.isInteger(Number(o.workers)) && Number(o.workers) >= 1))
    throw new SweepInputError([`--workers must be an integer >= 1, got ${o.workers}`]);
  if (o.cell !== undefined && !/^\d+$/.test(String(o.cell)))
    throw new SweepInputError([`--cell must be a cell index (0, 1, ...), got ${o.cell}`]);
  return o;
}

async function list(o: Record<string, string | true>, raw: unknown): Promise<number> {
  const plan = planOrThrow(raw);
  const dir = typeof o.out === 'string' ? resolve(o.out) : null;
  process.stdout.write(
    `sweep ${plan.name} (${plan.hash}): ${plan.cells.length} cells over ${plan.axes.join(', ')}\n`,
  );
  for (const c of plan.cells) {
    const rec = dir ? readRecord(dir, c.id) : null;
    process.stdout.write(
      `${String(c.index).padStart(4)}  ${c.id}  ${(rec?.status ?? (dir ? 'todo' : '')).padEnd(6)}  ${c.label}\n`,
    );
  }
  return 0;
}

async function cell(o: Record<string, string | true>, dir: string, raw: unknown): Promise<number> {
  // the pre-registration gate again: a scheduler's cell never runs under a modified PREREG
  const { plan, prereg } = planAndGate(raw);
  const c = cellAt(plan, Number(o.cell));
  claimDir(dir, plan, raw, o.force === true);
  const errs = await prepareCheckpoints([c], { backend: plan.backend }); // fetches its cache entries, builds only missing ones
  if (errs.length) throw new SweepInputError(errs);
  const report = process.env.SWEEP_PROGRESS === '1';
  let last = -1;
  const rec = await runCell(
    dir,
    plan,
    c.index,
    (d, t) => {
      if (report) process.stdout.write(`${PROGRESS_TAG}${JSON.stringify([d, t])}\n`);
      const pct = Math.floor((20 * d) / t);
      if (pct !== last) process.stderr.write(`cell ${c.index}: ${d}/${t}\n`);
      last = pct;
    },
    prereg,
  );
  process.stderr.write(
    `cell ${c.index} (${c.label}): ${rec.status}${rec.error ? `: ${rec.error}` : ''} in ${rec.seconds.toFixed(1)} s -> ${dir}/cells/${c.id}.json\n`,
  );
  return rec.status === 'done' ? 0 : 1;
}

async function main(): Promise<number> {
  const o = cliArgs(process.argv.slice(2));
  const dir = typeof o.out === 'string' ? resolve(o.out) : '';
  const raw = loadConfig(typeof o.config === 'string' ? o.config : undefined, dir);
  if (o.list) return list(o, raw);
  if (o.cell !== undefined) return cell(o, dir, raw);
  const png = o['no-png'] !== true;
  if (o.merge) {
    const plan = planOrThrow(raw);
    const m = readManifest(dir);
    if (m && m.hash !== plan.hash && o.force !== true)
      throw new SweepInputError([
        `${dir} holds another sweep ("${m.name}", ${m.hash}) than ${o.config} (${plan.hash}); leave out --config to merge the sweep in ${dir}, or --force`,
      ]);
    claimDir(dir, plan, raw, o.force === true);
    const r = await writeReport(dir, readManifest(dir)!, png);
    process.stdout.write(
      `report of ${r.counts.done} done, ${r.counts.failed} failed, ${r.counts.missing} missing cells: ${dir}/report.md, report.json\n`,
    );
    return r.counts.done === r.sweep.cells ? 0 : 1;
  }
  const { plan } = planAndGate(raw); // cells stamp their records when they re-check the gate (--cell)
  for (const n of promptNotices(plan.cells)) process.stdout.write(`notice: ${n}\n`);
  const slurm = o.slurm
    ? {
        partition: o.partition as string | undefined,
        sbatchArgs: o['sbatch-args'] as string | undefined,
        noWait: o['no-wait'] === true,
      }
    : undefined;
  const workers = o.workers ? Number(o.workers) : availableParallelism();
  const r = await runSweep(raw, plan, { dir, workers, force: o.force === true, png, slurm });
  if (!r) return 0;
  process.stdout.write(
    `${r.counts.done}/${r.sweep.cells} cells done, ${r.counts.failed} failed: ${dir}/report.md, report.json\n`,
  );
  for (const c of r.claims) process.stdout.write(`  claim ${c.n}: ${c.status.padEnd(13)} ${c.claim}\n`);
  for (const c of r.cells.filter((x) => x.status !== 'done'))
    process.stdout.write(`  cell ${c.index} (${c.label}) ${c.status}: ${c.error ?? ''}\n`);
  return r.counts.done === r.sweep.cells ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof SweepInputError) {
      process.stderr.write(
        `sweep: ${e.problems.length} problem${e.problems.length === 1 ? '' : 's'}; nothing was run:\n  - ${e.problems.join('\n  - ')}\n`,
      );
      process.exit(2);
    }
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
