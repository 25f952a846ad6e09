// Tests of GPT config validation: every bad field is named with its allowed values.
import { describe, expect, it } from 'vitest';
import {
  assertFitsContext,
  assertGPTConfig,
  DEFAULT_GPT_CONFIG,
  makeGPTConfig,
  validateGPTConfig,
} from './config';

describe('GPT config', () => {
  it('accepts the defaults and overrides', () => {
    expect(validateGPTConfig({ ...DEFAULT_GPT_CONFIG })).toEqual([]);
    expect(makeGPTConfig({ nLayer: 3, pos: 'rope' }).nLayer).toBe(3);
  });

  it('names every bad field at once', () => {
    const errs = validateGPTConfig({
      ...DEFAULT_GPT_CONFIG,
      vocabSize: 0,
      blockSize: 2.5,
      nLayer: -1,
      mlpRatio: '4',
      pos: 'alibi',
      seed: -3,
      extra: 1,
    });
    const text = errs.join('\n');
    for (const f of ['vocabSize', 'blockSize', 'nLayer', 'mlpRatio', 'pos', 'seed', "unknown field 'extra'"])
      expect(text).toContain(f);
    expect(text).toContain("'learned' | 'rope'");
    expect(errs.length).toBe(7);
  });

  it('requires heads to divide the width and an even head size for rope', () => {
    expect(validateGPTConfig({ ...DEFAULT_GPT_CONFIG, nEmbd: 30, nHead: 4 })[0]).toMatch(
      /nHead=4 must divide nEmbd=30/,
    );
    expect(validateGPTConfig({ ...DEFAULT_GPT_CONFIG, nEmbd: 30, nHead: 2, pos: 'learned' })).toEqual([]);
    expect(validateGPTConfig({ ...DEFAULT_GPT_CONFIG, nEmbd: 30, nHead: 2, pos: 'rope' })[0]).toMatch(
      /head size 15 .* must be even for pos='rope'/,
    );
  });

  it('reports missing fields and non-objects', () => {
    const { nHead: _nHead, ...rest } = DEFAULT_GPT_CONFIG;
    expect(validateGPTConfig(rest)).toEqual(['nHead: missing (a positive integer dividing nEmbd)']);
    expect(validateGPTConfig(null)).toEqual(['GPT config must be an object']);
  });

  it('assertGPTConfig throws one error listing every problem', () => {
    expect(() => assertGPTConfig({ ...DEFAULT_GPT_CONFIG, nLayer: 0, nHead: 0 })).toThrow(
      /nLayer[\s\S]*nHead/,
    );
  });

  it('refuses prompts that do not fit the context', () => {
    const cfg = makeGPTConfig({ blockSize: 10 });
    expect(() => assertFitsContext(cfg, 6, 5)).not.toThrow();
    expect(() => assertFitsContext(cfg, 11, 1)).toThrow(
      /prompt of 11 tokens is longer than the model's context \(blockSize 10\)/,
    );
    expect(() => assertFitsContext(cfg, 6, 6)).toThrow(/needs 11 positions.*use at most 5 new tokens/);
  });
});
