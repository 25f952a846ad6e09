// `npm run overlap -- --preset NAME|all [--problems 500] [--samples K] [--json FILE] [--dir DIR] [--backend wasm|cpu]`: load a preset's
// shipped base checkpoints (DIR, default public/), score every agent greedily on the same first P
// problems of the task's held-out eval order, and print per-agent accuracy (overall and per data
// region) and every pair's four cells, Cohen's kappa, c, u and w (docs/method.md ("Diversity and error overlap")) as markdown, then
// the same figures as JSON (to FILE with --json, else on stdout after the tables). --samples K adds
// each agent's mean accuracy of K samples per problem at temperature 1 (what RL rollouts start from).
import { parseArgs } from '../util/args';
import { readFileSync, writeFileSync } from 'node:fs';
import { makeNodeBackend, nodeBackendName, type NodeBackendName } from '../engine/wasm/nodeBackend';
import { buildAxisCohort, readAxisCohort } from './axisCohort';
import { workersArg } from '../rl/pool/nodePool';
import { formatPaperOverlap, paperOverlap } from '../cohort/paperOverlap';
import {
  agentFromCheckpoint,
  cohortOverlap,
  formatOverlapReport,
  loadPresetAgents,
  manifestPreset,
  PRESET_NAMES,
  getPreset,
  readManifest,
  type OverlapReport,
} from '../cohort';
import { nodeReader, PUBLIC_DIR } from '../cohort/nodeFiles';
import { describeTaskConfig, makeTask } from '../tasks';

const USAGE =
  'usage: npm run overlap -- --preset NAME|all [--problems 500] [--samples K] [--json FILE] [--dir DIR] [--backend wasm|cpu]  |  --config FILE [--problems 500] [--temperature 0.8] [--json FILE] [--cache DIR] [--backend wasm|cpu] [--workers N]';

async function main(): Promise<void> {
  const o = parseArgs(
    process.argv.slice(2),
    ['preset', 'problems', 'samples', 'json', 'dir', 'config', 'temperature', 'cache', 'backend', 'workers'],
    USAGE,
  );
  if (o.config) return configOverlap(o);
  if (o.workers !== undefined)
    throw new Error(
      `--workers builds a --config's missing agents side by side; --preset reads shipped ones. ${USAGE}`,
    );
  if (!o.preset)
    throw new Error(`missing --preset (valid presets: ${PRESET_NAMES.join(', ')}, or all); ${USAGE}`);
  const names = o.preset === 'all' ? PRESET_NAMES : o.preset.split(',');
  names.forEach((n) => getPreset(n));
  const P = o.problems === undefined ? 500 : Number(o.problems);
  if (!(Number.isInteger(P) && P > 0))
    throw new Error(`--problems must be a positive integer, got ${o.problems}`);
  const K = o.samples === undefined ? 0 : Number(o.samples);
  if (!(Number.isInteger(K) && K >= 0))
    throw new Error(`--samples must be a non-negative integer, got ${o.samples}`);
  const read = nodeReader(o.dir ?? PUBLIC_DIR);
  const manifest = await readManifest(read);
  const be = await makeNodeBackend(nodeBackendName(o.backend) as NodeBackendName);
  const reports: OverlapReport[] = [];
  for (const name of names) {
    const entry = manifestPreset(manifest, name);
    const task = makeTask(entry.task);
    const agents = await loadPresetAgents(be, read, name, manifest);
    const report = await cohortOverlap(name, describeTaskConfig(task.config), agents, task.evalSet(P), K);
    for (const a of agents) a.model.free();
    reports.push(report);
    process.stdout.write(`${formatOverlapReport(report)}\n\n`);
  }
  const json = JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2);
  if (o.json) {
    writeFileSync(o.json, `${json}\n`);
    process.stdout.write(`JSON written to ${o.json}\n`);
  } else process.stdout.write(`\`\`\`json\n${json}\n\`\`\`\n`);
}

/**
 * `--config FILE`: the paper's overlap (one sample per problem at T, default 0.8, and greedy beside) of a
 * config's agents by axes on the first P test problems; missing checkpoints are built into the cache first.
 */
async function configOverlap(o: Record<string, string>): Promise<void> {
  const cohort = readAxisCohort(o.config);
  const P = o.problems === undefined ? 500 : Number(o.problems);
  if (!(Number.isInteger(P) && P > 0))
    throw new Error(`--problems must be a positive integer, got ${o.problems}`);
  const T = o.temperature === undefined ? 0.8 : Number(o.temperature);
  if (!(T > 0 && T <= 10)) throw new Error(`--temperature must be a number in (0, 10], got ${o.temperature}`);
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  const workers = workersArg(o.workers);
  const engine = nodeBackendName(o.backend) as NodeBackendName;
  const be = await makeNodeBackend(engine);
  log(`engine: ${be.info.name} (${be.info.adapter})`);
  const built = await buildAxisCohort(be, cohort, log, { dir: o.cache, workers, engine });
  const agents = cohort.specs.map((s, i) => agentFromCheckpoint(be, built[i].bytes, s));
  const task = makeTask(cohort.task);
  const name = (JSON.parse(readFileSync(o.config, 'utf8')) as { name?: string }).name ?? o.config;
  const report = await paperOverlap(
    name,
    describeTaskConfig(task.config),
    agents,
    task.heldOut('test', P),
    T,
  );
  for (const a of agents) a.model.free();
  process.stdout.write(`${formatPaperOverlap(report)}\n\n`);
  const json = JSON.stringify(report, null, 2);
  if (o.json) {
    writeFileSync(o.json, `${json}\n`);
    process.stdout.write(`JSON written to ${o.json}\n`);
  } else process.stdout.write(`\`\`\`json\n${json}\n\`\`\`\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
