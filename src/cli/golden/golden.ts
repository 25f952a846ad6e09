// The behaviour check of issue 19 ("behaviour unchanged"): paper-demo for 20 steps, from its shipped
// checkpoints and seed 1, on the CPU reference and the wasm engine (both kernel variants), reduced to the SHA-256 of its
// canonical metric JSON (every step and evaluation record, wall-clock fields excluded). The committed
// digests (golden.json) were taken before the redesign; a refactor that changes one bit of any
// metric changes the digest. A deliberate change of behaviour regenerates them with
// `npx tsx src/cli/golden/golden.ts --write` and says why in its commit.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeNodeBackend, type NodeBackendName } from '../../engine/wasm/nodeBackend';
import { nodeReader } from '../../cohort/nodeFiles';
import { canonicalMetricsJson } from '../../rl/canonical';
import { CohortLoader, validateExperiment } from '../../rl/cohortEnv';
import { runExperiment } from '../../rl/experiment';

const HERE = dirname(fileURLToPath(import.meta.url));
export const GOLDEN_FILE = join(HERE, 'golden.json');
export const GOLDEN_ENGINES: readonly NodeBackendName[] = ['cpu', 'wasm', 'wasm-relaxed'];

/** experiments/paper-demo.json at 20 steps, with evaluations at steps 0, 10 and 20 on 100 problems. */
export function goldenConfig(): Record<string, unknown> {
  const raw = JSON.parse(readFileSync(join(HERE, '../../../experiments/paper-demo.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const evalCfg = raw.eval as Record<string, unknown>;
  return { ...raw, name: 'paper-demo-golden', steps: 20, eval: { ...evalCfg, every: 10, problems: 100 } };
}

/** The canonical metric JSON of the golden run on one engine. */
export async function goldenMetrics(engine: NodeBackendName): Promise<string> {
  const read = nodeReader();
  const v = await validateExperiment(goldenConfig(), read);
  if (!v.ok) throw new Error(`golden config: ${v.errors.join('; ')}`);
  const be = await makeNodeBackend(engine);
  const loader = new CohortLoader(read, v.specs);
  const r = await runExperiment(be, v.config, () => loader.load(be));
  if (r.error) throw new Error(`golden run on ${engine} stopped: ${r.error.message}`);
  return canonicalMetricsJson(r.steps, r.evals);
}

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The committed digests, per engine. */
export function readGolden(): Record<string, string> {
  return (JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as { sha256: Record<string, string> }).sha256;
}

async function main(): Promise<void> {
  const out: Record<string, string> = {};
  for (const e of GOLDEN_ENGINES) {
    out[e] = sha256(await goldenMetrics(e));
    process.stderr.write(`golden ${e}: ${out[e]}\n`);
  }
  if (process.argv.includes('--write')) {
    const doc = {
      what: 'SHA-256 of the canonical metric JSON of paper-demo, 20 steps, seed 1 (src/cli/golden/golden.ts)',
      sha256: out,
    };
    writeFileSync(GOLDEN_FILE, JSON.stringify(doc, null, 2) + '\n');
    process.stderr.write(`wrote ${GOLDEN_FILE}\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void main();
