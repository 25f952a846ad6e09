// The `pathFeature` recipe lever (src/cohort/workPathMix.ts): a share of the problems draws its working path
// by a feature the prompt shows (muladdw: the multiplier; addw: the leading digit of a) instead of the key,
// so all problems with one feature value share a path, the map differs by seed, a share of 0 is the key
// draw exactly, the share is honoured, it enters the build key, and a bad value is refused naming the field.
import { describe, expect, it } from 'vitest';
import { makeTask } from '../tasks';
import { workPathFeature } from '../tasks/workPaths';
import { buildKey } from './axes';
import type { AgentSpec } from './agent';
import { recipeErrors } from './recipeAxis';
import { drawWorkPath, workCompletion } from './workPathMix';
import { pathCompletion } from '../tasks/workPaths';

const task = makeTask({ kind: 'muladdw', aDigits: 2, cDigits: 2 });
const problems = task.heldOut('validation', 3000);
const MIX = { chain: 0.5, addin: 0.3, partials: 0.2 };

/** The path each feature value gets (throws if two problems of one feature get two paths). */
function featureMap(seed: number): Map<string, string> {
  const map = new Map<string, string>();
  for (const p of problems) {
    const f = workPathFeature(p);
    const path = drawWorkPath(p, MIX, seed, 1);
    if (map.has(f) && map.get(f) !== path) throw new Error(`feature ${f}: ${map.get(f)} and ${path}`);
    map.set(f, path);
  }
  return map;
}

describe('work path by feature', () => {
  it('names the feature the prompt shows: the multiplier of muladdw, the leading digit of addw', () => {
    const p = problems[0];
    expect(workPathFeature(p)).toBe(`b${p.values[1]}`);
    const addw = makeTask({ kind: 'addw', digits: 3 }).heldOut('validation', 50);
    for (const q of addw) expect(workPathFeature(q)).toBe(`a${String(q.values[0]).padStart(3, '0')[0]}`);
    const add = makeTask({ kind: 'add', digits: 2 }).heldOut('validation', 1)[0];
    expect(() => workPathFeature(add)).toThrow(/task kind 'add' has no work paths/);
  });

  it('with share 1 gives every problem of one feature value one path, a map another seed redraws', () => {
    const one = featureMap(1);
    expect(one.size).toBe(10); // b = 0..9 all occur among 3000 problems
    expect(new Set(one.values()).size).toBeGreaterThan(1);
    const others = [2, 3, 4, 5].map((s) => featureMap(s));
    expect(others.some((m) => [...m].some(([f, path]) => one.get(f) !== path))).toBe(true);
    for (const p of problems.slice(0, 100))
      expect(workCompletion(p, 'plain', MIX, 1, 1)).toBe(
        pathCompletion(p, 'plain', one.get(workPathFeature(p))!),
      );
  });

  it('with share 0 is the key draw exactly, and a share in between follows the feature that often', () => {
    for (const p of problems) expect(drawWorkPath(p, MIX, 7, 0)).toBe(drawWorkPath(p, MIX, 7));
    const byFeature = featureMap(7);
    const follows =
      problems.filter((p) => drawWorkPath(p, MIX, 7, 0.5) === byFeature.get(workPathFeature(p))).length /
      problems.length;
    // half follow the feature; the other half's key draw matches it by chance about as often as two draws
    // of the mix agree (0.5^2 + 0.3^2 + 0.2^2 = 0.38, depending on which paths the 10 features got)
    expect(follows).toBeGreaterThan(0.6);
    expect(follows).toBeLessThan(0.8);
  });

  it('is part of the build key; a bad share or one without paths is refused naming the field', () => {
    const spec: AgentSpec = { id: 'A', family: 'nat-rope', size: 'xxs', seed: 1, view: 'plain' };
    const keyOf = (r: object) => buildKey({ ...spec, recipe: { paths: MIX, ...r } }, { kind: 'muladdw' });
    expect(new Set([keyOf({}), keyOf({ pathFeature: 1 }), keyOf({ pathFeature: 0.5 })]).size).toBe(3);
    expect(recipeErrors({ paths: MIX, pathFeature: 0.7 })).toEqual([]);
    expect(recipeErrors({ paths: MIX, pathFeature: 1.5 })).toEqual([
      'pathFeature: must be a share in [0, 1] of problems whose working path follows their feature, got 1.5',
    ]);
    expect(recipeErrors({ pathFeature: 1 })).toEqual([
      'pathFeature: needs paths (the mix the feature draws from), e.g. "paths": { "chain": 1, "addin": 1 }',
    ]);
  });
});
