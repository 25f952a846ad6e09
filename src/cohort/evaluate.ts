// Greedy single-sample scoring of one agent on a list of problems (batched KV-cache decoding on the
// agent's backend): the decoded completion, the extracted answer and whether it is right, per problem.
// Used to stop pretraining in its accuracy band and by the error-overlap table (docs/method.md ("Diversity and error overlap")).
import { generate } from '../model/generate';
import type { GPT } from '../model/gpt';
import {
  extractAnswer,
  isCorrectAnswer,
  renderPrompt,
  type Problem,
  type Tokenizer,
  type ViewName,
} from '../tasks';

/** Greedy answers of one model on some problems (same order). */
export interface GreedyScores {
  texts: string[];
  answers: (string | null)[];
  correct: boolean[];
  /** Share of problems answered right. */
  accuracy: number;
}

/** Rows per generate call. */
const CHUNK = 512;

/** The (B, Tp) prompt ids of some problems in a view (every prompt of one view has the same length). */
function encodePrompts(
  tokenizer: Tokenizer,
  view: ViewName,
  problems: readonly Problem[],
): { ids: Uint32Array; Tp: number } {
  const enc = problems.map((p) => tokenizer.encode(renderPrompt(p, view)));
  const Tp = enc[0].length;
  const ids = new Uint32Array(problems.length * Tp);
  enc.forEach((e, b) => {
    if (e.length !== Tp) throw new Error(`prompt ${b} has ${e.length} tokens, prompt 0 has ${Tp}`);
    ids.set(e, b * Tp);
  });
  return { ids, Tp };
}

/**
 * Mean accuracy of `samples` completions per problem sampled at `temperature` (draws seeded by
 * `seed`): the p(correct) an RL rollout at that temperature sees. Measurement only.
 */
export async function sampledAccuracy(
  model: GPT,
  tokenizer: Tokenizer,
  view: ViewName,
  problems: readonly Problem[],
  maxNewTokens: number,
  samples: number,
  temperature: number,
  seed: number,
): Promise<number> {
  const m = await sampleMany(model, tokenizer, view, problems, maxNewTokens, samples, temperature, seed);
  const right = m.correct.reduce((a, c) => a + c.filter(Boolean).length, 0);
  return problems.length ? right / (problems.length * samples) : 0;
}

/** S answers per problem drawn at one temperature (problem-major), with their correctness. */
export interface ManyScores {
  /** `answers[i][s]`: the s-th sample's extracted answer to problem i (null = unparseable). */
  answers: (string | null)[][];
  correct: boolean[][];
}

/**
 * `samples` completions per problem at `temperature` (draws seeded by `seed`), each decoded, its answer
 * extracted and scored: the per-problem distribution a rollout group sees. Measurement only.
 */
export async function sampleMany(
  model: GPT,
  tokenizer: Tokenizer,
  view: ViewName,
  problems: readonly Problem[],
  maxNewTokens: number,
  samples: number,
  temperature: number,
  seed: number,
): Promise<ManyScores> {
  const out: ManyScores = { answers: [], correct: [] };
  const per = Math.max(1, Math.floor(CHUNK / samples));
  for (let i = 0; i < problems.length; i += per) {
    const part = problems.slice(i, i + per);
    const { ids, Tp } = encodePrompts(tokenizer, view, part);
    const g = await generate(model, ids, part.length, Tp, {
      samples,
      temperature,
      maxNewTokens,
      eosId: tokenizer.eosId,
      seed: (seed + i) >>> 0,
    });
    part.forEach((p, b) => {
      const answers: (string | null)[] = [];
      const correct: boolean[] = [];
      for (let s = 0; s < samples; s++) {
        const r = b * samples + s;
        const text = tokenizer.decode(g.tokens.subarray(r * maxNewTokens, r * maxNewTokens + g.lengths[r]));
        const a = extractAnswer(text, view, p);
        answers.push(a);
        correct.push(isCorrectAnswer(p, a));
      }
      out.answers.push(answers);
      out.correct.push(correct);
    });
  }
  return out;
}

/**
 * Decode every problem greedily (temperature 0) in `view` with up to `maxNewTokens` tokens and score
 * the extracted answers against the ground truth (measurement only, never a reward).
 */
export async function greedyScores(
  model: GPT,
  tokenizer: Tokenizer,
  view: ViewName,
  problems: readonly Problem[],
  maxNewTokens: number,
): Promise<GreedyScores> {
  return sampleScores(model, tokenizer, view, problems, maxNewTokens, 0, 0);
}

/**
 * One completion per problem at `temperature` (0 = greedy; draws seeded by `seed`), decoded and scored:
 * the single-sample reading of the paper's overlap tables (T = 0.8). Measurement only.
 */
export async function sampleScores(
  model: GPT,
  tokenizer: Tokenizer,
  view: ViewName,
  problems: readonly Problem[],
  maxNewTokens: number,
  temperature: number,
  seed: number,
): Promise<GreedyScores> {
  const out: GreedyScores = { texts: [], answers: [], correct: [], accuracy: 0 };
  if (problems.length === 0) return out;
  for (let i = 0; i < problems.length; i += CHUNK) {
    const part = problems.slice(i, i + CHUNK);
    const { ids, Tp } = encodePrompts(tokenizer, view, part);
    const g = await generate(model, ids, part.length, Tp, {
      samples: 1,
      temperature,
      maxNewTokens,
      eosId: tokenizer.eosId,
      seed: (seed + i) >>> 0,
    });
    part.forEach((p, r) => {
      const text = tokenizer.decode(g.tokens.subarray(r * maxNewTokens, r * maxNewTokens + g.lengths[r]));
      const answer = extractAnswer(text, view, p);
      out.texts.push(text);
      out.answers.push(answer);
      out.correct.push(isCorrectAnswer(p, answer));
    });
  }
  out.accuracy = out.correct.filter(Boolean).length / problems.length;
  return out;
}
