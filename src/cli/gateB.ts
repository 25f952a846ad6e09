// `npm run gate-b -- --dir DIR [--json FILE]`: gate B of docs/method.md ("The regime") over the cell
// records of an optimizer sweep (methods gt and random only, every recipe over its RL seeds): each recipe's
// GT gain, random gain and random's largest KL, pass or fail with the reason, and the chosen recipe.
// Exit 0 when a recipe passes, 1 when none does, 2 on bad input.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from '../util/args';
import { listRecords } from '../sweep/store';
import { formatGateB, gateB } from '../sweep/gateB';

const USAGE = 'usage: npm run gate-b -- --dir SWEEP_OUT_DIR [--json FILE]';

function main(): void {
  const o = parseArgs(process.argv.slice(2), ['dir', 'json'], USAGE);
  if (!o.dir) throw Object.assign(new Error(`missing --dir\n${USAGE}`), { code: 2 });
  if (!existsSync(join(o.dir, 'cells')))
    throw Object.assign(
      new Error(`--dir ${o.dir}: no cells/ folder there; give the --out folder of a sweep`),
      {
        code: 2,
      },
    );
  const records = listRecords(o.dir);
  const bad = records.filter(
    (r) => r.result && !r.result.config.methods.every((m) => m === 'gt' || m === 'random'),
  );
  if (bad.length)
    throw Object.assign(
      new Error(
        `gate B is chosen with gt and random only; these cells train other methods: ${bad.map((r) => r.label).join(', ')}`,
      ),
      { code: 2 },
    );
  const r = gateB(records);
  process.stdout.write(`${formatGateB(r)}\n`);
  if (o.json) writeFileSync(o.json, `${JSON.stringify(r, null, 1)}\n`);
  process.exit(r.chosen ? 0 : 1);
}

try {
  main();
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit((e as { code?: number }).code === 2 ? 2 : 1);
}
