// The supervised demo of the first page and of `npm run learn`: a small GPT learns 2-digit addition
// (src/tasks `add`, eval split held out) with next-token cross-entropy, then is scored by greedy
// exact match on held-out problems. Runs on any backend.
import type { Backend } from '../engine/backend';
import { makeGPTConfig, type GPTConfig, type PosVariant } from '../model/config';
import { generate } from '../model/generate';
import { GPT } from '../model/gpt';
import { makeSFTBatch, trainSFT } from '../model/sft';
import {
  makeTask,
  makeTokenizer,
  renderCompletion,
  renderPrompt,
  scoreCompletion,
  taskAlphabet,
  type Problem,
  type Task,
  type Tokenizer,
  type ViewName,
} from '../tasks';
import { deriveRng } from '../util/rng';

export interface AdditionDemoOptions {
  steps: number;
  batch: number;
  lr: number;
  nLayer: number;
  nHead: number;
  nEmbd: number;
  pos: PosVariant;
  view: ViewName;
  seed: number;
}

export const DEFAULT_ADDITION_DEMO: AdditionDemoOptions = {
  steps: 1500,
  batch: 64,
  lr: 5e-3,
  nLayer: 2,
  nHead: 4,
  nEmbd: 40,
  pos: 'learned',
  view: 'plain',
  seed: 1,
};

export interface AdditionDemo {
  task: Task;
  tok: Tokenizer;
  cfg: GPTConfig;
  model: GPT;
  promptLen: number;
  maxCompletion: number;
  seqLen: number;
  opts: AdditionDemoOptions;
}

/** Build the task, tokenizer and a fresh model for the demo on `backend`. */
export function makeAdditionDemo(backend: Backend, options: Partial<AdditionDemoOptions> = {}): AdditionDemo {
  const opts = { ...DEFAULT_ADDITION_DEMO, ...options };
  const task = makeTask({ kind: 'add', digits: 2 });
  const tok = makeTokenizer(taskAlphabet(task.config, [opts.view]));
  const promptLen = task.promptLength(opts.view);
  const maxCompletion = renderCompletion(task.problem([99, 99]), opts.view).length + 1; // longest answer + EOS
  const seqLen = promptLen + maxCompletion;
  const cfg = makeGPTConfig({
    vocabSize: tok.vocabSize,
    blockSize: seqLen - 1,
    nLayer: opts.nLayer,
    nHead: opts.nHead,
    nEmbd: opts.nEmbd,
    mlpRatio: 4,
    pos: opts.pos,
    seed: opts.seed,
  });
  return { task, tok, cfg, model: new GPT(backend, cfg), promptLen, maxCompletion, seqLen, opts };
}

const encode = (d: AdditionDemo, p: Problem): { prompt: number[]; completion: number[] } => ({
  prompt: d.tok.encode(renderPrompt(p, d.opts.view)),
  completion: d.tok.encode(renderCompletion(p, d.opts.view)),
});

/** Train with AdamW (warmup + cosine); `onStep` gets every step's loss and may return false to stop. */
export function trainAdditionDemo(
  d: AdditionDemo,
  onStep?: (step: number, loss: number) => boolean | void,
): Promise<number[]> {
  const rng = deriveRng(d.cfg.seed, 'learnAddition', 'train');
  const { steps, batch, lr } = d.opts;
  return trainSFT(
    d.model,
    () =>
      makeSFTBatch(
        d.task.sampleTrain(rng, batch).map((p) => encode(d, p)),
        d.seqLen,
        d.tok.eosId,
      ),
    {
      steps,
      lr,
      warmupSteps: Math.min(100, steps / 10),
      minLrFrac: 0.05,
      beta2: 0.99,
      weightDecay: 0,
      maxNorm: 1,
    },
    ({ step, loss }) => onStep?.(step, loss),
  );
}

export interface DemoEvaluation {
  heldOut: number;
  /** Completion text identical to the target (answer marker and EOS included). */
  exactMatch: number;
  /** Extracted answer equals the ground truth. */
  answerAccuracy: number;
  wrongExamples: string[];
}

/** Greedy decoding on the first `n` held-out problems (never trained on). */
export async function evaluateAdditionDemo(d: AdditionDemo, n: number): Promise<DemoEvaluation> {
  const problems = d.task.evalSet(Math.min(n, d.task.sizes.eval));
  let exact = 0;
  let correct = 0;
  const wrongExamples: string[] = [];
  for (let i = 0; i < problems.length; i += 500) {
    const chunk = problems.slice(i, i + 500);
    const prompts = Uint32Array.from(chunk.flatMap((p) => encode(d, p).prompt));
    const res = await generate(d.model, prompts, chunk.length, d.promptLen, {
      samples: 1,
      temperature: 0,
      maxNewTokens: d.maxCompletion,
      eosId: d.tok.eosId,
      seed: 0,
    });
    chunk.forEach((p, r) => {
      const text = d.tok.decode(
        res.tokens.subarray(r * d.maxCompletion, r * d.maxCompletion + res.lengths[r]),
      );
      const target = renderCompletion(p, d.opts.view);
      if (!res.truncated[r] && text === target) exact++;
      if (scoreCompletion(p, text, d.opts.view)) correct++;
      else if (wrongExamples.length < 5)
        wrongExamples.push(`${renderPrompt(p, d.opts.view)}${text} (want ${target})`);
    });
  }
  return {
    heldOut: problems.length,
    exactMatch: exact / problems.length,
    answerAccuracy: correct / problems.length,
    wrongExamples,
  };
}
