// The base-agent factory: pretrains one agent of a family by supervised next-token learning on correct
// completions of its recipe's region mix (train split only), validating greedy accuracy on a held-out
// slice of the train split every few steps and stopping when it enters the recipe's band, so the RL
// starts where p(correct) is neither ~0 nor ~1 (SCIENCE.md §1). Runs on any backend (Node CPU, page,
// worker) and is deterministic for a seed on the CPU backend. Returns the agent and its checkpoint bytes.
import type { AdamWParams, Backend } from '../engine/backend';
import { saveCheckpoint } from '../model/checkpoint';
import { GPT } from '../model/gpt';
import { paramCount } from '../model/params';
import { lrAt, makeSFTBatch, releaseSFTBuffers, sftStep, type SFTOptions } from '../model/sft';
import { releaseDecoders } from '../model/generate';
import {
  deriveRng, deriveSeed, makeNamedTokenizer, renderCompletion, renderPrompt, taskAlphabet,
  type Problem, type ResolvedTaskConfig, type Task, type TaskConfig, type Tokenizer, type TokenizerName, type ViewName,
} from '../tasks';
import { makeGPTConfig } from '../model/config';
import { applyCorpus, type CorpusSpec } from './corpus';
import type { Agent, AgentSpec } from './agent';
import { greedyScores, sampledAccuracy } from './evaluate';
import { familyArch, getFamily, type FamilyArch, type FamilySpec, type PretrainRecipe } from './families';
import { longestCompletion, makeDataPool, mixSampler, type DataPool, type PoolMode } from './regions';

/** Format tag of a base checkpoint's meta. */
export const BASE_META_FORMAT = 'co-rl-base-agent/1';

/** What a base checkpoint's meta holds (JSON). Everything needed to rebuild the agent and redo it. */
export interface BaseMeta {
  format: typeof BASE_META_FORMAT;
  family: string;
  size: string;
  view: ViewName;
  /** The task the agent was pretrained on (resolved: every knob filled). */
  task: ResolvedTaskConfig;
  /** The agent's seed (initialisation and data order). */
  seed: number;
  /** Tokenizer alphabet (ids = 3 + index; 0 PAD, 1 BOS, 2 EOS). */
  alphabet: string;
  /** Prompt length in tokens (the same for every problem of the task in this view). */
  promptLength: number;
  /** Longest correct completion in tokens, EOS included: enough new tokens for greedy answers. */
  maxNewTokens: number;
  /** Optimizer steps taken. */
  steps: number;
  /** Greedy accuracy on the validation slice (train split) at the stop. */
  valAccuracy: number;
  /** Mean sampled (T = 1) accuracy on the validation slice at the stop. */
  valSampledAccuracy: number;
  /** Whether the stop was inside the recipe's band (false: the closest validation was kept). */
  inBand: boolean;
  params: number;
  recipe: PretrainRecipe;
  /** Validation history: step (after it), smoothed loss, validation accuracy. */
  history: { step: number; loss: number; valAccuracy: number; valSampledAccuracy: number }[];
  /** Axis overrides the agent was built with (absent for the shipped engineered agents: none). */
  arch?: Partial<FamilyArch>;
  tokenizer?: TokenizerName;
  corpus?: CorpusSpec;
  /** Content address of the build (src/cohort/cache.ts), when it was built for the cache. */
  cacheKey?: string;
}

/** An agent to pretrain: family, size and seed, and optionally any axis overridden (SCIENCE.md §8). */
export type PretrainSpec = Pick<AgentSpec, 'id' | 'family' | 'size' | 'seed'> & {
  view?: ViewName;
  /** Architecture overrides (any of depth, width, heads, positions, MLP ratio) and the context `blockSize`. */
  arch?: Partial<FamilyArch> & { blockSize?: number };
  tokenizer?: TokenizerName;
  corpus?: CorpusSpec;
};

/** Progress of one pretraining run (for a CLI line or a UI bar). */
export interface PretrainProgress {
  agent: string;
  step: number;
  maxSteps: number;
  /** Smoothed training loss. */
  loss: number;
  /** Greedy validation accuracy, set at validation steps. */
  valAccuracy?: number;
  /** Sampled (T = 1) validation accuracy, set at validation steps. */
  valSampledAccuracy?: number;
  done: boolean;
}

export interface PretrainOptions {
  /** Overrides of the family's recipe (tests use tiny ones). */
  recipe?: Partial<PretrainRecipe>;
  /** Called after every validation and at the end. */
  onProgress?: (p: PretrainProgress) => void;
  /** Polled every step; true stops the run (the best model so far is returned). */
  shouldStop?: () => boolean;
  /** Recorded in the meta as `cacheKey` (the cache's content address). */
  cacheKey?: string;
}

export interface PretrainResult {
  agent: Agent;
  meta: BaseMeta;
  /** The checkpoint (src/model/checkpoint.ts format, meta = BaseMeta). */
  bytes: Uint8Array;
}

/** Token layout of a task in a view: prompt length, completion slots, context. */
export interface AgentLayout {
  promptLength: number;
  /** Longest correct completion + EOS. */
  maxNewTokens: number;
  /** Context: room for the prompt and maxNewTokens + 3 new tokens (RL may sample a little longer). */
  blockSize: number;
}

/** Slack positions beyond the longest correct completion (the RL default samples 2 more tokens). */
const CONTEXT_SLACK = 3;

/** Token layout of a task in a view: in tokens of `tok` (default: one per character). */
export function agentLayout(task: Task, view: ViewName, pool: readonly Problem[], tok?: Tokenizer): AgentLayout {
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
export function familyTokenizer(family: FamilySpec, task: TaskConfig, view: ViewName = family.view, name?: TokenizerName): Tokenizer {
  return makeNamedTokenizer(name ?? family.tokenizer ?? 'digit', taskAlphabet(task, [view]));
}

/** The model config of a spec: the family's architecture at its size, with the spec's overrides; refuses a context too small. */
function specGPTConfig(family: FamilySpec, spec: PretrainSpec, vocabSize: number, layout: AgentLayout) {
  const { blockSize: ctx, ...arch } = spec.arch ?? {};
  const need = layout.promptLength + layout.maxNewTokens - 1;
  if (ctx !== undefined && ctx < need) {
    throw new Error(`agent ${spec.id}: context ${ctx} cannot hold the prompt (${layout.promptLength} tokens) plus the longest completion with EOS (${layout.maxNewTokens} tokens): needs blockSize >= ${need}`);
  }
  const seed = deriveSeed(spec.seed, 'init', family.name, spec.size);
  return makeGPTConfig({ ...familyArch(family, spec.size), ...arch, vocabSize, blockSize: ctx ?? layout.blockSize, seed });
}

const pools = new Map<string, DataPool>();
/** The task's pretraining pool (cached per task and validation size). */
function poolFor(task: TaskConfig, valSize: number, mode: PoolMode): DataPool {
  const key = `${JSON.stringify(task)}|${valSize}|${mode}`;
  let p = pools.get(key);
  if (!p) pools.set(key, (p = makeDataPool(task, valSize, mode)));
  return p;
}

/** Distance of x from the interval [lo, hi] (0 inside). */
const bandDistance = (x: number, [lo, hi]: [number, number]): number => (x < lo ? lo - x : x > hi ? x - hi : 0);

/**
 * Pretrain the base agent `spec` (family, size, seed; view: the family's unless the spec names another)
 * on `taskConfig`. The data
 * order comes from deriveRng(seed, 'pretrain', family, size), the init from deriveSeed(seed, 'init', ...),
 * so two agents of one family with different seeds differ in both.
 */
export async function pretrainAgent(backend: Backend, spec: PretrainSpec, taskConfig: TaskConfig, opts: PretrainOptions = {}): Promise<PretrainResult> {
  const family = getFamily(spec.family);
  const recipe: PretrainRecipe = { ...family.recipe, ...opts.recipe };
  const view = spec.view ?? family.view;
  const pool = poolFor(taskConfig, recipe.valSize, recipe.pool ?? 'pool-slice');
  const { task } = pool;
  const corpus = spec.corpus ?? family.corpus;
  const training = corpus ? applyCorpus(pool.training, corpus, spec.seed) : pool.training;
  const tokName = spec.tokenizer ?? family.tokenizer;
  const tok = familyTokenizer(family, taskConfig, view, tokName);
  // character tokens keep the older layout (shipped checkpoints); other tokenizers count their own tokens
  const layout = tokName && tokName !== 'digit' ? agentLayout(task, view, [...pool.validation, ...training], tok) : agentLayout(task, view, pool.training);
  const model = new GPT(backend, specGPTConfig(family, spec, tok.vocabSize, layout));
  const cfg = model.cfg;
  const seqLen = layout.promptLength + layout.maxNewTokens;
  const encoded = new Map<Problem, { prompt: number[]; completion: number[] }>();
  const encode = (p: Problem): { prompt: number[]; completion: number[] } => {
    let e = encoded.get(p);
    if (!e) encoded.set(p, (e = { prompt: tok.encode(renderPrompt(p, view)), completion: tok.encode(renderCompletion(p, view)) }));
    return e;
  };
  const draw = mixSampler(training, recipe.mix, deriveRng(spec.seed, 'pretrain', family.name, spec.size));

  const history: BaseMeta['history'] = [];
  type Kept = { dist: number; index: number; params: Float32Array };
  let best: Kept | null = null;
  let lastInBand: Kept | null = null; // the 'budget' rule: the latest validation inside the band
  const budget = recipe.stop === 'budget';
  let inBand = false;
  let avg = NaN;
  const measure = async (step: number): Promise<BaseMeta['history'][number]> => {
    const greedy = (await greedyScores(model, tok, view, pool.validation, layout.maxNewTokens)).accuracy;
    const sampled = await sampledAccuracy(
      model, tok, view, pool.validation, layout.maxNewTokens, recipe.bandSamples, 1, deriveSeed(spec.seed, 'validation', step),
    );
    return { step, loss: +avg.toFixed(4), valAccuracy: greedy, valSampledAccuracy: sampled };
  };
  /** Validate after `step` steps; true when the band is reached. Keeps the closest model so far. */
  const validate = async (step: number): Promise<boolean> => {
    const h = await measure(step);
    history.push(h);
    opts.onProgress?.({ agent: spec.id, step, maxSteps: recipe.maxSteps, loss: avg, valAccuracy: h.valAccuracy, valSampledAccuracy: h.valSampledAccuracy, done: false });
    const dist = bandDistance(h.valAccuracy, recipe.band) + bandDistance(h.valSampledAccuracy, recipe.sampledBand);
    inBand = dist === 0;
    if (!inBand && (!best || dist < best.dist)) best = { dist, index: history.length - 1, params: await model.readParams() };
    if (budget && inBand && step < recipe.maxSteps) lastInBand = { dist, index: history.length - 1, params: await model.readParams() };
    return inBand && !budget;
  };
  const sft: SFTOptions = {
    steps: recipe.maxSteps, lr: recipe.lr, warmupSteps: recipe.warmupSteps, minLrFrac: 0.1, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0,
  };
  let steps = 0;
  for (let s = 0; s < recipe.maxSteps; s++) {
    if (opts.shouldStop?.()) break;
    const hp: AdamWParams = { lr: lrAt(s, sft), beta1: sft.beta1!, beta2: sft.beta2!, eps: sft.eps!, weightDecay: sft.weightDecay!, step: s + 1 };
    const batch = makeSFTBatch(draw(recipe.batch).map(encode), seqLen, tok.eosId);
    const { loss } = await sftStep(model, batch, hp, 1);
    if (!Number.isFinite(loss)) throw new Error(`pretraining ${spec.id} (${family.name}) diverged: loss ${loss} at step ${s + 1}`);
    avg = Number.isNaN(avg) ? loss : 0.9 * avg + 0.1 * loss;
    steps = s + 1;
    if (steps % recipe.evalEvery === 0 && (await validate(steps))) break;
  }
  releaseSFTBuffers(model);
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
  steps = final.step;
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
    ...(corpus ? { corpus } : {}),
    ...(opts.cacheKey ? { cacheKey: opts.cacheKey } : {}),
  };
  opts.onProgress?.({
    agent: spec.id, step: steps, maxSteps: recipe.maxSteps, loss: avg, valAccuracy: final.valAccuracy, valSampledAccuracy: final.valSampledAccuracy, done: true,
  });
  const bytes = await saveCheckpoint(model, meta as unknown as Record<string, unknown>);
  const axes = { ...(spec.arch ? { arch: spec.arch } : {}), ...(spec.tokenizer ? { tokenizer: spec.tokenizer } : {}), ...(spec.corpus ? { corpus: spec.corpus } : {}) };
  const agent: Agent = { spec: { id: spec.id, family: family.name, size: spec.size, seed: spec.seed, view, ...axes }, model, tokenizer: tok, base: meta };
  return { agent, meta, bytes };
}
