// An agent's sequence layout (prompt length, completion budget, context): a file of its own so the recipe's
// levers (src/cohort/workPathMix.ts) can widen it without importing the pretraining specs.
/** Token layout of a task in a view: prompt length, completion slots, context. */
export interface AgentLayout {
  promptLength: number;
  /** Longest correct completion + EOS. */
  maxNewTokens: number;
  /** Context: room for the prompt and maxNewTokens + 3 new tokens (RL may sample a little longer). */
  blockSize: number;
}
