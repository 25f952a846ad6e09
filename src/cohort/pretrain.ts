// The base-agent factory: pretrains one agent of a family by supervised next-token learning on correct
// completions of its recipe's region mix (train split only), validating greedy accuracy on a held-out
// slice of the train split every few steps and stopping when it enters the recipe's band, so the RL
// starts where p(correct) is neither ~0 nor ~1 (docs/method.md ("Setting")). Runs on any backend (Node CPU, page,
// worker) and is deterministic for a seed on the CPU backend. Returns the agent and its checkpoint bytes.
// A corpus ladder's rungs run here one after the other (./ladder.ts; the pool runs them side by side).
import type { Backend } from '../engine/backend';
import { releaseDecoders } from '../model/generate';
import type { TaskConfig } from '../tasks';
import type { Agent } from './agent';
import type { BaseMeta } from './baseMeta';
import {
  agentBuild,
  keptRung,
  planAgent,
  rungRecord,
  trainRung,
  type RungRecord,
  type RungRun,
} from './ladder';
import type { PretrainOptions, PretrainSpec } from './pretrainSpec';

export { agentLayout, familyTokenizer, recipePool } from './agentSetup';

export interface PretrainResult {
  agent: Agent;
  meta: BaseMeta;
  /** The checkpoint (src/model/checkpoint.ts format, meta = BaseMeta). */
  bytes: Uint8Array;
}

/**
 * Pretrain the base agent `spec` (family, size, seed; view: the family's unless the spec names another)
 * on `taskConfig`. The data
 * order comes from deriveRng(seed, 'pretrain', family, size), the init from deriveSeed(seed, 'init', ...),
 * so two agents of one family with different seeds differ in both.
 */
export async function pretrainAgent(
  backend: Backend,
  spec: PretrainSpec,
  taskConfig: TaskConfig,
  opts: PretrainOptions = {},
): Promise<PretrainResult> {
  const plan = planAgent(spec, taskConfig, opts);
  const models: (RungRun['model'] | undefined)[] = [];
  const outcomes: RungRecord[] = [];
  let kept = 0;
  for (let index = 0; index < plan.rungs; index++) {
    if (index > 0 && opts.shouldStop?.()) break; // stopped: the best of the rungs run so far
    const r = await trainRung(backend, plan, spec, index, opts);
    models.push(r.model);
    outcomes.push(rungRecord(r, index)); // the figures decide; the parameters are read once, of the rung kept
    kept = keptRung(outcomes, outcomes.length)!;
    models.forEach((m, i) => i !== kept && m?.free());
    models.fill(undefined, 0, kept).fill(undefined, kept + 1);
    if (r.inBand) break; // the ladder keeps the first rung in band
  }
  const model = models[kept]!;
  releaseDecoders(model);
  model.resetOptimizer();
  model.zeroGrad();
  const { meta, bytes } = agentBuild(plan, spec, outcomes, kept, await model.readParams(), opts.cacheKey);
  opts.onProgress?.({
    agent: spec.id,
    step: meta.steps,
    maxSteps: plan.recipe.maxSteps,
    loss: outcomes[kept].avg,
    valAccuracy: meta.valAccuracy,
    valSampledAccuracy: meta.valSampledAccuracy,
    done: true,
  });
  const axes = {
    ...(spec.arch ? { arch: spec.arch } : {}),
    ...(spec.tokenizer ? { tokenizer: spec.tokenizer } : {}),
    ...(spec.corpus ? { corpus: spec.corpus } : {}),
    ...(spec.recipe ? { recipe: spec.recipe } : {}),
  };
  const agent: Agent = {
    spec: {
      id: spec.id,
      family: plan.family.name,
      size: spec.size,
      seed: spec.seed,
      view: plan.view,
      ...axes,
    },
    model,
    tokenizer: plan.tok,
    base: meta,
  };
  return { agent, meta, bytes };
}
