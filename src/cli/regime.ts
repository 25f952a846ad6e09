// `npm run regime -- --config FILE[,FILE...] | --preset NAME[,NAME...]|all [--split validation|test]
// [--samples K] [--temperature T] [--problems P] [--from N] [--seed N] [--json FILE] [--backend wasm|cpu|wasm-relaxed] [--build-backend ENGINE]`: the regime
// check of docs/method.md ("The regime") on a cohort's BASE agents, before any RL: per agent greedy,
// sampled, maj@K and pass@K accuracy, spread, vote calibration, zero-std groups and seed-only kappa; per
// pair reach and overlap; each with a 95% interval; gates A1-A5 and one sentence of what follows. K and T
// default to the config's train.samples and train.temperature (what its rollouts use). Agents by axes are
// built into the content-addressed cache first. Exit 2 on invalid input (nothing measured).
import { readFileSync, writeFileSync } from 'node:fs';
import * as v from 'valibot';
import { problemsWith } from '../schema';
import { parseArgs } from '../util/args';
import { withAxisAgents } from './axisCohort';
import { workersArg } from '../rl/pool/nodePool';
import { poolSizeProblems } from '../rl/pool/poolModels';
import { makeNodeBackend, nodeBackendName, type NodeBackendName } from '../engine/wasm/nodeBackend';
import { CohortLoader, validateExperiment } from '../rl/cohortEnv';
import { PRESET_NAMES } from '../cohort';
import { makeTask } from '../tasks';
import { regimeCheck, regimeOptionErrors, type RegimeReport } from '../rl/regime/measure';
import { promptsNote } from '../rl/unseenPrompts';
import { formatRegimeReport, formatRegimeSummary } from '../rl/regime/format';
import { taskFileOrExit } from './taskFile';

const USAGE =
  "usage: npm run regime -- --config FILE[,FILE...] | --preset NAME[,NAME...]|all [--split validation|test] [--samples K] [--temperature T] [--problems 1000] [--from 0 (index of the first problem measured: problems N..N+P-1, a slice disjoint from an earlier read)] [--seed 1] [--json FILE] [--backend wasm|cpu|wasm-relaxed] [--build-backend ENGINE (agents by axes: the engine whose cache entries are used, default --backend)] [--workers N (builders of missing agents by axes, side by side; default the machine's cores)]";

/** Thrown for bad input: printed with every problem, exit 2. */
class InputError extends Error {}

/** One cohort to check: a name and its raw experiment config. */
interface Target {
  name: string;
  raw: Record<string, unknown>;
}

function targets(o: Record<string, string>): Target[] {
  if (o.config && o.preset) throw new InputError(`--config and --preset cannot be combined\n${USAGE}`);
  if (o.preset) {
    const names = o.preset === 'all' ? PRESET_NAMES : o.preset.split(',');
    const bad = names.filter((n) => !PRESET_NAMES.includes(n));
    if (bad.length)
      throw new InputError(
        `--preset: unknown preset ${bad.map((b) => `'${b}'`).join(', ')} (valid: ${PRESET_NAMES.join(', ')}, or all)`,
      );
    return names.map((n) => ({
      name: n,
      raw: { name: n, seed: 1, steps: 1, methods: ['gt'], cohort: { preset: n } },
    }));
  }
  if (!o.config) throw new InputError(`missing --config FILE or --preset NAME\n${USAGE}`);
  return o.config.split(',').map((file) => {
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new InputError(
        `--config ${file}: cannot read it as JSON (${(e as Error).message}); give the path of an experiment config, e.g. experiments/paper-demo.json`,
      );
    }
    raw = taskFileOrExit(raw, file); // a file task: its file read, checked and hashed
    // the regime check never trains: any method list the cohort allows will do
    const n = (raw.cohort as { agents?: unknown[] } | undefined)?.agents?.length;
    return {
      name: typeof raw.name === 'string' ? raw.name : file,
      raw: n === 1 ? { ...raw, methods: ['gt'] } : raw,
    };
  });
}

function num(o: Record<string, string>, k: string): number | undefined {
  return o[k] === undefined ? undefined : Number(o[k]);
}

async function checkOne(
  t: Target,
  o: Record<string, string>,
  engine: NodeBackendName,
  buildEngine: NodeBackendName = engine,
  workers = 1,
): Promise<RegimeReport> {
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  const read = await withAxisAgents(t.raw, t.name, buildEngine, workers);
  const v = await validateExperiment(read.raw, read.reader);
  if (!v.ok)
    throw new InputError(
      `${t.name}: ${v.errors.length} problem${v.errors.length === 1 ? '' : 's'}; nothing was measured:\n  - ${v.errors.join('\n  - ')}`,
    );
  const K = num(o, 'samples') ?? v.config.train.samples;
  const T = num(o, 'temperature') ?? v.config.train.temperature;
  const split = (o.split ?? 'validation') as 'validation' | 'test';
  const P = num(o, 'problems') ?? 1000;
  if (!v.config.task)
    throw new InputError(`${t.name}: no task (config.task is null and the cohort defines none)`);
  const task = makeTask(v.config.task);
  const be = await makeNodeBackend(engine);
  const agents = await new CohortLoader(read.reader, v.specs).load(be);
  if (agents.length === 1)
    log(
      `${t.name}: one agent: gate A3 (reach) needs a pair and is reported not measurable; the rest is measured`,
    );
  const prompts = promptsNote(v.config); // about the RL runs these agents would go on to, not a gate
  if (prompts) log(`${t.name}: notice: ${prompts}`);
  const t0 = performance.now();
  const first = num(o, 'from') ?? 0;
  const r = await regimeCheck(agents, task.heldOut(split, first + P).slice(first), split, {
    K,
    temperature: T,
    seed: num(o, 'seed') ?? 1,
    onAgent: (id, done, total) =>
      log(
        `${t.name}: agent ${id} drawn (${done}/${total}, ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      ),
  });
  for (const a of agents) a.model.free();
  be.destroy();
  return first ? { ...r, first } : r;
}

const argMsg = (what: string) => (i: v.BaseIssue<unknown>) => `must be ${what}, got '${i.input}'`;
/** An integer option >= min, given as text ("must be <what>, got '<text>'"). */
const intArg = (min: number, what: string) =>
  v.optional(
    v.pipe(
      v.string(argMsg(what)),
      v.check((t) => Number.isInteger(Number(t)) && Number(t) >= min, argMsg(what)),
    ),
  );
/** The options checked before anything is measured (schema layer); --samples and --temperature below. */
const ARGS = v.object({
  '--split': v.optional(
    v.picklist(
      ['validation', 'test'],
      argMsg("'validation' (every choice) or 'test' (reported figures only)"),
    ),
  ),
  '--problems': intArg(10, 'an integer >= 10'),
  '--seed': intArg(0, 'a non-negative integer'),
  '--from': intArg(0, 'a non-negative integer (the index of the first problem measured)'),
});

function checkArgs(o: Record<string, string>): void {
  const errs = problemsWith(ARGS, {
    '--split': o.split,
    '--problems': o.problems,
    '--seed': o.seed,
    '--from': o.from,
  });
  const opt: { K?: unknown; temperature?: unknown } = { K: 2, temperature: 1 };
  if (o.samples !== undefined) opt.K = num(o, 'samples');
  if (o.temperature !== undefined) opt.temperature = num(o, 'temperature');
  errs.push(...regimeOptionErrors(opt).map((e) => `--${e}`));
  if (o.workers !== undefined)
    errs.push(...poolSizeProblems(/^\d+$/.test(o.workers) ? Number(o.workers) : o.workers, '--workers'));
  if (errs.length)
    throw new InputError(
      `${errs.length} problem${errs.length === 1 ? '' : 's'}; nothing was measured:\n  - ${errs.join('\n  - ')}\n${USAGE}`,
    );
}

async function main(): Promise<void> {
  const o = parseArgs(
    process.argv.slice(2),
    [
      'config',
      'preset',
      'split',
      'samples',
      'temperature',
      'problems',
      'seed',
      'from',
      'json',
      'backend',
      'build-backend',
      'workers',
    ],
    USAGE,
  );
  checkArgs(o);
  const engine = nodeBackendName(o.backend) as NodeBackendName;
  const buildEngine = nodeBackendName(o['build-backend'] ?? engine) as NodeBackendName;
  const workers = workersArg(o.workers);
  const reports: { name: string; report: RegimeReport }[] = [];
  for (const t of targets(o)) {
    const report = await checkOne(t, o, engine, buildEngine, workers);
    reports.push({ name: t.name, report });
    process.stdout.write(`${formatRegimeReport(t.name, report)}\n\n`);
  }
  if (reports.length > 1) process.stdout.write(`${formatRegimeSummary(reports)}\n\n`);
  if (o.json) {
    writeFileSync(o.json, `${JSON.stringify(reports, null, 1)}\n`);
    process.stdout.write(`JSON written to ${o.json}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof InputError ? 2 : 1);
});
