// `npm run ship-builds -- --config FILE[,FILE...] [--cache DIR]`: copy the wasm engine's cache entries of
// the configs' agents by axes (built before by `npm run regime` or `experiment`) into public/checkpoints/
// cache, checked, so the page and the Node CLIs start from them at once instead of pretraining
// (src/worker/axisBuilds.ts, src/cohort/cache.ts). Refuses an entry that is missing or does not check;
// an entry already shipped that checks is left as it is.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from '../util/args';
import { readAxisCohort } from './axisCohort';
import { buildKey } from '../cohort/axes';
import { engineCacheKey } from '../cohort/cacheEntry';
import { cacheEntryProblem, DEFAULT_CACHE_DIR, SHIPPED_DIR } from '../cohort/cache';

const USAGE = 'usage: npm run ship-builds -- --config FILE[,FILE...] [--cache DIR]';

function main(): void {
  const o = parseArgs(process.argv.slice(2), ['config', 'cache'], USAGE);
  if (!o.config) throw new Error(`missing --config\n${USAGE}`);
  const dir = o.cache ?? DEFAULT_CACHE_DIR;
  const keys = new Map<string, string>();
  for (const file of o.config.split(',')) {
    const c = readAxisCohort(file);
    for (const s of c.specs)
      keys.set(
        engineCacheKey(buildKey(s, c.task), 'wasm'),
        `${file} ${s.id} (${s.family}.${s.size} seed ${s.seed})`,
      );
  }
  // an entry already shipped (and checking) is kept as it is: the cache need not hold it too
  const shipped = new Set([...keys.keys()].filter((k) => cacheEntryProblem(SHIPPED_DIR, k) === null));
  const bad = [...keys].flatMap(([k, who]) => {
    const p = shipped.has(k) ? null : cacheEntryProblem(dir, k);
    return p === null
      ? []
      : [`${who}: cache entry ${k} ${p}; build it first (npm run regime -- --config ...)`];
  });
  if (bad.length) throw new Error(`nothing was copied:\n  - ${bad.join('\n  - ')}`);
  mkdirSync(SHIPPED_DIR, { recursive: true });
  for (const [k, who] of keys) {
    if (shipped.has(k)) {
      process.stdout.write(`already shipped ${k} (${who})\n`);
      continue;
    }
    for (const ext of ['ckpt', 'sum'])
      copyFileSync(join(dir, `${k}.${ext}`), join(SHIPPED_DIR, `${k}.${ext}`));
    process.stdout.write(`shipped ${k} (${who})\n`);
  }
}

try {
  main();
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
