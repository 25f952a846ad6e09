// `npm run regime-test-config -- --gate-b DIR,DIR [--out FILE] [--dry]`: write the registered test sweep of
// experiments/regime/PREREG.md (src/sweep/testSweep.ts) from its parts: the candidate presets
// (experiments/regime/candidates/), their regime gates as `npm run regime` measured them on validation
// (docs/data/regime/candidates.json), and the recipe gate B chooses over the grids by the pre-registered
// rule (src/sweep/gateBGrid.ts). A later pre-registration names its own file, sweep name, candidates, base
// seeds and gate reads (`--prereg`, `--name`, `--candidates`, `--base-seeds`, `--gates`); where the gate
// file has a read per base seed (rows with `baseSeed`), the preset passes only if every base seed's pair
// does. `--cell-per-method` makes each method a cell of its own (the same figures; see src/sweep/testSweep.ts).
// Refuses while a grid has cells to run (the choice would be provisional) and when no recipe
// passes; `--dry` prints the sweep (and says why it would refuse) without writing it.
// Exit 0 when written (or printed with --dry), 1 when refused, 2 on bad input.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parseArgs } from '../util/args';
import { gateBInputError, readGateBGrid, registeredRecipe, testCostSeconds } from '../sweep/gateBGrid';
import { registeredTestSweep, testProtocol, type TestPreset } from '../sweep/testSweep';

const USAGE =
  'usage: npm run regime-test-config -- --gate-b GRID_DIR[,GRID_DIR...] [--out experiments/regime/test.sweep.json] [--prereg FILE --name NAME --candidates NAME[,NAME...] --base-seeds N,N,N[,...] --gates FILE] [--cell-per-method] [--dry]';

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
interface GateRead {
  gates: GateLine[];
  inRegime: boolean;
  where: string;
  baseSeed?: number;
}

const gateLine = (m: GateRead): string => {
  const pass = m.gates.filter((g) => g.status === 'pass').map((g) => g.id);
  const fail = m.gates.filter((g) => g.status !== 'pass').map((g) => `${g.id} ${g.status} (${g.detail})`);
  return `${pass.length ? `${pass.join(', ')} pass` : 'no gate passes'}${fail.length ? `; ${fail.join('; ')}` : ''}`;
};

/**
 * A candidate with its measured gates (one line: which pass, which fail with the figures). With reads per
 * base seed, every base seed of the test needs one, and the preset passes only if each seed's pair passes.
 */
function candidate(
  name: string,
  measured: Map<string, GateRead[]>,
  gatesFile: string,
  baseSeeds: readonly number[],
): TestPreset {
  const file = `${CANDIDATE_DIR}/${name}.json`;
  if (!existsSync(file)) throw gateBInputError(`${file} is missing: the pre-registration names this preset`);
  const reads = measured.get(name);
  if (!reads)
    throw gateBInputError(
      `${gatesFile} has no regime report of ${name}; measure it first (npm run regime -- --config ${file} --split validation --problems 1000 --json ${gatesFile})`,
    );
  const config = JSON.parse(readFileSync(file, 'utf8'));
  const perSeed = reads.filter((r) => r.baseSeed !== undefined);
  if (!perSeed.length) {
    const m = reads[0];
    return { name, config, gatesPass: m.inRegime, note: `${m.where}: ${gateLine(m)} (${gatesFile})` };
  }
  const used = baseSeeds.map((s) => {
    const m = perSeed.find((r) => r.baseSeed === s);
    if (!m)
      throw gateBInputError(
        `${gatesFile} has no regime report of ${name} on base seed ${s}; read that pair on validation first (rows with "baseSeed": ${s})`,
      );
    return m;
  });
  return {
    name,
    config,
    gatesPass: used.every((m) => m.inRegime),
    note: `${used[0].where}, per base seed: ${used.map((m) => `seed ${m.baseSeed}: ${gateLine(m)}`).join(' | ')} (${gatesFile})`,
  };
}

function measuredGates(file: string): Map<string, GateRead[]> {
  if (!existsSync(file)) throw gateBInputError(`${file} is missing (the candidates' regime reports)`);
  const rows = JSON.parse(readFileSync(file, 'utf8')) as {
    name: string;
    baseSeed?: number;
    report: { split: string; problems: number; verdict: { gates: GateLine[]; inRegime: boolean } };
  }[];
  const out = new Map<string, GateRead[]>();
  for (const r of rows)
    out.set(r.name, [
      ...(out.get(r.name) ?? []),
      {
        gates: r.report.verdict.gates,
        inRegime: r.report.verdict.inRegime,
        where: `gates A on ${r.report.split}, ${r.report.problems} problems`,
        ...(r.baseSeed !== undefined ? { baseSeed: r.baseSeed } : {}),
      },
    ]);
  return out;
}

/** `--base-seeds 17,18,19,20` as numbers, or a message naming the bad entry. */
function baseSeedList(text: string): number[] {
  const seeds = text.split(',').map((t) => Number(t.trim()));
  const bad = text.split(',').find((t, i) => t.trim() === '' || !Number.isInteger(seeds[i]));
  if (bad !== undefined)
    throw gateBInputError(
      `--base-seeds ${JSON.stringify(text)}: ${JSON.stringify(bad)} is not a whole number`,
    );
  return seeds;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const dry = argv.includes('--dry');
  const cellPerMethod = argv.includes('--cell-per-method');
  let o: Record<string, string>;
  try {
    o = parseArgs(
      argv.filter((a) => a !== '--dry' && a !== '--cell-per-method'),
      ['gate-b', 'out', 'prereg', 'name', 'candidates', 'base-seeds', 'gates'],
      USAGE,
    );
  } catch (e) {
    throw gateBInputError((e as Error).message);
  }
  if (!o['gate-b']) throw gateBInputError(`missing --gate-b\n${USAGE}`);
  const grids = o['gate-b'].split(',').map(readGateBGrid);
  const chosen = registeredRecipe(grids);
  let P;
  try {
    P = testProtocol({
      ...(o.prereg ? { prereg: o.prereg } : {}),
      ...(o.name ? { name: o.name } : {}),
      ...(o['base-seeds'] ? { baseSeeds: baseSeedList(o['base-seeds']) } : {}),
      ...(cellPerMethod ? { cellPerMethod } : {}),
    });
  } catch (e) {
    throw gateBInputError((e as Error).message);
  }
  if (!existsSync(P.prereg)) throw gateBInputError(`--prereg ${P.prereg}: no such file`);
  const gatesFile = o.gates ?? GATES_FILE;
  const names = o.candidates ? o.candidates.split(',') : CANDIDATES;
  const measured = measuredGates(gatesFile);
  const presets = names.map((n) => candidate(n, measured, gatesFile, P.baseSeeds));
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
  const sweep = registeredTestSweep(presets, chosen.recipe, P);
  const perCell = cellPerMethod ? 1 : P.methods.length; // methods a cell trains
  const perPreset = P.baseSeeds.length * P.rlSeeds.length * (P.methods.length / perCell);
  const cells = presets.length * perPreset;
  const tasks = presets.map((p) => String((p.config.task as { kind?: unknown } | undefined)?.kind));
  const cost = testCostSeconds(grids, chosen.assign ?? {}, tasks, perPreset, perCell);
  process.stderr.write(
    cost === null
      ? 'estimated cost: unknown (a grid has no timed cell of this recipe)\n'
      : `estimated cost: about ${(cost / 3600).toFixed(1)} h on 2 cores (gate B's cells of this recipe on each preset's task kind, x ${perCell}/2 methods, ${cells} cells, 2 at a time; a lower bound: co-rl-frozen also rolls out its frozen copies; the pre-registration caps it at about 6 h, beyond which the grid runs longer and the cost is reported)\n`,
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
    `wrote ${out}: ${presets.length} preset(s) x ${P.baseSeeds.length} base seeds x ${P.rlSeeds.length} RL seeds${cellPerMethod ? ` x ${P.methods.length} methods, a cell each` : ''}; commit it before its first cell runs\n`,
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
