// `npm run gate-b -- --dir DIR[,DIR...] [--json FILE]`: gate B of docs/method.md ("The regime") over the
// cell records of optimizer sweeps (methods gt and random only, every recipe over its RL seeds), one grid
// per task kind: each recipe's GT gain, random gain and random's largest KL, pass or fail with the reason,
// and the chosen recipe; with several grids, a recipe passes only where it passes on every one. A grid with
// cells still to run gives a provisional choice, said so. Exit 0 when a recipe is chosen over complete
// grids, 1 when none passes or a grid is incomplete, 2 on bad input.
import { writeFileSync } from 'node:fs';
import { parseArgs } from '../util/args';
import { combineGateB, formatCombinedGateB, formatGateB } from '../sweep/gateB';
import { gateBInputError as inputError, readGateBGrid as readGrid } from '../sweep/gateBGrid';

const USAGE = 'usage: npm run gate-b -- --dir SWEEP_OUT_DIR[,SWEEP_OUT_DIR...] [--json FILE]';

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
