// Named tokenizers: chunking as documented, round trips, the digit tokenizer unchanged, and bad names refused.
import { describe, expect, it } from 'vitest';
import { makeTask, renderCompletion, renderPrompt } from './task';
import { makeTokenizer, taskAlphabet } from './tokenizer';
import { makeNamedTokenizer, parseTokenizerName } from './tokenizers';

describe('named tokenizers', () => {
  const alpha = taskAlphabet({ kind: 'addw', digits: 3 }, ['plain', 'words']);
  it('digit is the character tokenizer; chunk3 cuts digit runs left to right into up to 3 digits', () => {
    expect(makeNamedTokenizer('digit', alpha).encode('372+459=')).toEqual(
      makeTokenizer(alpha).encode('372+459='),
    );
    const c3 = makeNamedTokenizer('chunk3', alpha);
    const parts = (t: string) => c3.encode(t).map((id) => c3.decode([id]));
    expect(parts('372+459=')).toEqual(['372', '+', '459', '=']);
    expect(parts('0510,13#10000')).toEqual(['051', '0', ',', '13', '#', '100', '00']);
    expect(
      makeNamedTokenizer('chunk2', alpha)
        .encode('372')
        .map((id) => makeNamedTokenizer('chunk2', alpha).decode([id])),
    ).toEqual(['37', '2']);
    expect(c3.vocabSize).toBe(makeTokenizer(alpha).vocabSize + 1100);
  });
  it('words makes each template word one token', () => {
    const w = makeNamedTokenizer('words', alpha);
    expect(w.encode('372 plus 459?').length).toBe(3 + 1 + 1 + 1 + 3 + 1);
  });
  it('every tokenizer round-trips every prompt and completion, with one token length per prompt', () => {
    const task = makeTask({ kind: 'addw', digits: 3 });
    for (const name of ['digit', 'chunk2', 'chunk3', 'words'] as const) {
      const tok = makeNamedTokenizer(name, alpha);
      const lens = new Set<number>();
      for (const p of task.evalSet(200)) {
        for (const view of ['plain', 'words'] as const) {
          const text = renderPrompt(p, view) + renderCompletion(p, view);
          expect(tok.decode(tok.encode(text))).toBe(text);
        }
        lens.add(tok.encode(renderPrompt(p, 'plain')).length);
      }
      expect(lens.size, name).toBe(1);
    }
  });
  it('an unknown tokenizer is refused listing the valid ones', () => {
    expect(() => parseTokenizerName('bpe')).toThrow(
      'unknown tokenizer "bpe"; valid tokenizers: digit, chunk2, chunk3, words',
    );
  });
});
