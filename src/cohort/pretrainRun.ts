// One pretraining run of the base-agent factory (src/cohort/pretrain.ts): supervised next-token learning
// of correct completions drawn from a training list by the recipe's mix, validated every `evalEvery` steps
// on the validation problems, stopped and kept by the recipe's stop rule:
// - `band` (the engineered families): stop at the first validation inside both bands;
// - `budget`: train all maxSteps; keep the final model if inside the bands, else the latest validation that was;
// - `plateau` (the natural families): train all maxSteps on a finite corpus until it is learnt by heart, and
//   keep the final model; it counts as in band only when its final validation lies in the bands AND it has
//   plateaued (within `plateauTolerance` of the validation before), so its errors are where the converged
//   model stays wrong, not where a half-trained one happens to be (docs/method.md ("Natural diversity")).
import type { AdamWParams, Backend } from '../engine/backend';
import { GPT } from '../model/gpt';
import { lrAt, makeSFTBatch, releaseSFTBuffers, sftStep, type SFTOptions } from '../model/sft';
import { renderPrompt, type Problem, type Tokenizer, type ViewName } from '../tasks';
import { deriveRng, deriveSeed } from '../util/rng';
import { makeGPTConfig } from '../model/config';
import type { CorpusSpec } from './corpus';
import { greedyScores, sampledAccuracy } from './evaluate';
import { familyArch } from './families';
import type { FamilySpec, PretrainRecipe } from './familySpec';
import { targetCompletion } from './noise';
import { workCompletion } from './workPathMix';
import { mixSampler, type DataPool } from './regions';
import type { BaseMeta } from './baseMeta';
import type { AgentLayout, PretrainOptions, PretrainSpec } from './pretrainSpec';

/** What one run keeps. */
export interface RunResult {
  model: GPT;
  history: BaseMeta['history'];
  final: BaseMeta['history'][number];
  layout: AgentLayout;
  /** Smoothed training loss at the end. */
  avg: number;
  inBand: boolean;
  /** `plateau`: the final validation is within plateauTolerance of the one before (true for other rules). */
  plateaued: boolean;
  /** Distance of the kept validation from the bands (0 inside). */
  dist: number;
  corpus?: CorpusSpec;
}

/** Distance of x from the interval [lo, hi] (0 inside). */
export const bandDistance = (x: number, [lo, hi]: [number, number]): number =>
  x < lo ? lo - x : x > hi ? x - hi : 0;

/** The corpus sizes a recipe tries, in order (only for a `plateau` recipe with a ladder and a random-draw corpus). */
export function ladderOf(recipe: PretrainRecipe, corpus: CorpusSpec | undefined): number[] | undefined {
  if (recipe.stop !== 'plateau' || !recipe.corpusLadder?.length || corpus?.draw !== 'random')
    return undefined;
  return recipe.corpusLadder;
}

/** The model config of a spec: the family's architecture at its size, with the spec's overrides; refuses a context too small. */
function specGPTConfig(family: FamilySpec, spec: PretrainSpec, vocabSize: number, layout: AgentLayout) {
  const { blockSize: ctx, ...arch } = spec.arch ?? {};
  const need = layout.promptLength + layout.maxNewTokens - 1;
  if (ctx !== undefined && ctx < need) {
    throw new Error(
      `agent ${spec.id}: context ${ctx} cannot hold the prompt (${layout.promptLength} tokens) plus the longest completion with EOS (${layout.maxNewTokens} tokens): needs blockSize >= ${need}`,
    );
  }
  const seed = deriveSeed(spec.seed, 'init', family.name, spec.size);
  return makeGPTConfig({
    ...familyArch(family, spec.size),
    ...arch,
    vocabSize,
    blockSize: ctx ?? layout.blockSize,
    seed,
  });
}

/** Train one model of `spec` on `training` by `recipe` and keep it by the recipe's stop rule. Deterministic per backend. */
export async function trainRun(
  backend: Backend,
  family: FamilySpec,
  spec: PretrainSpec,
  recipe: PretrainRecipe,
  pool: DataPool,
  training: readonly Problem[],
  tok: Tokenizer,
  view: ViewName,
  layout: AgentLayout,
  opts: PretrainOptions,
): Promise<RunResult> {
  const model = new GPT(backend, specGPTConfig(family, spec, tok.vocabSize, layout));
  const seqLen = layout.promptLength + layout.maxNewTokens;
  const encoded = new Map<Problem, { prompt: number[]; completion: number[] }>();
  const encode = (p: Problem): { prompt: number[]; completion: number[] } => {
    let e = encoded.get(p);
    if (!e)
      encoded.set(
        p,
        (e = {
          prompt: tok.encode(renderPrompt(p, view)),
          completion: tok.encode(
            targetCompletion(
              workCompletion(p, view, recipe.paths, spec.seed, recipe.pathFeature),
              p,
              view,
              recipe.noise ?? 0,
              spec.seed,
            ),
          ),
        }),
      );
    return e;
  };
  const draw = mixSampler(training, recipe.mix, deriveRng(spec.seed, 'pretrain', family.name, spec.size));

  const history: BaseMeta['history'] = [];
  type Kept = { dist: number; index: number; params: Float32Array };
  let best: Kept | null = null;
  let lastInBand: Kept | null = null; // the 'budget' rule: the latest validation inside the band
  const budget = recipe.stop === 'budget';
  const plateau = recipe.stop === 'plateau';
  let inBand = false;
  let avg = NaN;
  const measure = async (step: number): Promise<BaseMeta['history'][number]> => {
    const greedy = (await greedyScores(model, tok, view, pool.validation, layout.maxNewTokens)).accuracy;
    const sampled = await sampledAccuracy(
      model,
      tok,
      view,
      pool.validation,
      layout.maxNewTokens,
      recipe.bandSamples,
      1,
      deriveSeed(spec.seed, 'validation', step),
    );
    return { step, loss: +avg.toFixed(4), valAccuracy: greedy, valSampledAccuracy: sampled };
  };
  const distOf = (h: BaseMeta['history'][number]): number =>
    bandDistance(h.valAccuracy, recipe.band) + bandDistance(h.valSampledAccuracy, recipe.sampledBand);
  /** Validate after `step` steps; true when the band is reached (and the rule stops there). Keeps the closest model so far. */
  const validate = async (step: number): Promise<boolean> => {
    const h = await measure(step);
    history.push(h);
    opts.onProgress?.({
      agent: spec.id,
      step,
      maxSteps: recipe.maxSteps,
      loss: avg,
      valAccuracy: h.valAccuracy,
      valSampledAccuracy: h.valSampledAccuracy,
      done: false,
    });
    if (plateau) return false; // the final model is kept whatever its validations were
    const dist = distOf(h);
    inBand = dist === 0;
    if (!inBand && (!best || dist < best.dist))
      best = { dist, index: history.length - 1, params: await model.readParams() };
    if (budget && inBand && step < recipe.maxSteps)
      lastInBand = { dist, index: history.length - 1, params: await model.readParams() };
    return inBand && !budget;
  };
  const sft: SFTOptions = {
    steps: recipe.maxSteps,
    lr: recipe.lr,
    warmupSteps: recipe.warmupSteps,
    minLrFrac: 0.1,
    beta1: 0.9,
    beta2: 0.99,
    eps: 1e-8,
    weightDecay: 0,
  };
  let steps = 0;
  for (let s = 0; s < recipe.maxSteps; s++) {
    if (opts.breathe) await opts.breathe();
    if (opts.shouldStop?.()) break;
    const hp: AdamWParams = {
      lr: lrAt(s, sft),
      beta1: sft.beta1!,
      beta2: sft.beta2!,
      eps: sft.eps!,
      weightDecay: sft.weightDecay!,
      step: s + 1,
    };
    const batch = makeSFTBatch(draw(recipe.batch).map(encode), seqLen, tok.eosId);
    const { loss } = await sftStep(model, batch, hp, 1);
    if (!Number.isFinite(loss))
      throw new Error(`pretraining ${spec.id} (${family.name}) diverged: loss ${loss} at step ${s + 1}`);
    avg = Number.isNaN(avg) ? loss : 0.9 * avg + 0.1 * loss;
    steps = s + 1;
    if (steps % recipe.evalEvery === 0 && (await validate(steps))) break;
  }
  releaseSFTBuffers(model);
  if (plateau) {
    if (history.length === 0 || history[history.length - 1].step !== steps)
      history.push(await measure(steps));
    const final = history[history.length - 1];
    const prev = history[history.length - 2];
    const plateaued =
      prev !== undefined &&
      Math.abs(final.valAccuracy - prev.valAccuracy) <= (recipe.plateauTolerance ?? 0.05);
    const dist = distOf(final);
    return {
      model,
      history,
      final,
      layout,
      avg,
      inBand: dist === 0 && plateaued,
      plateaued,
      dist: dist + (plateaued ? 0 : 1e-3),
    };
  }
  let final: BaseMeta['history'][number];
  const kept = best as Kept | null;
  const banded = lastInBand as Kept | null;
  if (inBand) final = history[history.length - 1];
  else if (banded) {
    model.writeParams(banded.params); // 'budget': ended outside the band; keep the latest validation inside it
    final = history[banded.index];
    inBand = true;
  } else if (kept) {
    model.writeParams(kept.params); // never in band: keep the validation closest to it
    final = history[kept.index];
  } else {
    final = await measure(steps); // stopped before the first validation
    history.push(final);
  }
  return { model, history, final, layout, avg, inBand, plateaued: true, dist: inBand ? 0 : distOf(final) };
}
