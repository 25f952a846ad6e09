// A file task through the cohort's agents by axes: the axes that cannot apply are refused with the reason,
// and a build's cache key follows the file's data.
import { describe, expect, it } from 'vitest';
import { buildKey, parseAxisCohort } from './axes';
import type { AgentSpec } from './agent';
import type { TaskConfig } from '../tasks/config';
import { loadTaskFile } from '../tasks/file/load';
import { registerTaskFile } from '../tasks/file/registry';
import { bytesOf, goodRows } from '../tasks/file/testFiles';

function fileTask(lines: string[]): TaskConfig {
  const f = loadTaskFile(bytesOf(lines));
  registerTaskFile(f);
  return { kind: 'file', hash: f.hash };
}

describe('file tasks and agents by axes', () => {
  const task = fileTask(goodRows(1000));
  it('refuse the reversed view, the chunk and words tokenizers and engineered region mixes, with the reason', () => {
    const r = parseAxisCohort({
      task,
      cohort: {
        agents: [
          { id: 'A', family: 'nat-rope' },
          { id: 'B', family: 'nat-rope', view: 'reversed' },
          { id: 'C', family: 'nat-chunk' },
          { id: 'D', family: 'nat-rope', tokenizer: 'words' },
          { id: 'E', family: 'rope-carry' },
        ],
      },
    });
    expect('errors' in r && r.errors).toEqual([
      expect.stringMatching(
        /^agent B: view reversed cannot apply to a file task: the reversed view writes numbers/,
      ),
      expect.stringMatching(
        /^agent C: tokenizer chunk\d cannot apply to a file task: it cuts runs of digits/,
      ),
      expect.stringMatching(/^agent D: tokenizer words cannot apply to a file task/),
      expect.stringMatching(/^agent E: .*region.* predicates over operand digits/),
    ]);
  });
  it('accept the natural axes that apply (architecture, size, seed, corpus)', () => {
    const r = parseAxisCohort({
      task,
      cohort: {
        agents: [
          { id: 'A', family: 'nat-rope', arch: { nLayer: 1, blockSize: 20 } },
          { id: 'B', family: 'nat-deep', seed: 2, corpus: { draw: 'share', index: 1, of: 2 } },
        ],
      },
    });
    expect(r).not.toHaveProperty('errors');
  });
  it('key a build by the data: another file, another key', () => {
    const spec: AgentSpec = { id: 'A', family: 'nat-rope', size: 's', seed: 1, view: 'plain' };
    const edited = fileTask([goodRows(1)[0].replace('"0"', '"5"'), ...goodRows(1000).slice(1)]);
    expect(buildKey(spec, task)).not.toBe(buildKey(spec, edited));
    expect(buildKey(spec, task)).toBe(
      buildKey(spec, { ...task, path: 'moved/elsewhere.jsonl' } as TaskConfig),
    );
  });
});
