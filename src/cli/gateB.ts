// `npm run gate-b -- --dir DIR[,DIR...] [--json FILE]`: gate B of docs/method.md ("The regime") over the
// cell records of optimizer sweeps (methods gt and random only, every recipe over its RL seeds), one grid
// per task kind: each recipe's GT gain, random gain and random's largest KL, pass or fail with the reason,
// and the chosen recipe; with several grids, a recipe passes only where it passes on every one. A grid with
// cells still to run gives a provisional choice, said so. Exit 0 when a recipe is chosen over complete
// grids, 1 when none passes or a grid is incomplete, 2 on bad input.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from '../util/args';
import { listRecords, readManifest } from '../sweep/store';
import { combineGateB, formatCombinedGateB, formatGateB, gateB, type GateBReport } from '../sweep/gateB';

const USAGE = 'usage: npm run gate-b -- --dir SWEEP_OUT_DIR[,SWEEP_OUT_DIR...] [--json FILE]';

const inputError = (message: string) => Object.assign(new Error(message), { code: 2 });

/** One grid's gate B and how many of its cells have results. */
function readGrid(dir: string): { name: string; report: GateBReport; have: number; cells: number } {
  if (!existsSync(join(dir, 'cells')))
    throw inputError(`--dir ${dir}: no cells/ folder there; give the --out folder of a sweep`);
  const records = listRecords(dir);
  const bad = records.filter(
    (r) => r.result && !r.result.config.methods.every((m) => m === 'gt' || m === 'random'),
  );
  if (bad.length)
    throw inputError(
      `${dir}: gate B is chosen with gt and random only; these cells train other methods: ${bad.map((r) => r.label).join(', ')}`,
    );
  const manifest = readManifest(dir);
  const ids = new Set(records.filter((r) => r.status === 'done').map((r) => r.id));
  const cells = manifest ? manifest.cells.length : records.length;
  const have = manifest ? manifest.cells.filter((c) => ids.has(c.id)).length : ids.size;
  return { name: manifest?.name ?? dir, report: gateB(records), have, cells };
}

function main(): void {
  const o = parseArgs(process.argv.slice(2), ['dir', 'json'], USAGE);
  if (!o.dir) throw inputError(`missing --dir\n${USAGE}`);
  const grids = o.dir.split(',').map(readGrid);
  for (const g of grids) {
    process.stdout.write(`## ${g.name}: ${g.have} of ${g.cells} cells done\n\n${formatGateB(g.report)}\n\n`);
  }
  const combined = grids.length > 1 ? combineGateB(grids) : null;
  if (combined) process.stdout.write(`## Over every grid\n\n${formatCombinedGateB(combined)}\n\n`);
  const incomplete = grids.filter((g) => g.have < g.cells);
  const chosen = combined ? combined.chosen : grids[0].report.chosen;
  if (incomplete.length)
    process.stdout.write(
      `Provisional: ${incomplete.map((g) => `${g.name} has ${g.have} of ${g.cells} cells`).join('; ')}. The choice is the rule's only over whole grids; resume with npm run sweep -- --config ... --out DIR.\n`,
    );
  if (o.json)
    writeFileSync(
      o.json,
      `${JSON.stringify({ grids: grids.map(({ name, report, have, cells }) => ({ name, have, cells, ...report })), combined, complete: !incomplete.length }, null, 1)}\n`,
    );
  process.exit(chosen && !incomplete.length ? 0 : 1);
}

try {
  main();
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit((e as { code?: number }).code === 2 ? 2 : 1);
}
