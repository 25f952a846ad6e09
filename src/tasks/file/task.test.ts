import { describe, expect, it } from 'vitest';
import {
  extractAnswer,
  makeNamedTokenizer,
  makeTask,
  renderCompletion,
  renderPrompt,
  scoreCompletion,
  taskAlphabet,
  validateTaskConfig,
  type TaskConfig,
} from '..';
import { deriveRng } from '../../util/rng';
import { PROMPT_PAD } from './format';
import { loadTaskFile, type LoadOptions } from './load';
import { registerTaskFile } from './registry';
import { bytesOf, goodRows } from './testFiles';

/** Load and register a file; its task config. */
function fileTask(lines: string[], opts: LoadOptions = {}): TaskConfig {
  const f = loadTaskFile(bytesOf(lines), opts);
  registerTaskFile(f);
  return { kind: 'file', hash: f.hash, normalize: f.normalize, evalFraction: f.evalFraction };
}

const ROWS = goodRows(1000);

describe('a task from a file', () => {
  it('splits the rows by a hash of the prompt into disjoint train, validation and test (about 70/10/20)', () => {
    const t = makeTask(fileTask(ROWS));
    const test = t.heldOut('test', t.sizes.test).map((p) => p.key);
    const val = t.heldOut('validation', t.sizes.validation).map((p) => p.key);
    const pre = t.sampleSplit('train', deriveRng(1, 'x'), t.sizes.train).map((p) => p.key);
    const rl = t.sampleTrain(deriveRng(1, 'y'), t.sizes.rl!).map((p) => p.key);
    const all = [...test, ...val, ...pre, ...rl];
    expect(new Set(all).size).toBe(1000); // every row in exactly one place
    expect(all).toHaveLength(1000);
    expect(test.length / 1000).toBeGreaterThan(0.15);
    expect(test.length / 1000).toBeLessThan(0.25);
    expect((pre.length + rl.length) / 1000).toBeGreaterThan(0.62);
    // the split is the prompt's: the same prompt in another file lands in the same split
    const other = makeTask(fileTask([...ROWS.slice(0, 900), ...goodRows(1400).slice(1000)]));
    for (const p of t.heldOut('test', 20)) expect(other.splitOf(p.key)).toBe('test');
  });
  it('draws RL prompts only from train rows no pretraining pool holds', () => {
    const t = makeTask(fileTask(ROWS));
    const pretrain = new Set(
      t.sampleSplit('train+validation', deriveRng(2, 'p'), t.sizes.train).map((p) => p.key),
    );
    const rl = t.sampleTrain(deriveRng(3, 'r'), 100);
    expect(rl.every((p) => t.splitOf(p.key) === 'train' && !pretrain.has(p.key))).toBe(true);
    expect(() => t.sampleTrain(deriveRng(3, 'r'), t.sizes.rl! + 1)).toThrow(/RL half/);
  });
  it('pads every prompt to the longest and writes working, the marker and the answer', () => {
    const t = makeTask(fileTask(ROWS));
    const p = t.problem([3]);
    expect(renderPrompt(p, 'plain')).toBe(`${PROMPT_PAD.repeat(2)}q3?`);
    expect(t.promptLength('plain')).toBe(5);
    expect(renderCompletion(p, 'plain')).toBe('3%7#3');
    expect(t.longestCompletion('plain')).toBe(
      Math.max(...ROWS.map((r) => JSON.parse(r)).map((r) => (r.working ?? '').length + 1 + r.answer.length)),
    );
    expect(scoreCompletion(p, '3%7#3', 'plain')).toBe(true);
    expect(scoreCompletion(p, '#3 ', 'plain')).toBe(false); // exact
  });
  it('extracts the answer after the last marker, normalised as the config says', () => {
    const rows = ROWS.map((r, i) => (i === 0 ? JSON.stringify({ prompt: 'Cap?', answer: 'Paris' }) : r));
    const exact = makeTask(fileTask(rows)).problem([0]);
    const fold = makeTask(fileTask(rows, { normalize: 'casefold' })).problem([0]);
    const num = makeTask(fileTask(ROWS, { normalize: 'numeric' })).problem([5]);
    expect(scoreCompletion(exact, 'x#y#Paris', 'plain')).toBe(true);
    expect(scoreCompletion(exact, '#paris', 'plain')).toBe(false);
    expect(scoreCompletion(fold, '# PARIS ', 'plain')).toBe(true);
    expect(scoreCompletion(num, '#+005.0', 'plain')).toBe(true);
    expect(extractAnswer('#5x', 'plain', num)).toBeNull();
    expect(extractAnswer('no marker', 'plain', fold)).toBeNull();
  });
  it('refuses the views that cannot apply, with the reason', () => {
    const t = makeTask(fileTask(ROWS));
    expect(() => renderPrompt(t.problem([0]), 'reversed')).toThrow(
      /least-significant digit first, which free text does not have/,
    );
    expect(() => renderCompletion(t.problem([0]), 'words')).toThrow(/prompt template/);
  });
  it("builds the character tokenizer from the file's characters", () => {
    const c = fileTask([JSON.stringify({ prompt: 'ab?', answer: 'ba' }), ...ROWS.slice(1)]);
    const alphabet = taskAlphabet(c, ['plain']);
    expect(alphabet).toBe(
      loadTaskFile(bytesOf([JSON.stringify({ prompt: 'ab?', answer: 'ba' }), ...ROWS.slice(1)])).alphabet,
    );
    expect(alphabet).toContain('a');
    const tok = makeNamedTokenizer('digit', alphabet);
    const p = makeTask(c).problem([0]);
    expect(tok.decode(tok.encode(renderPrompt(p, 'plain') + renderCompletion(p, 'plain')))).toBe(
      `${PROMPT_PAD.repeat(2)}ab?#ba`,
    );
  });
});

describe('file task configs', () => {
  it('name what is missing, unknown or not loaded', () => {
    expect(validateTaskConfig({ kind: 'file', path: 'x.jsonl' })).toEqual([
      expect.stringMatching(/^file: the task file x\.jsonl is not loaded/),
    ]);
    expect(validateTaskConfig({ kind: 'file', hash: 'f'.repeat(64), normalize: 'loose', extra: 1 })).toEqual([
      'unknown field "extra" for task kind "file"; valid fields: kind, path, hash, normalize, evalFraction',
      "file.normalize must be one of 'exact', 'trimmed', 'casefold', 'numeric', got \"loose\"",
    ]);
    expect(validateTaskConfig({ kind: 'file', hash: 'f'.repeat(64) })).toEqual([
      expect.stringMatching(
        /^file: no task file with hash ffffffffffffffff\.\.\. \(normalize exact, evalFraction 0\.2\) is loaded/,
      ),
    ]);
    expect(() => makeTask({ kind: 'file', hash: 'e'.repeat(64) })).toThrow(/no task file with hash eeee/);
  });
});
