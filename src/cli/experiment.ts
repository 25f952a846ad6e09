// `npm run experiment -- --config FILE --out FILE [--backend wasm|cpu|webgpu] [--seed N] [--steps N] [--workers N]`: validate
// an experiment config completely (every problem listed, nothing run), train its methods in lock step on
// the wasm SIMD backend in Node (default; cpu: the JavaScript reference) or on WebGPU in headless Chromium, show a progress bar on stderr, and write
// every step's metrics and the summary as JSON (OUT) and CSV (OUT minus .json + .steps/.pairs/.evals.csv).
// The JSON is rewritten every 30 s while running and always at the end, also when a step fails.
// On wasm and cpu the models of a lock step train in a pool of --workers threads (default: the machine's
// cores; 1 = all in this thread), with the same metrics to the bit (src/rl/pool).
import { parseArgs } from '../util/args';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeNodeBackend, nodeBackendName, type NodeBackendName } from '../engine/wasm/nodeBackend';
import { withAxisAgents } from './axisCohort';
import { CohortLoader, validateExperiment } from '../rl/cohortEnv';
import { evalsCsv, pairsCsv, stepsCsv } from '../rl/csv';
import { runExperiment, type ExperimentResult } from '../rl/experiment';
import type { EvalRecord, StepRecord } from '../rl/records';
import { summarize } from '../rl/summary';
import type { AgentSpec } from '../cohort/agent';
import type { ReadBytes } from '../cohort/manifest';
import type { ExperimentConfig } from '../rl/config';
import { formatSummary } from './experimentReport';
import { workersArg, withNodePool } from '../rl/pool/nodePool';
import { taskFileOrExit } from './taskFile';

const USAGE =
  'usage: npm run experiment -- --config FILE --out FILE [--backend wasm|cpu|webgpu] [--build-backend wasm|cpu] [--seed N] [--steps N] [--workers N]';

function cliArgs(argv: string[]): Record<string, string> {
  const out = parseArgs(
    argv,
    ['config', 'out', 'backend', 'build-backend', 'seed', 'steps', 'workers'],
    USAGE,
  );
  for (const k of ['config', 'out']) if (!out[k]) throw new Error(`missing --${k}\n${USAGE}`);
  out.backend = nodeBackendName(out.backend, ['webgpu']);
  // the engine that builds agents by axes into the cache (default: the run's Node engine, wasm for webgpu runs)
  out['build-backend'] = nodeBackendName(
    out['build-backend'] ?? (out.backend === 'webgpu' ? 'wasm' : out.backend),
  );
  if (out.backend === 'webgpu' && out.workers !== undefined && out.workers !== '1')
    throw new Error(
      `--workers ${out.workers}: WebGPU runs every model on one device in one page; the pool serves --backend wasm and cpu`,
    );
  out.workers = String(workersArg(out.workers));
  return out;
}

/** A progress bar on stderr (redrawn in place on a terminal, a line per 5% otherwise). */
function progressBar(): (done: number, total: number, note: string) => void {
  const t0 = performance.now();
  const tty = process.stderr.isTTY;
  let lastPct = -1;
  return (done, total, note) => {
    const frac = total > 0 ? done / total : 1;
    const el = (performance.now() - t0) / 1000;
    const eta = frac > 0 ? el / frac - el : 0;
    const fmt = (s: number): string =>
      s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(0)}s`;
    const w = 30;
    const bar = '#'.repeat(Math.round(frac * w)).padEnd(w, '.');
    const line = `[${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${note.padEnd(22)} ${fmt(el)} elapsed, ETA ${fmt(eta)}`;
    const pct = Math.floor(frac * 20);
    if (tty) process.stderr.write(`\r${line}${done === total ? '\n' : ''}`);
    else if (pct !== lastPct || done === total) process.stderr.write(`${line}\n`);
    lastPct = pct;
  };
}

function writeOutputs(out: string, r: ExperimentResult): void {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(r, null, 1)}\n`);
  const base = out.replace(/\.json$/i, '');
  writeFileSync(`${base}.steps.csv`, stepsCsv(r.steps));
  writeFileSync(`${base}.pairs.csv`, pairsCsv(r.steps));
  writeFileSync(`${base}.evals.csv`, evalsCsv(r.evals));
}

async function runNode(
  config: ExperimentConfig,
  specs: AgentSpec[],
  out: string,
  engine: NodeBackendName,
  read: ReadBytes,
  workers: number,
): Promise<ExperimentResult> {
  const be = await makeNodeBackend(engine);
  const loader = new CohortLoader(read, specs);
  const steps: StepRecord[] = [];
  const evals: EvalRecord[] = [];
  const started = new Date().toISOString();
  let lastWrite = performance.now();
  const partial = (): void => {
    if (performance.now() - lastWrite < 30_000) return;
    lastWrite = performance.now();
    const completed = Math.min(...config.methods.map((m) => steps.filter((s) => s.method === m).length));
    writeOutputs(out, {
      config,
      backend: `${be.info.name} (${be.info.adapter})`,
      startedAt: started,
      seconds: 0,
      completedSteps: completed,
      steps,
      evals,
      summary: summarize(config.methods, steps, evals),
      error: { message: 'partial: the run is still going' },
    });
  };
  return withNodePool(workers, engine, config.methods.length * specs.length, (models) =>
    runExperiment(be, config, () => loader.load(be), {
      onStep: (r) => (steps.push(r), partial()),
      onEval: (r) => void evals.push(r),
      onProgress: progressBar(),
      models,
    }),
  );
}

async function runWebGpu(config: ExperimentConfig, specs: AgentSpec[]): Promise<ExperimentResult> {
  const { openPage } = await import('../bench/browser');
  const session = await openPage('/src/rl/runner.html');
  try {
    const bar = progressBar();
    await session.page.exposeFunction('reportProgress', (done: number, total: number, note: string) =>
      bar(done, total, note),
    );
    await session.page.waitForFunction(() => document.title === 'runner ready', undefined, {
      timeout: 120_000,
    });
    return (await session.page.evaluate(
      ([c, s]) =>
        (window as unknown as { runExperiment(c: unknown, s: unknown): Promise<unknown> }).runExperiment(
          c,
          s,
        ),
      [config, specs] as const,
    )) as ExperimentResult;
  } finally {
    await session.close();
  }
}

async function main(): Promise<void> {
  const o = cliArgs(process.argv.slice(2));
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(o.config, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read config ${o.config}: ${(e as Error).message}`, { cause: e });
  }
  raw = taskFileOrExit(raw, o.config); // a file task: its file read, checked and hashed
  if (o.backend === 'webgpu' && (raw.task as { kind?: unknown } | undefined)?.kind === 'file') {
    process.stderr.write(
      `${o.config}: a task from a file runs on --backend wasm or cpu for now (the page holds no rows of a file this CLI read)\n`,
    );
    process.exit(2);
  }
  if (o.seed !== undefined) raw = { ...raw, seed: Number(o.seed) };
  if (o.steps !== undefined) raw = { ...raw, steps: Number(o.steps) };
  // agents by axes without a checkpoint: built (on --workers builders side by side) or fetched from the cache
  const read = await withAxisAgents(raw, o.config, o['build-backend'] as NodeBackendName, Number(o.workers));
  const v = await validateExperiment(read.raw, read.reader);
  if (!v.ok) {
    process.stderr.write(
      `${o.config}: ${v.errors.length} problem${v.errors.length === 1 ? '' : 's'}; nothing was run:\n  - ${v.errors.join('\n  - ')}\n`,
    );
    process.exit(2);
  }
  const { config, specs } = v;
  const backend = o.backend;
  process.stderr.write(
    `experiment ${config.name}: methods ${config.methods.join(', ')} on ${specs.map((s) => `${s.id}=${s.family}.${s.size}.s${s.seed}`).join(', ')}, ${config.steps} steps, seed ${config.seed}, backend ${backend}${backend === 'webgpu' ? '' : `, ${Math.min(Number(o.workers), config.methods.length * specs.length)} model worker(s)`}\n`,
  );
  if (backend === 'webgpu' && read.cached)
    throw new Error(
      'agents by axes (built into the cache) run on --backend wasm or cpu only for now; pretrain them and give checkpoint paths under public/ for webgpu',
    );
  const r =
    backend === 'webgpu'
      ? await runWebGpu(config, specs)
      : await runNode(config, specs, o.out, backend as NodeBackendName, read.reader, Number(o.workers));
  writeOutputs(o.out, r);
  process.stdout.write(formatSummary(r));
  if (r.error) {
    process.stderr.write(
      `run stopped early: ${r.error.message}${r.error.method ? ` (method ${r.error.method}` : ''}${r.error.agent ? `, agent ${r.error.agent}` : ''}${r.error.step ? `, step ${r.error.step})` : r.error.method ? ')' : ''}; everything up to it is in ${o.out}\n`,
    );
    process.exit(1);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
