// A sweep says, before it runs, where its RL prompts include problems its agents pretrained on (train.prompts
// 'train' on a task whose pretraining pool is a large share of the train split; src/rl/unseenPrompts.ts): one line
// per task, cohort and B, measured on the first cell's prompt stream. A notice, never a refusal.
import { stable } from '../rl/canonical';
import { promptsNote } from '../rl/unseenPrompts';
import type { Cell } from './grid';

/** One line per group of cells whose prompts are at least 5% pretraining problems; [] when none are. */
export function promptNotices(cells: readonly Cell[]): string[] {
  const groups = new Map<string, Cell[]>();
  for (const c of cells) {
    if (c.config.train.prompts === 'unseen') continue;
    const key = stable({ task: c.config.task, cohort: c.config.cohort, b: c.config.train.batchPrompts });
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const out: string[] = [];
  for (const group of groups.values()) {
    const note = promptsNote(group[0].config);
    if (note === null) continue;
    const which =
      group.length === cells.length ? 'every cell' : `cells ${group.map((c) => c.index).join(', ')}`;
    out.push(`${which}: ${note}`);
  }
  return out;
}
