// Tests for URL → view routing and tab neighbours.
import { describe, expect, it } from 'vitest';
import { hashFor, neighbourView, viewFromUrl } from './route';

describe('viewFromUrl', () => {
  it('defaults to the training playground', () => {
    expect(viewFromUrl('', '')).toBe('train');
    expect(viewFromUrl('?steps=20', '')).toBe('train');
    expect(viewFromUrl('', '#nonsense')).toBe('train');
  });
  it('opens the lab views by hash and by query', () => {
    expect(viewFromUrl('', '#compare')).toBe('compare');
    expect(viewFromUrl('?view=sweep', '')).toBe('sweep');
  });
  it('reads the hash in its three spellings', () => {
    expect(viewFromUrl('', '#theory')).toBe('theory');
    expect(viewFromUrl('', '#/help')).toBe('help');
    expect(viewFromUrl('', '#view=theory')).toBe('theory');
    expect(viewFromUrl('', '#theory?K=7')).toBe('theory');
    expect(viewFromUrl('', '#demo')).toBe('demo');
  });
  it('reads the view= query parameter, and the hash wins over it', () => {
    expect(viewFromUrl('?view=help', '')).toBe('help');
    expect(viewFromUrl('?autostart=1&view=demo', '')).toBe('demo');
    expect(viewFromUrl('?view=help', '#theory')).toBe('theory');
    expect(viewFromUrl('?view=bogus', '')).toBe('train');
  });
  it('round-trips through hashFor', () => {
    for (const v of ['demo', 'train', 'theory', 'help'] as const) expect(viewFromUrl('', hashFor(v))).toBe(v);
  });
});

describe('neighbourView', () => {
  it('wraps both ways', () => {
    expect(neighbourView('demo', 1)).toBe('train');
    expect(neighbourView('train', 1)).toBe('compare');
    expect(neighbourView('sweep', 1)).toBe('theory');
    expect(neighbourView('help', 1)).toBe('demo');
    expect(neighbourView('demo', -1)).toBe('help');
  });
});
