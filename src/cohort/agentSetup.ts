// What every pretraining of an agent sets up before its first step: the token layout of its task, its
// tokenizer and the pool of problems its recipe draws from (shared by ./pretrain.ts and ./ladder.ts).
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
import type { FamilySpec, PretrainRecipe } from './familySpec';
import type { AgentLayout } from './pretrainSpec';
import { longestCompletion, makeDataPool, type DataPool, type PoolMode } from './regions';

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
