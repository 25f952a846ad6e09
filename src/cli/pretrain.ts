// `npm run pretrain -- --preset NAME|all [--seed N] [--out DIR] [--backend wasm|cpu]`: pretrain a cohort preset's
// base agents on the wasm backend (default; --backend cpu: the JavaScript reference, which made the shipped
// checkpoints; deterministic for a seed and backend: same bytes every run), write their checkpoints under
// DIR (default public/) and the preset's entry in DIR/checkpoints/index.json. Agents shared by several
// presets (same family, size, seed, task) are pretrained once. Progress goes to stderr.
import { parseArgs } from '../util/args';
import { makeNodeBackend, nodeBackendName, type NodeBackendName } from '../engine/wasm/nodeBackend';
import { buildAxisCohort, readAxisCohort } from './axisCohort';
import { workersArg } from '../rl/pool/nodePool';
import { PRESET_NAMES, getPreset, pretrainPreset, type PretrainResult } from '../cohort';
import { PUBLIC_DIR, readManifestSync, writeFileUnder, writeManifest } from '../cohort/nodeFiles';

const USAGE =
  'usage: npm run pretrain -- --preset NAME|all [--seed N] [--out DIR] [--backend wasm|cpu]  |  --config FILE [--cache DIR] [--backend wasm|cpu] [--workers N]';

async function main(): Promise<void> {
  const o = parseArgs(
    process.argv.slice(2),
    ['preset', 'seed', 'out', 'config', 'cache', 'backend', 'workers'],
    USAGE,
  );
  const engine = nodeBackendName(o.backend) as NodeBackendName;
  if (o.config) return pretrainConfig(o.config, engine, o.cache, workersArg(o.workers));
  if (o.workers !== undefined)
    throw new Error(
      `--workers builds a --config's agents side by side; --preset builds one after the other. ${USAGE}`,
    );
  if (!o.preset)
    throw new Error(`missing --preset (valid presets: ${PRESET_NAMES.join(', ')}, or all); ${USAGE}`);
  const names = o.preset === 'all' ? PRESET_NAMES : o.preset.split(',');
  names.forEach((n) => getPreset(n)); // unknown names fail before any work, listing the valid ones
  const seed = o.seed === undefined ? undefined : Number(o.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31))
    throw new Error(`--seed must be a non-negative integer, got ${o.seed}`);
  const out = o.out ?? PUBLIC_DIR;
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  const be = await makeNodeBackend(engine);
  log(`engine: ${be.info.name} (${be.info.adapter})`);
  const cache = new Map<string, PretrainResult>();
  const manifest = readManifestSync(out);
  const t0 = performance.now();
  let tAgent = performance.now();
  for (const name of names) {
    log(`preset ${name}: ${getPreset(name).description}`);
    const built = await pretrainPreset(be, name, {
      seed,
      cache,
      onProgress: (p) => {
        const acc =
          p.valAccuracy === undefined
            ? ''
            : ` val acc greedy ${p.valAccuracy.toFixed(3)} sampled ${p.valSampledAccuracy!.toFixed(3)}`;
        if (p.done) {
          log(
            `  ${name}/${p.agent}: stopped at step ${p.step}${acc} (${((performance.now() - tAgent) / 1000).toFixed(1)} s)`,
          );
          tAgent = performance.now();
        } else if (p.step % 100 === 0)
          log(`  ${name}/${p.agent}: step ${p.step}/${p.maxSteps} loss ${p.loss.toFixed(3)}${acc}`);
      },
    });
    for (const a of built.agents) {
      writeFileUnder(out, a.spec.checkpoint, a.result.bytes);
      const m = a.result.meta;
      log(
        `  ${a.spec.id} ${a.spec.family}.${a.spec.size} seed ${a.spec.seed}: ${m.params} params, ${m.steps} steps, ` +
          `val acc greedy ${m.valAccuracy.toFixed(3)} sampled ${m.valSampledAccuracy.toFixed(3)}` +
          `${m.inBand ? '' : ` (NOT in the bands: greedy ${JSON.stringify(m.recipe.band)}, sampled ${JSON.stringify(m.recipe.sampledBand)}; kept the closest validation)`}, ` +
          `${a.result.bytes.length} bytes -> ${a.spec.checkpoint}${a.fresh ? '' : ' (shared, pretrained once)'}`,
      );
    }
    manifest.presets[name] = built.entry;
    writeManifest(out, manifest);
  }
  log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s; manifest ${out}/checkpoints/index.json`);
}

/**
 * `--config FILE`: build every agent of the config's cohort (agents by axes) into the content-addressed cache,
 * the missing ones on `workers` builders side by side (default the machine's cores; the same bytes).
 */
async function pretrainConfig(
  file: string,
  engine: NodeBackendName,
  cache: string | undefined,
  workers: number,
): Promise<void> {
  const cohort = readAxisCohort(file); // every problem listed before any work
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  const t0 = performance.now();
  const be = await makeNodeBackend(engine);
  log(`engine: ${be.info.name} (${be.info.adapter})`);
  const built = await buildAxisCohort(be, cohort, log, { dir: cache, workers, engine });
  be.destroy();
  log(
    `done in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${built.filter((b) => b.built).length} built, ${built.filter((b) => !b.built).length} from the cache`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
