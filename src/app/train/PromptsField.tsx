// Where the RL prompts come from (`train.prompts`, src/rl/unseenPrompts.ts): any train problem, or only the ones
// no base agent pretrained on. Where the agents' pools leave too few unseen problems, the reason shows here.
import { PROMPT_SOURCES, type PromptSource } from '../../rl/configTypes';
import { changeSettings } from '../../store/trainBridge';
import { SelectField } from './SelectField';

const LABEL: Record<PromptSource, string> = {
  train: 'any train problem (default)',
  unseen: 'unseen by the agents',
};
const HELP: Record<PromptSource, string> = {
  train: 'may include problems the agents pretrained on (their pool is a sample of the train split)',
  unseen: 'only train problems outside every agent’s pretraining pool: new, unlabelled problems',
};

/** `seen`: the share of the run's first prompts its agents pretrained on (null when it cannot be measured). */
export function PromptsField({
  value,
  problem,
  seen,
}: {
  value: PromptSource;
  problem?: string;
  seen: number | null;
}) {
  const measured =
    value === 'train' && seen !== null
      ? `${Math.round(seen * 100)}% of this run's first prompts are problems its agents pretrained on (their pool is a sample of the train split)`
      : null;
  return (
    <SelectField
      id="prompts"
      label="RL prompts"
      value={value}
      options={PROMPT_SOURCES.map((v) => ({ v, label: LABEL[v] }))}
      onChange={(prompts) => changeSettings({ prompts })}
      help={measured ?? HELP[value]}
      problem={problem}
    />
  );
}
