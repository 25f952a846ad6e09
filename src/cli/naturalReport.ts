// `npm run natural-report -- [--runs DIR] [--overlap-dir DIR]`: the natural presets' RL tables of
// docs/natural-rl-history.md from the run files of `experiments/natural-rl/run.sh` (DIR/TASK-PRESET-sSEED.json and
// the 1-step portrait runs DIR/TASK-PRESET-portrait.json) and the overlap reports
// (OVERLAP_DIR/natural-overlap-TASK.json). Markdown on stdout; a missing file is named on stderr.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from '../util/args';
import { formatNaturalReport, runFailures, type PresetRuns } from '../sweep/naturalReport';
import type { ExperimentResult } from '../rl/experiment';
import type { PaperOverlapReport } from '../cohort/paperOverlap';

const USAGE = 'usage: npm run natural-report -- [--runs DIR (runs/natural)] [--overlap-dir DIR (docs)]';
const TASKS = ['addw', 'muladdw'];
const PRESETS = [
  'seed-only',
  'same-family',
  'different-arch',
  'different-family',
  'different-family-plus',
  'ring',
];

function main(): void {
  const o = parseArgs(process.argv.slice(2), ['runs', 'overlap-dir'], USAGE);
  const dir = o.runs ?? 'runs/natural';
  const odir = o['overlap-dir'] ?? 'docs';
  if (!existsSync(dir))
    throw new Error(`no run folder ${dir}; run experiments/natural-rl/run.sh first (${USAGE})`);
  const files = readdirSync(dir);
  const read = (f: string): ExperimentResult =>
    JSON.parse(readFileSync(join(dir, f), 'utf8')) as ExperimentResult;
  for (const task of TASKS) {
    const presets: PresetRuns[] = [];
    for (const preset of PRESETS) {
      const seeds = files.filter((f) => new RegExp(`^${task}-${preset}-s\\d+\\.json$`).test(f)).sort();
      if (!seeds.length) {
        process.stderr.write(`no runs of ${task}-${preset} in ${dir}\n`);
        continue;
      }
      const runs = seeds.map(read);
      for (const line of runFailures(`${task}-${preset}`, seeds, runs)) process.stderr.write(`${line}\n`);
      const portrait = files.includes(`${task}-${preset}-portrait.json`)
        ? read(`${task}-${preset}-portrait.json`)
        : undefined;
      presets.push({ task, preset, runs, portrait });
    }
    const ofile = join(odir, `natural-overlap-${task}.json`);
    const overlap = existsSync(ofile)
      ? (JSON.parse(readFileSync(ofile, 'utf8')) as PaperOverlapReport)
      : undefined;
    if (presets.length) process.stdout.write(`${formatNaturalReport(task, presets, overlap)}\n\n`);
  }
}

try {
  main();
} catch (e) {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
