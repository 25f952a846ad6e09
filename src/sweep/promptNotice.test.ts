// The sweep's notice about RL prompts its agents pretrained on (src/sweep/promptNotice.ts): said once per task,
// cohort and B with the share measured, naming the cells when not all are concerned; silent with unseen prompts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planSweep } from './grid';
import { promptNotices } from './promptNotice';

// gate B's unseen-prompts probe on mulw (agents by axes), cut to two cells
const probe = JSON.parse(readFileSync('experiments/regime/optimizer-mulw-unseen.sweep.json', 'utf8'));
const plan = (train: Record<string, unknown>, grid: Record<string, unknown[]>) => {
  const r = planSweep({ ...probe, train: { ...probe.train, ...train }, grid });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.plan;
};

describe('the RL prompts notice', () => {
  it('names the share of pretraining problems among the prompts, once for cells that share a task and cohort', () => {
    const notes = promptNotices(plan({ prompts: 'train' }, { seed: [1, 2] }).cells);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^every cell: (6[5-9]|7\d)% of the RL prompts \(first 20 steps\) are problems the agents pretrained on; train\.prompts 'unseen'/,
    );
  });

  it("names only the cells drawing from the whole train split, and says nothing with 'unseen'", () => {
    const mixed = plan({}, { 'train.prompts': ['train', 'unseen'] });
    expect(promptNotices(mixed.cells)).toEqual([expect.stringMatching(/^cells 0: /)]);
    expect(promptNotices(plan({ prompts: 'unseen' }, { seed: [1, 2] }).cells)).toEqual([]);
  });
});
