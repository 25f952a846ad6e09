// The ladder's choice (./ladder.ts keptRung) from the rungs' results in ladder order: what one thread running
// the rungs in turn keeps, decided as soon as it is settled and not before.
import { describe, expect, it } from 'vitest';
import { keptRung } from './ladder';

const r = (dist: number) => ({ inBand: dist === 0, dist });

describe('keptRung', () => {
  it('keeps the first rung in band, even when later rungs are unknown', () => {
    expect(keptRung([r(0.2), r(0), undefined], 3)).toBe(1);
    expect(keptRung([r(0.2), r(0), r(0)], 3)).toBe(1);
  });

  it('is undecided while a rung before the first in band is unknown', () => {
    expect(keptRung([undefined, r(0)], 2)).toBeUndefined();
    expect(keptRung([r(0.2), undefined, r(0.1)], 3)).toBeUndefined();
  });

  it('keeps the closest rung once every rung is known and none is in band, ties to the earlier', () => {
    expect(keptRung([r(0.3), r(0.1), r(0.2)], 3)).toBe(1);
    expect(keptRung([r(0.1), r(0.1)], 2)).toBe(0);
    expect(keptRung([r(0.3)], 1)).toBe(0);
  });
});
