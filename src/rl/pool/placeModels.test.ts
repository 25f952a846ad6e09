// Where the pool puts each model (poolModels.ts placeModels): one per worker while workers are free, then
// largest first on the least-loaded worker, so a cohort of a small and a large agent trained by three
// methods (the default preset's lock step) does not leave every large model on one worker, as placing
// model g on worker g mod size did.
import { describe, expect, it } from 'vitest';
import { placeModels } from './poolModels';

describe('placeModels', () => {
  it('spreads equal models one per worker, then round the workers', () => {
    const load = [0, 0, 0];
    expect(placeModels([5, 5, 5, 5], load)).toEqual([0, 1, 2, 0]);
    expect(load).toEqual([10, 5, 5]);
  });

  it("balances three trainers of a small and a large agent over 2 workers (each trainer's models placed in turn)", () => {
    const load = [0, 0];
    const small = 10_000;
    const large = 16_000;
    const at = [1, 2, 3].map(() => placeModels([small, large], load));
    // largest first on the least-loaded worker, ties to the lower one
    expect(at).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
    expect(load).toEqual([2 * large + small, large + 2 * small]);
    // g mod size would have put every large model on worker 1: loads 3 * small and 3 * large
    expect(Math.max(...load)).toBeLessThan(3 * large);
  });

  it('leaves a model on a worker of its own when there are as many workers as models', () => {
    const load = [0, 0, 0, 0];
    expect(placeModels([1, 9, 4, 9], load).sort()).toEqual([0, 1, 2, 3]);
  });
});
