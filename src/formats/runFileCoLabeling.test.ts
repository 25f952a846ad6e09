// Run files and the co-labeling diagnostics: a file written before they existed (no coLabeling, no
// train.teacher, no teacher setting) still imports, with the ring teacher; one with diagnostics round-trips;
// damaged diagnostics are refused naming the field.
import { describe, expect, it } from 'vitest';
import { good } from './runFile.fixture';
import { parseRunFile } from './runFile';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests edit files anywhere in their JSON
const variant = (f: (x: Record<string, any>) => void): string => {
  const x = JSON.parse(JSON.stringify(good()));
  f(x);
  return JSON.stringify(x);
};
const co = {
  teacher: 'union',
  unanimousRate: 0.5,
  agents: [
    {
      agent: 'A',
      supervisionFraction: 1,
      peerTieRate: null,
      supervisionContainsTruth: 0.5,
      ownVoteAccuracy: 0.5,
      candidateSetSize: 1.5,
    },
  ],
};

describe('run files with co-labeling diagnostics', () => {
  it('an older file (no diagnostics, no teacher anywhere) imports with the ring teacher', () => {
    const r = parseRunFile(
      variant((x) => {
        delete x.settings.teacher;
        delete x.config.train.teacher;
      }),
    );
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.run.settings.teacher).toBe('ring');
    expect(r.run.config!.train.teacher).toBe('ring');
    expect(r.run.metrics.steps['co-rl']![0].coLabeling).toBeUndefined();
  });

  it('diagnostics in a step record round-trip', () => {
    const r = parseRunFile(variant((x) => (x.metrics.steps['co-rl'][1].coLabeling = co)));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.run.metrics.steps['co-rl']![1].coLabeling).toEqual(co);
  });

  it('damaged diagnostics are refused, naming the record and field', () => {
    const r = parseRunFile(
      variant((x) => (x.metrics.steps['co-rl'][1].coLabeling = { ...co, unanimousRate: 7 })),
    );
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors).toContainEqual(
        expect.stringMatching(/^metrics\.steps\.co-rl\[1\]\.coLabeling\.unanimousRate: must be a share/),
      );
  });
});
