// The base-agent factory: pretrains one agent of a family by supervised next-token learning on correct
// completions of its recipe's region mix (train split only), validating greedy accuracy on a held-out
// slice of the train split every few steps and stopping when it enters the recipe's band, so the RL
// starts where p(correct) is neither ~0 nor ~1 (docs/method.md ("Setting")). Runs on any backend (Node CPU, page,
// worker) and is deterministic for a seed on the CPU backend. Returns the agent and its checkpoint bytes.
import type { Backend } from '../engine/backend';
import { saveCheckpoint } from '../model/checkpoint';
import { paramCount } from '../model/params';
import { releaseDecoders } from '../model/generate';
import {
  makeNamedTokenizer,
  renderCompletion,
  renderPrompt,
  taskAlphabet,
  type Problem,
  type Task,
  type TaskConfig,
  type Tokenizer,
  type TokenizerName,
  type ViewName,
} from '../tasks';
import { applyCorpus, corpusShortfall } from './corpus';
import type { Agent } from './agent';
import { getFamily } from './families';
import type { FamilySpec, PretrainRecipe } from './familySpec';
import { BASE_META_FORMAT, type BaseMeta, type LadderRung } from './baseMeta';
import { ladderOf, trainRun, type RunResult } from './pretrainRun';
import type { AgentLayout, PretrainOptions, PretrainProgress, PretrainSpec } from './pretrainSpec';
import { pathLayout, workPathTaskErrors } from './workPathMix';
import { longestCompletion, makeDataPool, type DataPool, type PoolMode } from './regions';

export interface PretrainResult {
  agent: Agent;
  meta: BaseMeta;
  /** The checkpoint (src/model/checkpoint.ts format, meta = BaseMeta). */
  bytes: Uint8Array;
}

/** Slack positions beyond the longest correct completion (the RL default samples 2 more tokens). */
const CONTEXT_SLACK = 3;

/** Token layout of a task in a view: in tokens of `tok` (default: one per character). */
export function agentLayout(
  task: Task,
  view: ViewName,
  pool: readonly Problem[],
  tok?: Tokenizer,
): AgentLayout {
  if (!tok) {
    const promptLength = task.promptLength(view);
    const maxNewTokens = longestCompletion(task, view, pool) + 1;
    return { promptLength, maxNewTokens, blockSize: promptLength + maxNewTokens - 1 + CONTEXT_SLACK };
  }
  const promptLength = tok.encode(renderPrompt(pool[0], view)).length;
  let longest = 0;
  for (const p of pool) longest = Math.max(longest, tok.encode(renderCompletion(p, view)).length);
  const maxNewTokens = longest + 1;
  return { promptLength, maxNewTokens, blockSize: promptLength + maxNewTokens - 1 + CONTEXT_SLACK };
}

/** The tokenizer of a family's agents for a task (the alphabet of the task in `view`, default the family's; the family's tokenizer unless named). */
export function familyTokenizer(
  family: FamilySpec,
  task: TaskConfig,
  view: ViewName = family.view,
  name?: TokenizerName,
): Tokenizer {
  return makeNamedTokenizer(name ?? family.tokenizer ?? 'digit', taskAlphabet(task, [view]));
}

const pools = new Map<string, DataPool>();
/** The pretraining pool a recipe draws from on `task` (cached per task, validation size and pool mode). */
export function recipePool(task: TaskConfig, recipe: Pick<PretrainRecipe, 'valSize' | 'pool'>): DataPool {
  const mode: PoolMode = recipe.pool ?? 'pool-slice';
  const key = `${JSON.stringify(task)}|${recipe.valSize}|${mode}`;
  let p = pools.get(key);
  if (!p) pools.set(key, (p = makeDataPool(task, recipe.valSize, mode)));
  return p;
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
  const family = getFamily(spec.family);
  const recipe: PretrainRecipe = { ...family.recipe, ...spec.recipe, ...opts.recipe };
  const view = spec.view ?? family.view;
  const pool = recipePool(taskConfig, recipe);
  const pathErrs = workPathTaskErrors(recipe.paths, taskConfig);
  if (pathErrs.length) throw new Error(`agent ${spec.id}: recipe.${pathErrs.join('; recipe.')}`);
  const { task } = pool;
  const corpus = spec.corpus ?? family.corpus;
  const tokName = spec.tokenizer ?? family.tokenizer;
  const tok = familyTokenizer(family, taskConfig, view, tokName);
  const ladder = spec.corpus?.size !== undefined ? undefined : ladderOf(recipe, corpus); // a size named in the spec is kept
  const short = corpusShortfall(
    ladder ? { ...corpus!, size: Math.max(...ladder) } : corpus,
    pool.training.length,
  );
  if (short) opts.notice?.(`agent ${spec.id}: ${short}`);
  const rungs: LadderRung[] = [];
  let run: RunResult | null = null;
  for (const [index, size] of (ladder ?? [undefined]).entries()) {
    if (run && opts.shouldStop?.()) break;
    const rung = size === undefined ? undefined : { size, index, of: ladder!.length };
    const onProgress = opts.onProgress && ((p: PretrainProgress) => opts.onProgress!({ ...p, rung }));
    const used = size === undefined ? corpus : { ...corpus!, size };
    const training = used ? applyCorpus(pool.training, used, spec.seed) : pool.training;
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
    if (size !== undefined)
      rungs.push({
        size,
        steps: r.final.step,
        valAccuracy: r.final.valAccuracy,
        plateaued: r.plateaued,
        inBand: r.inBand,
      });
    const better = !run || (!run.inBand && (r.inBand || r.dist < run.dist));
    if (better) {
      run?.model.free();
      run = { ...r, corpus: used };
    } else r.model.free();
    if (run!.inBand) break; // the ladder keeps the first rung in band
  }
  const { model, history, final, layout, avg } = run!;
  const { inBand } = run!;
  const usedCorpus = run!.corpus;
  const cfg = model.cfg;
  const steps = final.step;
  releaseDecoders(model);
  model.resetOptimizer();
  model.zeroGrad();
  const meta: BaseMeta = {
    format: BASE_META_FORMAT,
    family: family.name,
    size: spec.size,
    view,
    task: task.config,
    seed: spec.seed,
    alphabet: tok.alphabet,
    promptLength: layout.promptLength,
    maxNewTokens: layout.maxNewTokens,
    steps,
    valAccuracy: final.valAccuracy,
    valSampledAccuracy: final.valSampledAccuracy,
    inBand,
    params: paramCount(cfg),
    recipe,
    history,
    ...(spec.arch ? { arch: spec.arch } : {}),
    ...(tokName ? { tokenizer: tokName } : {}),
    ...(usedCorpus ? { corpus: usedCorpus } : {}),
    ...(rungs.length ? { ladder: rungs } : {}),
    ...(opts.cacheKey ? { cacheKey: opts.cacheKey } : {}),
  };
  opts.onProgress?.({
    agent: spec.id,
    step: steps,
    maxSteps: recipe.maxSteps,
    loss: avg,
    valAccuracy: final.valAccuracy,
    valSampledAccuracy: final.valSampledAccuracy,
    done: true,
  });
  const bytes = await saveCheckpoint(model, meta as unknown as Record<string, unknown>);
  const axes = {
    ...(spec.arch ? { arch: spec.arch } : {}),
    ...(spec.tokenizer ? { tokenizer: spec.tokenizer } : {}),
    ...(spec.corpus ? { corpus: spec.corpus } : {}),
    ...(spec.recipe ? { recipe: spec.recipe } : {}),
  };
  const agent: Agent = {
    spec: { id: spec.id, family: family.name, size: spec.size, seed: spec.seed, view, ...axes },
    model,
    tokenizer: tok,
    base: meta,
  };
  return { agent, meta, bytes };
}
