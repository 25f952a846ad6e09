// An agent of a cohort: its own model (parameters and optimizer state), tokenizer and prompt view.
// The contract between src/cohort (which builds agents from presets and checkpoints) and src/rl
// (which trains them). Agents share nothing: no parameters, no gradients, no random streams.
import type { GPT } from '../model/gpt';
import type { Tokenizer } from '../tasks/tokenizer';
import type { ViewName } from '../tasks/views';
import type { TokenizerName } from '../tasks/tokenizers';
import type { CorpusSpec } from './corpus';
import type { FamilyArch } from './familySpec';
import type { RecipeOverride } from './recipeAxis';
import type { BaseMeta } from './baseMeta';

/** What describes an agent, as plain data (JSON, URL, store). */
export interface AgentSpec {
  /** Unique within a cohort, e.g. "A" or "wide-plain-s1". */
  id: string;
  /** Family name (architecture + tokenizer/view + pretraining recipe), see families.ts. */
  family: string;
  /** Size name within the family (e.g. "s", "m"). */
  size: string;
  /** The agent's own seed (initialisation and pretraining data order). */
  seed: number;
  /** The prompt view this agent reads and answers in. */
  view: ViewName;
  /** Where its base checkpoint lives (relative to public/, e.g. "checkpoints/same-family/A.ckpt"). */
  checkpoint?: string;
  /** Axis overrides (docs/method.md ("Natural diversity"); src/cohort/axes.ts): architecture, tokenizer, pretraining corpus. */
  arch?: Partial<FamilyArch> & { blockSize?: number };
  tokenizer?: TokenizerName;
  corpus?: CorpusSpec;
  /** Overrides of the family's pretraining recipe (src/cohort/recipeAxis.ts): steps, lr, stop rule, noise... */
  recipe?: RecipeOverride;
}

/** A live agent: a spec plus its model on some backend. */
export interface Agent {
  spec: AgentSpec;
  model: GPT;
  tokenizer: Tokenizer;
  /**
   * What its base checkpoint records (family, task, alphabet, prompt length, longest completion,
   * validation accuracy...), when the agent came from src/cohort's factory or a base checkpoint.
   */
  base?: BaseMeta;
}
