// `npx tsx src/cli/plateauProbe.ts '{"task": {...}, "spec": {"family": ..., "corpus": ...}, "recipe": {...}}'`:
// the validation probe behind the natural families' stop rule (docs/natural-cohorts.md). Pretrains one
// agent (wasm) with the given axes and recipe overrides, prints its validation history, then reads it on
// 400 validation problems: greedy accuracy, 8 single samples at T = 0.8 (the kappa between the first two
// is the seed-only kappa) and how the per-problem p(correct) is spread. Validation only, never test.
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import { pretrainAgent } from '../cohort/pretrain';
import { makeDataPool } from '../cohort/regions';
import { sampleScores } from '../cohort/evaluate';
import { pairOverlap } from '../analysis/overlap';

const arg = JSON.parse(process.argv[2]);
const be = await makeNodeBackend('wasm');
const t0 = performance.now();
const r = await pretrainAgent(be, { id: 'P', size: 's', seed: 1, ...arg.spec }, arg.task, {
  recipe: { ...arg.recipe },
  onProgress: (p) => {
    if (p.valAccuracy !== undefined && !p.done)
      console.log(
        `step ${p.step} loss ${p.loss.toFixed(4)} val ${p.valAccuracy.toFixed(3)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
  },
});
const m = r.meta;
console.log(
  `kept step ${m.steps} val ${m.valAccuracy.toFixed(3)} inBand ${m.inBand} params ${m.params} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
);
const pool = makeDataPool(arg.task, 400, 'split');
const probs = pool.validation.slice(0, 400);
const ag = r.agent;
const K = 8;
const runs: Awaited<ReturnType<typeof sampleScores>>[] = [];
for (let k = 0; k < K; k++)
  runs.push(
    await sampleScores(ag.model, ag.tokenizer, ag.spec.view!, probs, m.maxNewTokens, 0.8, 1000 + k * 7919),
  );
const g = await sampleScores(ag.model, ag.tokenizer, ag.spec.view!, probs, m.maxNewTokens, 0, 0);
const o = pairOverlap(runs[0], runs[1]);
const p = probs.map((_, i) => runs.filter((x) => x.correct[i]).length / K);
const hist = [0, 0, 0, 0, 0];
for (const x of p) hist[x === 0 ? 0 : x < 0.5 ? 1 : x < 0.75 ? 2 : x < 1 ? 3 : 4]++;
console.log(
  `greedy ${g.accuracy.toFixed(3)} sampled(T.8) ${(p.reduce((a, b) => a + b, 0) / p.length).toFixed(3)} seed-only kappa ${o.kappa.toFixed(3)} c ${o.c.toFixed(3)}; p hist [0, <.5, <.75, <1, 1] ${hist.join(' ')}`,
);
be.destroy();
