// The `paths` recipe lever (src/cohort/workPathMix.ts): the path of each problem is drawn by seed and key
// (deterministic, another seed draws others), the mix's shares are honoured within sampling error, a mix
// is part of the build key and changes what is pretrained, the layout holds every path, and bad mixes are
// refused naming the path.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeNamedTokenizer, makeTask, renderCompletion, taskAlphabet } from '../tasks';
import { pathCompletion } from '../tasks/workPaths';
import type { AgentSpec } from './agent';
import { buildKey, parseAxisCohort } from './axes';
import { pretrainAgent } from './pretrain';
import { recipeErrors } from './recipeAxis';
import {
  drawWorkPath,
  pathLayout,
  workCompletion,
  workPathMixErrors,
  workPathTaskErrors,
} from './workPathMix';

const task = makeTask({ kind: 'muladdw', aDigits: 2, cDigits: 2 });
const problems = task.heldOut('validation', 3000);
const MIX = { chain: 0.5, addin: 0.3, partials: 0.2 };

describe('work path mix', () => {
  it('draws each problem a path by seed and key: the same again, others for another seed', () => {
    const a = problems.map((p) => drawWorkPath(p, MIX, 1));
    expect(problems.map((p) => drawWorkPath(p, MIX, 1))).toEqual(a);
    expect(problems.map((p) => drawWorkPath(p, { partials: 0.2, addin: 0.3, chain: 0.5 }, 1))).toEqual(a);
    const b = problems.map((p) => drawWorkPath(p, MIX, 2));
    const same = a.filter((x, i) => x === b[i]).length / a.length;
    // independent draws agree with probability 0.5^2 + 0.3^2 + 0.2^2 = 0.38
    expect(same).toBeGreaterThan(0.33);
    expect(same).toBeLessThan(0.43);
  });

  it('honours the mix within sampling error and never draws a path of weight 0', () => {
    const count = (mix: Record<string, number>, name: string): number =>
      problems.filter((p) => drawWorkPath(p, mix, 3) === name).length / problems.length;
    // 3000 draws: the standard error of a share near 0.3 is about 0.008; 4 of them either side
    expect(Math.abs(count(MIX, 'chain') - 0.5)).toBeLessThan(0.04);
    expect(Math.abs(count(MIX, 'addin') - 0.3)).toBeLessThan(0.035);
    expect(Math.abs(count(MIX, 'partials') - 0.2)).toBeLessThan(0.03);
    const two = { chain: 2, addin: 0, partials: 6 }; // weights need not sum to 1
    expect(count(two, 'addin')).toBe(0);
    expect(Math.abs(count(two, 'partials') - 0.75)).toBeLessThan(0.035);
  });

  it('pretrains on the drawn path; without a mix on the kind own completion', () => {
    for (const p of problems.slice(0, 200)) {
      expect(workCompletion(p, 'plain', undefined, 1)).toBe(renderCompletion(p, 'plain'));
      expect(workCompletion(p, 'plain', MIX, 1)).toBe(pathCompletion(p, 'plain', drawWorkPath(p, MIX, 1)));
    }
  });

  it('widens the layout to the longest path in tokens, and only with a mix', () => {
    const addw = makeTask({ kind: 'addw', digits: 3 });
    const ps = addw.heldOut('validation', 200);
    const tok = makeNamedTokenizer('digit', taskAlphabet({ kind: 'addw', digits: 3 }, ['plain']));
    const layout = { promptLength: 8, maxNewTokens: 17, blockSize: 27 }; // "0cc,0cc,0cc#dddd" + EOS
    expect(pathLayout(layout, undefined, ps, 'plain', tok)).toBe(layout);
    expect(pathLayout(layout, { chain: 1 }, ps, 'plain', tok)).toEqual(layout);
    // sums: ",ss,ss,ss,cc#dddd" is one character longer
    expect(pathLayout(layout, { chain: 1, sums: 1 }, ps, 'plain', tok)).toEqual({
      promptLength: 8,
      maxNewTokens: 18,
      blockSize: 28,
    });
  });

  it('refuses bad mixes, naming the path, and paths the task kind lacks', () => {
    expect(workPathMixErrors({ chain: 1, sums: -1, zigzag: 1 })).toEqual([
      'sums: must be a weight >= 0, got -1',
      'zigzag: unknown work path (paths: chain, sums, addin, partials, top, bya)',
    ]);
    expect(workPathMixErrors({ chain: 0 })).toEqual(['must give some path a weight > 0, got {"chain":0}']);
    expect(workPathMixErrors([1])[0]).toMatch(/^must be an object of path weights/);
    expect(recipeErrors({ paths: { chain: 'a' } })).toEqual(['paths: chain: must be a weight >= 0, got "a"']);
    expect(recipeErrors({ paths: MIX })).toEqual([]);
    expect(workPathTaskErrors({ chain: 1, sums: 1 }, { kind: 'muladdw' })).toEqual([
      "paths.sums: not a work path of task kind 'muladdw' (its paths: chain, addin, partials)",
    ]);
    expect(workPathTaskErrors({ chain: 1 }, { kind: 'add', digits: 2 })).toEqual([
      "paths.chain: not a work path of task kind 'add' (it has no work paths)",
    ]);
    const cfg = (paths: Record<string, number>) => ({
      task: { kind: 'addw', digits: 3 },
      cohort: { agents: [{ id: 'R', family: 'nat-rope', recipe: { paths } }] },
    });
    expect(parseAxisCohort(cfg({ chain: 1, addin: 1 }))).toEqual({
      errors: ["agent R: recipe.paths.addin: not a work path of task kind 'addw' (its paths: chain, sums)"],
    });
    expect('cohort' in parseAxisCohort(cfg({ chain: 1, sums: 1 }))).toBe(true);
  });

  it('a mix is part of the build key and pretrains other weights', async () => {
    const spec: AgentSpec = { id: 'A', family: 'nat-rope', size: 'xxs', seed: 1, view: 'plain' };
    const small = { kind: 'addw', digits: 2 } as const;
    const base = { maxSteps: 3, evalEvery: 3, valSize: 20, stop: 'budget' } as const;
    const keyOf = (paths?: Record<string, number>) =>
      buildKey({ ...spec, recipe: { ...base, ...(paths ? { paths } : {}) } }, small);
    expect(new Set([keyOf(), keyOf({ chain: 1, sums: 1 }), keyOf({ chain: 3, sums: 1 })]).size).toBe(3);
    expect(keyOf({ sums: 1, chain: 1 })).toBe(keyOf({ chain: 1, sums: 1 }));
    const be = new CpuBackend();
    const build = async (paths?: Record<string, number>) => {
      const r = await pretrainAgent(
        be,
        { ...spec, corpus: { draw: 'random', size: 50 }, recipe: { ...base, ...(paths ? { paths } : {}) } },
        small,
      );
      const w = await r.agent.model.readParams();
      r.agent.model.free();
      return { w: Buffer.from(w.buffer, w.byteOffset, w.byteLength), n: r.meta.maxNewTokens };
    };
    const [none, chain, mixed] = [await build(), await build({ chain: 1 }), await build({ sums: 1 })];
    expect(chain.w.equals(none.w)).toBe(true); // the kind's own path only: the same training data
    expect(mixed.w.equals(none.w)).toBe(false);
    expect(mixed.n).toBe(none.n + 1);
    await expect(build({ addin: 1 })).rejects.toThrow(/agent A: recipe.paths.addin: not a work path/);
  }, 60_000);
});
