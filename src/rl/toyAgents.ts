// Tiny agents for tests and browser checks: a small GPT pretrained briefly (supervised, CPU) on a task in
// one view, so that it answers right only part of the time (docs/method.md ("Setting"): RL starts between 0 and 1),
// then copied onto any backend. Deterministic in its seed. Not the cohort presets (src/cohort).
import type { Agent, AgentSpec } from '../cohort/agent';
import type { Backend } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeGPTConfig } from '../model/config';
import { GPT } from '../model/gpt';
import { generate, releaseDecoders } from '../model/generate';
import { makeSFTBatch, releaseSFTBuffers, sftStep } from '../model/sft';
import {
  extractAnswer,
  makeTask,
  makeTokenizer,
  renderCompletion,
  renderPrompt,
  taskAlphabet,
  type Problem,
  type TaskConfig,
  type Tokenizer,
  type ViewName,
} from '../tasks';
import { deriveRng } from '../util/rng';

/** Recipe of one toy agent. */
export interface ToyAgentRecipe {
  id: string;
  view: ViewName;
  seed: number;
  /** Supervised steps (few = a weak base). */
  steps: number;
  nEmbd?: number;
  nLayer?: number;
  lr?: number;
  batch?: number;
  /** Stop early at the first check (every 25 steps) whose greedy accuracy on 200 training problems lies in [lo, hi]. */
  band?: [number, number];
}

/** The small task the toy agents learn: 1-digit addition (100 problems, 30 held out). */
export const TOY_TASK: TaskConfig = { kind: 'add', digits: 1, evalFraction: 0.3 };

/** Pretrain a toy agent on the CPU and return its flat parameters with the pieces to rebuild it anywhere. */
export async function pretrainToy(
  r: ToyAgentRecipe,
  task: TaskConfig = TOY_TASK,
): Promise<{
  spec: AgentSpec;
  params: Float32Array;
  cfg: ReturnType<typeof makeGPTConfig>;
  alphabet: string;
}> {
  const t = makeTask(task);
  const alphabet = taskAlphabet(task, [r.view]);
  const tok = makeTokenizer(alphabet);
  const Tp = t.promptLength(r.view);
  const longest = Math.max(
    ...t
      .sampleTrain(deriveRng(0, 'toy-len'), Math.floor(t.sizes.train / 2))
      .map((p) => renderCompletion(p, r.view).length),
  );
  const seqLen = Tp + longest + 1 + 3; // room for 3 extra completion slots in RL
  const cfg = makeGPTConfig({
    vocabSize: tok.vocabSize,
    blockSize: seqLen - 1,
    nLayer: r.nLayer ?? 2,
    nHead: 4,
    nEmbd: r.nEmbd ?? 32,
    seed: r.seed,
  });
  const model = new GPT(new CpuBackend(), cfg);
  const rng = deriveRng(r.seed, 'toy-sft');
  const B = r.batch ?? 32;
  const n = Math.min(B, t.sizes.train);
  const val = r.band
    ? t.sampleTrain(deriveRng(r.seed, 'toy-val'), Math.min(200, Math.floor(t.sizes.train / 2)))
    : [];
  const lr = r.lr ?? 3e-3;
  for (let s = 0; s < r.steps; s++) {
    const batch = makeSFTBatch(
      t.sampleTrain(rng, n).map((p) => ({
        prompt: tok.encode(renderPrompt(p, r.view)),
        completion: tok.encode(renderCompletion(p, r.view)),
      })),
      Tp + longest + 1,
      tok.eosId,
    );
    await sftStep(
      model,
      batch,
      {
        lr: s < 10 ? (lr * (s + 1)) / 10 : lr,
        beta1: 0.9,
        beta2: 0.99,
        eps: 1e-8,
        weightDecay: 0,
        step: s + 1,
      },
      1,
    );
    if (r.band && (s + 1) % 25 === 0) {
      const acc = await greedyAccuracy(model, tok, r.view, val, longest + 1);
      if (acc >= r.band[0] && acc <= r.band[1]) break;
    }
  }
  const params = await model.readParams();
  releaseSFTBuffers(model);
  releaseDecoders(model);
  model.free();
  return { spec: { id: r.id, family: 'toy', size: 's', seed: r.seed, view: r.view }, params, cfg, alphabet };
}

/** Greedy accuracy of a model on problems (all prompts of one view have the same length). */
async function greedyAccuracy(
  model: GPT,
  tok: Tokenizer,
  view: ViewName,
  problems: readonly Problem[],
  maxNew: number,
): Promise<number> {
  const enc = problems.map((p) => tok.encode(renderPrompt(p, view)));
  const Tp = enc[0].length;
  const g = await generate(model, Uint32Array.from(enc.flat()), problems.length, Tp, {
    samples: 1,
    temperature: 0,
    maxNewTokens: maxNew,
    eosId: tok.eosId,
    seed: 0,
  });
  let right = 0;
  problems.forEach((p, r) => {
    if (
      extractAnswer(tok.decode(g.tokens.subarray(r * maxNew, r * maxNew + g.lengths[r])), view, p) ===
      p.answer
    )
      right++;
  });
  return right / problems.length;
}

/** Build a live agent on `backend` from pretrained toy parameters. */
export function toyAgent(backend: Backend, p: Awaited<ReturnType<typeof pretrainToy>>): Agent {
  const model = new GPT(backend, p.cfg);
  model.writeParams(p.params);
  return { spec: { ...p.spec }, model, tokenizer: makeTokenizer(p.alphabet) };
}

/** A pretrained toy agent (what pretrainToy returns). */
export type ToyAgent = Awaited<ReturnType<typeof pretrainToy>>;

/**
 * The tests' usual toy cohort, each agent pretrained `steps` steps: A (plain view, seed 1), B (reversed,
 * seed 2) and, for n = 3, C (swap, seed 3).
 */
export async function toyCohort(steps: number, n: 2 | 3 = 2): Promise<ToyAgent[]> {
  const recipes: ToyAgentRecipe[] = [
    { id: 'A', view: 'plain', seed: 1, steps },
    { id: 'B', view: 'reversed', seed: 2, steps },
    { id: 'C', view: 'swap', seed: 3, steps },
  ];
  const out: ToyAgent[] = [];
  for (const r of recipes.slice(0, n)) out.push(await pretrainToy(r));
  return out;
}
