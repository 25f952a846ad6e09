// Tests for URL → view routing and tab neighbours.
import { describe, expect, it } from 'vitest';
import { hashFor, neighbourView, viewFromUrl } from './route';

describe('viewFromUrl', () => {
  it('defaults to the engine demo', () => {
    expect(viewFromUrl('', '')).toBe('demo');
    expect(viewFromUrl('?autostart=1&steps=20', '')).toBe('demo');
    expect(viewFromUrl('', '#nonsense')).toBe('demo');
  });
  it('reads the hash in its three spellings', () => {
    expect(viewFromUrl('', '#theory')).toBe('theory');
    expect(viewFromUrl('', '#/help')).toBe('help');
    expect(viewFromUrl('', '#view=theory')).toBe('theory');
    expect(viewFromUrl('', '#theory?K=7')).toBe('theory');
  });
  it('reads the view= query parameter, and the hash wins over it', () => {
    expect(viewFromUrl('?view=help', '')).toBe('help');
    expect(viewFromUrl('?autostart=1&view=theory', '')).toBe('theory');
    expect(viewFromUrl('?view=help', '#theory')).toBe('theory');
    expect(viewFromUrl('?view=bogus', '')).toBe('demo');
  });
  it('round-trips through hashFor', () => {
    for (const v of ['demo', 'theory', 'help'] as const) expect(viewFromUrl('', hashFor(v))).toBe(v);
  });
});

describe('neighbourView', () => {
  it('wraps both ways', () => {
    expect(neighbourView('demo', 1)).toBe('theory');
    expect(neighbourView('help', 1)).toBe('demo');
    expect(neighbourView('demo', -1)).toBe('help');
  });
});
