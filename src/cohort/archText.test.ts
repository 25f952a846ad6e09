import { describe, expect, it } from 'vitest';
import { archOverrideText } from './archText';

describe('archOverrideText', () => {
  it('says every field an override changes, and nothing without one', () => {
    expect(archOverrideText(undefined)).toBe('');
    expect(archOverrideText({})).toBe('');
    expect(archOverrideText({ nEmbd: 24 })).toBe(' narrowed to 24 wide');
    expect(archOverrideText({ pos: 'rope', nHead: 4 })).toBe(' with rotary positions, 4 heads');
    expect(archOverrideText({ nEmbd: 28, nLayer: 3 })).toBe(' narrowed to 28 wide, with 3 blocks');
    expect(archOverrideText({ pos: 'learned', mlpRatio: 2, blockSize: 64 })).toBe(
      ' with learned positions, MLP x2, context 64',
    );
  });
});
