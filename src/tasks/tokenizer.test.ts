// Tests for the character tokenizer and the per-task/view alphabet helper.
import { describe, expect, it } from 'vitest';
import { TASK_KINDS, type TaskConfig } from './config';
import { makeRng } from '../util/rng';
import { makeTask, renderCompletion, renderPrompt } from './task';
import { BOS_ID, EOS_ID, NUM_SPECIAL, PAD_ID, makeTokenizer, taskAlphabet } from './tokenizer';
import { VIEW_NAMES } from './views';

describe('makeTokenizer', () => {
  it('round-trips text with reserved special ids', () => {
    const tok = makeTokenizer('9876543210+=#');
    expect(tok.alphabet).toBe('#+0123456789=');
    expect(tok.vocabSize).toBe(NUM_SPECIAL + 13);
    expect([tok.padId, tok.bosId, tok.eosId]).toEqual([PAD_ID, BOS_ID, EOS_ID]);
    const ids = tok.encode('37+05=#42');
    expect(Math.min(...ids)).toBeGreaterThanOrEqual(NUM_SPECIAL);
    expect(tok.decode(ids)).toBe('37+05=#42');
    expect(tok.idOf('#')).toBe(NUM_SPECIAL);
  });

  it('decode stops at EOS and skips PAD/BOS', () => {
    const tok = makeTokenizer('0123456789#');
    const ids = [BOS_ID, ...tok.encode('#4'), PAD_ID, ...tok.encode('2'), EOS_ID, ...tok.encode('99')];
    expect(tok.decode(ids)).toBe('#42');
    expect(tok.decode(Int32Array.from([EOS_ID, ...tok.encode('1')]))).toBe('');
    expect(() => tok.decode([tok.vocabSize])).toThrow(`cannot decode token id ${tok.vocabSize}`);
  });

  it('names unknown characters', () => {
    const tok = makeTokenizer('0123456789');
    expect(() => tok.encode('12ab1a')).toThrow(
      'cannot encode unknown character(s) "a", "b"; alphabet is "0123456789"',
    );
    expect(tok.canEncode('12')).toBe(true);
    expect(tok.canEncode('1x')).toBe(false);
    expect(() => makeTokenizer('')).toThrow(/empty/);
  });
});

describe('taskAlphabet', () => {
  it('covers every prompt and completion of the configured views, and differs between views', () => {
    const configs: TaskConfig[] = TASK_KINDS.map((kind) => ({ kind }) as TaskConfig);
    const plain = taskAlphabet(configs, ['plain']);
    const all = taskAlphabet(configs, VIEW_NAMES);
    expect(plain.length).toBeLessThan(all.length);
    expect(taskAlphabet({ kind: 'add' }, ['plain'])).toBe('#+0123456789=');
    for (const cfg of configs) {
      const task = makeTask(cfg);
      for (const views of [['plain'], VIEW_NAMES] as const) {
        const tok = makeTokenizer(taskAlphabet(cfg, views));
        for (const p of task.sampleTrain(makeRng(1), 100)) {
          for (const v of views) {
            expect(tok.decode(tok.encode(renderPrompt(p, v) + renderCompletion(p, v)))).toBe(
              renderPrompt(p, v) + renderCompletion(p, v),
            );
          }
        }
      }
    }
    expect(() => taskAlphabet({ kind: 'add' }, ['bogus' as never])).toThrow(/valid views/);
  });
});
