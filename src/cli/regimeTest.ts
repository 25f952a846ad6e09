// `npm run regime-test-config -- --gate-b DIR,DIR [--out FILE] [--dry]`: write the registered test sweep of
// experiments/regime/PREREG.md (src/sweep/testSweep.ts) from its parts: the two candidate presets
// (experiments/regime/candidates/), their regime gates as `npm run regime` measured them on validation
// (docs/data/regime/candidates.json), and the recipe gate B chooses over the grids by the pre-registered
// rule (src/sweep/gateBGrid.ts). Refuses while a grid has cells to run (the choice would be provisional) and
// when no recipe passes; `--dry` prints the sweep (and says why it would refuse) without writing it.
// Exit 0 when written (or printed with --dry), 1 when refused, 2 on bad input.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parseArgs } from '../util/args';
import { gateBInputError, readGateBGrid, registeredRecipe, testCostSeconds } from '../sweep/gateBGrid';
import { registeredTestSweep, TEST_PROTOCOL, type TestPreset } from '../sweep/testSweep';

const USAGE =
  'usage: npm run regime-test-config -- --gate-b GRID_DIR[,GRID_DIR...] [--out experiments/regime/test.sweep.json] [--dry]';

/** The presets PREREG.md names, in its order (the first is the one nearest to the regime). */
const CANDIDATES = ['nearest-muladdw-different-family', 'nearest-addw-different-arch'];
const CANDIDATE_DIR = 'experiments/regime/candidates';
const GATES_FILE = 'docs/data/regime/candidates.json';
/** Where the registered config lives in this repository: its prettier config is the one to write it in. */
const REPO_FILE = fileURLToPath(new URL('../../experiments/regime/test.sweep.json', import.meta.url));

interface GateLine {
  id: string;
  status: string;
  detail: string;
}

/** A candidate with its measured gates (one line: which pass, which fail with the figures). */
function candidate(
  name: string,
  measured: Map<string, { gates: GateLine[]; inRegime: boolean; where: string }>,
): TestPreset {
  const file = `${CANDIDATE_DIR}/${name}.json`;
  if (!existsSync(file)) throw gateBInputError(`${file} is missing: the pre-registration names this preset`);
  const m = measured.get(name);
  if (!m)
    throw gateBInputError(
      `${GATES_FILE} has no regime report of ${name}; measure it first (npm run regime -- --config ${file} --split validation --problems 1000 --json ${GATES_FILE})`,
    );
  const pass = m.gates.filter((g) => g.status === 'pass').map((g) => g.id);
  const fail = m.gates.filter((g) => g.status !== 'pass').map((g) => `${g.id} ${g.status} (${g.detail})`);
  return {
    name,
    config: JSON.parse(readFileSync(file, 'utf8')),
    gatesPass: m.inRegime,
    note: `${m.where}: ${pass.length ? `${pass.join(', ')} pass` : 'no gate passes'}${fail.length ? `; ${fail.join('; ')}` : ''} (${GATES_FILE})`,
  };
}

function measuredGates(): Map<string, { gates: GateLine[]; inRegime: boolean; where: string }> {
  if (!existsSync(GATES_FILE))
    throw gateBInputError(`${GATES_FILE} is missing (the candidates' regime reports)`);
  const rows = JSON.parse(readFileSync(GATES_FILE, 'utf8')) as {
    name: string;
    report: { split: string; problems: number; verdict: { gates: GateLine[]; inRegime: boolean } };
  }[];
  return new Map(
    rows.map((r) => [
      r.name,
      {
        gates: r.report.verdict.gates,
        inRegime: r.report.verdict.inRegime,
        where: `gates A on ${r.report.split}, ${r.report.problems} problems`,
      },
    ]),
  );
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const dry = argv.includes('--dry');
  let o: Record<string, string>;
  try {
    o = parseArgs(
      argv.filter((a) => a !== '--dry'),
      ['gate-b', 'out'],
      USAGE,
    );
  } catch (e) {
    throw gateBInputError((e as Error).message);
  }
  if (!o['gate-b']) throw gateBInputError(`missing --gate-b\n${USAGE}`);
  const grids = o['gate-b'].split(',').map(readGateBGrid);
  const chosen = registeredRecipe(grids);
  const measured = measuredGates();
  const presets = CANDIDATES.map((n) => candidate(n, measured));
  const refusals: string[] = [];
  if (chosen.incomplete.length)
    refusals.push(`gate B is not complete: ${chosen.incomplete.join('; ')}; resume its sweeps first`);
  if (!chosen.recipe) refusals.push(chosen.source);
  process.stderr.write(
    `recipe (${chosen.source}${chosen.incomplete.length ? ', provisional' : ''}): ${JSON.stringify(chosen.recipe)}\n`,
  );
  if (!chosen.recipe) {
    process.stderr.write(`refused: ${refusals.join('; ')}\n`);
    return 1;
  }
  const sweep = registeredTestSweep(presets, chosen.recipe);
  const P = TEST_PROTOCOL;
  const cells = presets.length * P.baseSeeds.length * P.rlSeeds.length;
  const cost = testCostSeconds(grids, chosen.recipe, cells, P.methods.length);
  process.stderr.write(
    cost === null
      ? 'estimated cost: unknown (a grid has no timed cell of this recipe)\n'
      : `estimated cost: about ${(cost / 3600).toFixed(1)} h on 2 cores (gate B's cells of this recipe, x ${P.methods.length}/2 methods, ${cells} cells, 2 at a time; a lower bound: co-rl-frozen also rolls out its frozen copies; PREREG.md caps it at about 6 h, beyond which the grid runs longer and the cost is reported)\n`,
  );
  const out = o.out ?? 'experiments/regime/test.sweep.json';
  // In the repository's own formatting (its .prettierrc.json, wherever --out points), so `npm run lint`
  // (prettier --check experiments) passes on the file as written and committed.
  const text = await format(JSON.stringify(sweep), {
    ...(await resolveConfig(REPO_FILE)),
    filepath: REPO_FILE,
  });
  if (dry) {
    process.stdout.write(text);
    if (refusals.length) process.stderr.write(`would refuse to write it: ${refusals.join('; ')}\n`);
    return 0;
  }
  if (refusals.length) {
    process.stderr.write(`refused: ${refusals.join('; ')}\n`);
    return 1;
  }
  writeFileSync(out, text);
  process.stderr.write(
    `wrote ${out}: ${CANDIDATES.length} presets x 4 base seeds x 2 RL seeds; commit it before its first cell runs\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit((e as { code?: number }).code === 2 ? 2 : 1);
  },
);
