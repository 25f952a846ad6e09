// The axes of agent diversity that cannot apply to a file task, refused with the reason (docs/tasks.md
// "Bring your own task"): the views that rewrite a built-in template or reverse digits, the tokenizers that
// assume digit runs or known template words, and recipe regions (predicates over operand digits). What
// remains: architecture, size, seed, the corpus draw, and the plain view.
import { fileViewProblem } from './kind';

/** What an agent spec is, for the file task checks. */
export interface FileAgentAxes {
  id: string;
  view: string;
  /** The agent's tokenizer (its own, else its family's). */
  tokenizer: string;
  /** The regions its pretraining recipe mixes. */
  regions: readonly string[];
}

/** Problems of an agent's axes on a file task; [] when every axis applies. */
export function fileAgentErrors(a: FileAgentAxes): string[] {
  const errs: string[] = [];
  const at = `agent ${a.id}`;
  const view = fileViewProblem(a.view);
  if (view) errs.push(`${at}: view ${a.view} cannot apply to a file task: ${view}`);
  if (a.tokenizer !== 'digit')
    errs.push(
      `${at}: tokenizer ${a.tokenizer} cannot apply to a file task: ${a.tokenizer === 'words' ? 'its tokens are the words of the built-in prompt templates' : 'it cuts runs of digits into chunks, and the padded prompts of free text would then differ in token count'}; file tasks use the character tokenizer ("digit": one token per character)`,
    );
  const bad = a.regions.filter((r) => r !== 'all');
  if (bad.length)
    errs.push(
      `${at}: its recipe mixes region${bad.length > 1 ? 's' : ''} ${bad.join(', ')}, which are predicates over operand digits that a file's rows do not have; use a natural family (region 'all') with a file task`,
    );
  return errs;
}
