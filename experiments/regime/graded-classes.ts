// Regime figures per class of a graded task (docs/regime-search.md, "Graded difficulty"): the validation
// problems of a probe (the same 1,000 `npm run regime` reads) split by a's number of significant digits,
// each class measured exactly as the regime check measures (src/rl/regime/measure.ts), agents from the cache.
// usage: npx tsx experiments/regime/graded-classes.ts experiments/regime/probes/NAME.json [problems]
import { readFileSync } from 'node:fs';
import { withAxisAgents } from '../../src/cli/axisCohort';
import { makeNodeBackend } from '../../src/engine/wasm/nodeBackend';
import { CohortLoader, validateExperiment } from '../../src/rl/cohortEnv';
import { regimeCheck } from '../../src/rl/regime/measure';
import { makeTask } from '../../src/tasks';

const [file, n = '1000'] = process.argv.slice(2);
const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const read = await withAxisAgents(raw, String(raw.name), 'wasm');
const v = await validateExperiment(read.raw, read.reader);
if (!v.ok || !v.config.task) throw new Error(`${file}: ${v.ok ? 'no task' : v.errors.join('; ')}`);
const be = await makeNodeBackend('wasm');
const agents = await new CohortLoader(read.reader, v.specs).load(be);
const problems = makeTask(v.config.task).heldOut('validation', Number(n));
const digits = (a: number): number => (a < 10 ? 1 : String(a).length);
const f = (x: number | { value: number } | null): string =>
  x === null ? 'n/a' : (typeof x === 'number' ? x : x.value).toFixed(3);
console.log(`### ${raw.name}: per class of a (validation, ${problems.length} problems)\n`);
console.log(
  '| a digits | problems | agent | greedy | sampled | maj@K - greedy | spread | seed-only kappa | reach (n) | pair kappa (greedy) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const d of [1, 2, 3, 4]) {
  const ps = problems.filter((p) => digits(p.values[0]) === d);
  if (!ps.length) continue;
  const r = await regimeCheck(agents, ps, 'validation', {
    K: v.config.train.samples,
    temperature: v.config.train.temperature,
  });
  const pairs = new Map(r.figures.pairs.map((p) => [p.learner, p]));
  for (const a of r.figures.agents) {
    const p = pairs.get(a.id);
    const reach = p?.reach ? `${f(p.reach)} (${p.reachProblems})` : 'n/a';
    console.log(
      `| ${d} | ${ps.length} | ${a.id} | ${f(a.greedy)} | ${f(a.sampled)} | ${f(a.majMinusGreedy)} | ${f(a.spread)} | ${f(a.seedOnlyKappa)} | ${reach} | ${p ? p.kappaGreedy.toFixed(2) : ''} |`,
    );
  }
}
for (const a of agents) a.model.free();
be.destroy();
