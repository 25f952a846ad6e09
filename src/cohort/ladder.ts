// A pretraining as independent rungs (docs/architecture-runtime.md, "Rungs in parallel"): a `plateau` recipe
// with a corpus ladder trains one model per corpus size from the same initialisation, each from scratch, and
// keeps the first in band (else the closest). No rung reads another's result, so the rungs of one agent can
// run on different workers, and ahead of need: `keptRung` decides from the rungs' results in ladder order
// exactly what one thread running them in turn would keep, and `agentBuild` writes the same checkpoint.
// pretrainAgent (./pretrain.ts) runs the rungs one after the other; src/rl/pool/poolBuilds.ts side by side.
import type { Backend } from '../engine/backend';
import type { GPTConfig } from '../model/config';
import { encodeCheckpoint } from '../model/checkpoint';
import { releaseDecoders } from '../model/generate';
import { paramCount } from '../model/params';
import type { TaskConfig, Tokenizer, TokenizerName, ViewName } from '../tasks';
import { BASE_META_FORMAT, type BaseMeta, type LadderRung } from './baseMeta';
import { applyCorpus, corpusShortfall, type CorpusSpec } from './corpus';
import { getFamily } from './families';
import type { FamilySpec, PretrainRecipe } from './familySpec';
import { agentLayout, familyTokenizer, recipePool } from './agentSetup';
import { ladderOf, trainRun, type RunResult } from './pretrainRun';
import type { PretrainOptions, PretrainProgress, PretrainSpec } from './pretrainSpec';
import type { DataPool } from './regions';
import { pathLayout, workPathTaskErrors } from './workPathMix';

/** What every rung of one agent's pretraining shares. */
export interface AgentPlan {
  family: FamilySpec;
  recipe: PretrainRecipe;
  view: ViewName;
  pool: DataPool;
  tok: Tokenizer;
  tokName?: TokenizerName;
  corpus?: CorpusSpec;
  /** The corpus sizes tried in order, or undefined: one run on the spec's corpus. */
  ladder?: number[];
  /** Rungs to run at most (the ladder's length, or 1). */
  rungs: number;
}

/** Plan the pretraining of `spec` on `taskConfig`; refuses a work-path mix the task lacks; `notice` as pretrainAgent's. */
export function planAgent(
  spec: PretrainSpec,
  taskConfig: TaskConfig,
  opts: Pick<PretrainOptions, 'recipe' | 'notice'> = {},
): AgentPlan {
  const family = getFamily(spec.family);
  const recipe: PretrainRecipe = { ...family.recipe, ...spec.recipe, ...opts.recipe };
  const view = spec.view ?? family.view;
  const pool = recipePool(taskConfig, recipe);
  const pathErrs = workPathTaskErrors(recipe.paths, taskConfig);
  if (pathErrs.length) throw new Error(`agent ${spec.id}: recipe.${pathErrs.join('; recipe.')}`);
  const corpus = spec.corpus ?? family.corpus;
  const tokName = spec.tokenizer ?? family.tokenizer;
  const tok = familyTokenizer(family, taskConfig, view, tokName);
  const ladder = spec.corpus?.size !== undefined ? undefined : ladderOf(recipe, corpus); // a size named in the spec is kept
  const short = corpusShortfall(
    ladder ? { ...corpus!, size: Math.max(...ladder) } : corpus,
    pool.training.length,
  );
  if (short) opts.notice?.(`agent ${spec.id}: ${short}`);
  return { family, recipe, view, pool, tok, tokName, corpus, ladder, rungs: ladder?.length ?? 1 };
}

/** One rung's trained model and figures (the model is the caller's to free). */
export type RungRun = RunResult & { corpus?: CorpusSpec; size?: number };

/** Train rung `index` of `plan` (0 without a ladder) on `backend`. Deterministic per engine and kernel variant. */
export async function trainRung(
  backend: Backend,
  plan: AgentPlan,
  spec: PretrainSpec,
  index: number,
  opts: PretrainOptions = {},
): Promise<RungRun> {
  const { family, recipe, view, pool, tok, tokName, corpus, ladder } = plan;
  if (!Number.isInteger(index) || index < 0 || index >= plan.rungs)
    throw new Error(`agent ${spec.id}: no rung ${index} (its pretraining has ${plan.rungs})`);
  const size = ladder?.[index];
  const rung = size === undefined ? undefined : { size, index, of: ladder!.length };
  const onProgress = opts.onProgress && ((p: PretrainProgress) => opts.onProgress!({ ...p, rung }));
  const used = size === undefined ? corpus : { ...corpus!, size };
  const training = used ? applyCorpus(pool.training, used, spec.seed) : pool.training;
  const { task } = pool;
  // character tokens keep the older layout (shipped checkpoints); other tokenizers count their own tokens
  const layout = pathLayout(
    tokName && tokName !== 'digit'
      ? agentLayout(task, view, [...pool.validation, ...training], tok)
      : agentLayout(task, view, pool.training),
    recipe.paths,
    [...pool.validation, ...pool.training, ...training],
    view,
    tok,
  );
  const r = await trainRun(backend, family, spec, recipe, pool, training, tok, view, layout, {
    ...opts,
    onProgress,
  });
  return { ...r, corpus: used, size };
}

/** What a checkpoint records of a rung: its figures, corpus and model config. */
export interface RungRecord {
  index: number;
  size?: number;
  corpus?: CorpusSpec;
  cfg: GPTConfig;
  history: BaseMeta['history'];
  final: BaseMeta['history'][number];
  layout: RunResult['layout'];
  avg: number;
  inBand: boolean;
  plateaued: boolean;
  dist: number;
}

/** A rung's result as plain data (what a worker sends back): its record and the trained parameters. */
export type RungOutcome = RungRecord & { params: Float32Array };

/** Train rung `index` and return it as plain data (the model freed). */
export async function runRung(
  backend: Backend,
  plan: AgentPlan,
  spec: PretrainSpec,
  index: number,
  opts: PretrainOptions = {},
): Promise<RungOutcome> {
  const r = await trainRung(backend, plan, spec, index, opts);
  try {
    return { ...rungRecord(r, index), params: await r.model.readParams() };
  } finally {
    releaseDecoders(r.model);
    r.model.free();
  }
}

/** The record of rung `index`'s run. */
export const rungRecord = (r: RungRun, index: number): RungRecord => ({
  index,
  ...(r.size !== undefined ? { size: r.size } : {}),
  ...(r.corpus ? { corpus: r.corpus } : {}),
  cfg: r.model.cfg,
  history: r.history,
  final: r.final,
  layout: r.layout,
  avg: r.avg,
  inBand: r.inBand,
  plateaued: r.plateaued,
  dist: r.dist,
});

/** What the ladder's choice reads of a rung. */
export type RungFigures = Pick<RungRecord, 'inBand' | 'dist'>;

/**
 * The rung kept, from the rungs' results in ladder order (undefined where not known yet): the first in band,
 * else (every rung known) the closest to the band, ties to the earlier; undefined while that is still open.
 * Running the rungs in turn and stopping at the first in band keeps the same one.
 */
export function keptRung(results: readonly (RungFigures | undefined)[], rungs: number): number | undefined {
  let best = -1;
  for (let i = 0; i < rungs; i++) {
    const r = results[i];
    if (!r) return undefined;
    if (best < 0 || r.inBand || r.dist < results[best]!.dist) best = i;
    if (r.inBand) return i;
  }
  return best < 0 ? undefined : best;
}

/**
 * The checkpoint of `spec` from the records of its rungs run (in ladder order: those up to the kept one, or all),
 * rung `kept` kept with its trained `params`.
 */
export function agentBuild(
  plan: AgentPlan,
  spec: PretrainSpec,
  outcomes: readonly RungRecord[],
  kept: number,
  params: Float32Array,
  cacheKey?: string,
): { meta: BaseMeta; bytes: Uint8Array } {
  const run = outcomes[kept];
  if (!run) throw new Error(`agent ${spec.id}: rung ${kept} has no result`);
  const { recipe, view, tok, tokName, family } = plan;
  const rungs: LadderRung[] = outcomes
    .filter((o) => o.size !== undefined)
    .map((o) => ({
      size: o.size!,
      steps: o.final.step,
      valAccuracy: o.final.valAccuracy,
      plateaued: o.plateaued,
      inBand: o.inBand,
    }));
  const meta: BaseMeta = {
    format: BASE_META_FORMAT,
    family: family.name,
    size: spec.size,
    view,
    task: plan.pool.task.config,
    seed: spec.seed,
    alphabet: tok.alphabet,
    promptLength: run.layout.promptLength,
    maxNewTokens: run.layout.maxNewTokens,
    steps: run.final.step,
    valAccuracy: run.final.valAccuracy,
    valSampledAccuracy: run.final.valSampledAccuracy,
    inBand: run.inBand,
    params: paramCount(run.cfg),
    recipe,
    history: run.history,
    ...(spec.arch ? { arch: spec.arch } : {}),
    ...(tokName ? { tokenizer: tokName } : {}),
    ...(run.corpus ? { corpus: run.corpus } : {}),
    ...(rungs.length ? { ladder: rungs } : {}),
    ...(cacheKey ? { cacheKey } : {}),
  };
  return { meta, bytes: encodeCheckpoint(run.cfg, params, meta as unknown as Record<string, unknown>) };
}
