// The run settings' default pool size (src/formats/runSettings.ts): the page's cores but one, at least 1,
// at most the pool's 64 workers.
import { describe, expect, it } from 'vitest';
import { defaultPoolSize } from './runSettings';

describe('run settings defaults', () => {
  it('defaults to the cores but one, at least 1', () => {
    expect([defaultPoolSize(8), defaultPoolSize(2), defaultPoolSize(1), defaultPoolSize(undefined)]).toEqual([
      7, 1, 1, 1,
    ]);
    expect(defaultPoolSize(200)).toBe(64);
  });
});
