// Tests for task generation: determinism, disjoint splits, views round-trip, fixed prompt lengths, errors.
import { describe, expect, it } from 'vitest';
import { TASK_KINDS, TaskConfigError, type TaskConfig } from './config';
import { deriveRng, makeRng } from '../util/rng';
import { makeTask, renderCompletion, renderPrompt, scoreCompletion, splitOfKey } from './task';
import { VIEW_NAMES, extractAnswer } from './views';

/** The first test problems of add-d2, as the two-way split's eval order gave them (shipped checkpoints' probes use it). */
const EVAL_ORDER_HEAD = ['add:2:95+33', 'add:2:56+12', 'add:2:04+93'];
const CONFIGS: TaskConfig[] = [
  { kind: 'add' },
  { kind: 'add', digits: 4 },
  { kind: 'mod' },
  { kind: 'mod', op: '*', modulus: 97, digits: 3 },
  { kind: 'muladd' },
  { kind: 'muladd', aDigits: 3, bDigits: 2, cDigits: 3 },
  { kind: 'sort' },
  { kind: 'sort', length: 8 },
  { kind: 'count' },
];

describe('makeTask', () => {
  it('sampleTrain is deterministic per seed and differs across seeds', () => {
    for (const cfg of CONFIGS) {
      const task = makeTask(cfg);
      const keys = (seed: number) => task.sampleTrain(makeRng(seed), 50).map((p) => p.key);
      expect(keys(1)).toEqual(keys(1));
      expect(keys(1)).not.toEqual(keys(2));
      // a fresh task object gives the same problems and the same eval set
      expect(
        makeTask(cfg)
          .sampleTrain(makeRng(1), 50)
          .map((p) => p.key),
      ).toEqual(keys(1));
      expect(
        makeTask(cfg)
          .evalSet(30)
          .map((p) => p.key),
      ).toEqual(task.evalSet(30).map((p) => p.key));
    }
  });

  it('train and eval never overlap, within a call problems are distinct', () => {
    for (const cfg of CONFIGS) {
      const task = makeTask(cfg);
      const evalKeys = new Set(task.evalSet(300).map((p) => p.key));
      expect(evalKeys.size).toBe(300);
      const rng = deriveRng(3, 'train');
      for (let b = 0; b < 20; b++) {
        const batch = task.sampleTrain(rng, 64);
        expect(new Set(batch.map((p) => p.key)).size).toBe(64);
        for (const p of batch) {
          expect(evalKeys.has(p.key)).toBe(false);
          expect(task.splitOf(p.key)).toBe('train');
        }
      }
      for (const k of evalKeys) expect(task.splitOf(k)).toBe('test');
    }
  });

  it('enumerated splits partition the whole space exactly', () => {
    const task = makeTask({ kind: 'add', digits: 1, evalFraction: 0.3 });
    expect(task.sizes.exact).toBe(true);
    expect(task.sizes.space).toBe(100);
    const ev = task.evalSet(task.sizes.eval).map((p) => p.key);
    const va = task.heldOut('validation', task.sizes.validation).map((p) => p.key);
    const tr = task.sampleTrain(makeRng(0), task.sizes.train).map((p) => p.key);
    expect(new Set([...ev, ...va, ...tr]).size).toBe(100);
    expect(task.sizes.train + task.sizes.validation + task.sizes.test).toBe(100);
    expect(task.sizes.validation).toBeGreaterThan(3);
    expect(task.sizes.eval).toBeGreaterThan(15);
    expect(task.sizes.eval).toBeLessThan(45);
  });

  it('evalSet(n) is a prefix of evalSet(m), and the split grows monotonically with evalFraction', () => {
    for (const cfg of [{ kind: 'add' }, { kind: 'count' }] as TaskConfig[]) {
      const task = makeTask(cfg);
      const big = task.evalSet(200).map((p) => p.key);
      expect(task.evalSet(50).map((p) => p.key)).toEqual(big.slice(0, 50));
    }
    const keys = makeTask({ kind: 'add', evalFraction: 0.1 })
      .evalSet(500)
      .map((p) => p.key);
    for (const k of keys) expect(splitOfKey(k, 0.3)).toBe('test');
  });

  it('every view extracts the canonical answer from the correct completion (1000 problems per kind)', () => {
    for (const kind of TASK_KINDS) {
      const task = makeTask({ kind });
      const problems = [...task.sampleTrain(deriveRng(11, kind), 800), ...task.evalSet(200)];
      for (const p of problems) {
        for (const view of VIEW_NAMES) {
          const completion = renderCompletion(p, view);
          const got = extractAnswer(completion, view, kind);
          if (got !== p.answer) expect({ key: p.key, view, completion, got }).toEqual({ answer: p.answer });
          if (!scoreCompletion(p, completion, view)) expect.unreachable(`${p.key} ${view}`);
        }
      }
    }
  });

  it('every prompt of one (config, view) has the same length', () => {
    for (const cfg of CONFIGS) {
      const task = makeTask(cfg);
      const problems = [...task.sampleTrain(makeRng(5), 300), ...task.evalSet(100)];
      for (const view of VIEW_NAMES) {
        const lens = new Set(problems.map((p) => renderPrompt(p, view).length));
        expect([...lens]).toEqual([task.promptLength(view)]);
      }
    }
  });

  it('renders the documented examples', () => {
    const add = makeTask({ kind: 'add' }).problem([37, 5]);
    expect(add.key).toBe('add:2:37+05');
    expect(VIEW_NAMES.map((v) => [renderPrompt(add, v), renderCompletion(add, v)])).toEqual([
      ['37+05=', '#42'],
      ['05+37=', '#42'],
      ['37 plus 05?', '=42'],
      ['73+50=', '#24'],
    ]);
    const ma = makeTask({ kind: 'muladd' }).problem([12, 3, 45]);
    expect(ma.answer).toBe('81');
    expect(renderCompletion(ma, 'plain')).toBe('36+45#81');
    expect(renderPrompt(ma, 'swap')).toBe('45+3*12=');
    const mod = makeTask({ kind: 'mod', op: '*', modulus: 13 }).problem([7, 9]);
    expect([renderPrompt(mod, 'plain'), renderCompletion(mod, 'plain')]).toEqual(['(07*09)%13=', '#11']);
    const sort = makeTask({ kind: 'sort' }).problem([3, 1, 4, 1, 0]);
    expect(sort.answer).toBe('01134');
    expect(renderCompletion(sort, 'reversed')).toBe('#43110');
    const count = makeTask({ kind: 'count' }).problem([1, 3, 1, 4, 1, 5, 9]);
    expect([count.key, count.answer, renderPrompt(count, 'words')]).toEqual([
      'count:6:1@314159',
      '2',
      'count 1 in 314159?',
    ]);
  });

  it('too-few-problems errors give requested vs available', () => {
    const task = makeTask({ kind: 'add', digits: 1, evalFraction: 0.2 });
    const avail = task.sizes.eval;
    expect(() => task.evalSet(avail + 1)).toThrow(
      `requested ${avail + 1} distinct test problems but the test split of add(digits=1, evalFraction=0.2) has only ${avail} (problem space 100)`,
    );
    expect(() => task.sampleTrain(makeRng(0), 1000)).toThrow(TaskConfigError);
    expect(() => task.sampleTrain(makeRng(0), 1000)).toThrow(
      `has only ${task.sizes.train} (problem space 100)`,
    );
    expect(task.evalSet(avail)).toHaveLength(avail);
    const big = makeTask({ kind: 'count', length: 5 }); // 10^6 problems: estimated sizes
    expect(big.sizes.exact).toBe(false);
    expect(() => big.evalSet(150_000)).toThrow(
      /requested 150000 distinct test problems .* only about 200000/,
    );
  });

  it('invalid configs and problem values are rejected', () => {
    expect(() => makeTask({ kind: 'add', digits: 0 })).toThrow(
      'add.digits must be an integer in [1, 7], got 0',
    );
    expect(() => makeTask({ kind: 'add' }).problem([100, 1])).toThrow(/do not fit/);
    expect(() => makeTask({ kind: 'add' }).sampleTrain(makeRng(0), -1)).toThrow(/non-negative/);
    expect(() => renderPrompt(makeTask({ kind: 'add' }).problem([1, 2]), 'upside' as never)).toThrow(
      /valid views: plain, swap, words, reversed/,
    );
  });

  it('three splits by key: 70 / 10 / 20 by default, disjoint, validation ordered and prefix-stable', () => {
    const task = makeTask({ kind: 'add', digits: 2 });
    const { train, validation, test } = task.sizes;
    expect(train + validation + test).toBe(10_000);
    expect(Math.abs(validation - 1000)).toBeLessThan(100);
    expect(Math.abs(test - 2000)).toBeLessThan(120);
    const va = task.heldOut('validation', 400);
    expect(task.heldOut('validation', 100).map((p) => p.key)).toEqual(va.slice(0, 100).map((p) => p.key));
    for (const p of va) expect(task.splitOf(p.key)).toBe('validation');
    const tr = task.sampleTrain(makeRng(4), 3000);
    for (const p of tr) expect(task.splitOf(p.key)).toBe('train');
    const union = task.sampleSplit('train+validation', makeRng(4), 3000);
    const splits = new Set(union.map((p) => task.splitOf(p.key)));
    expect([...splits].sort()).toEqual(['train', 'validation']);
    // large spaces (rejection sampling) keep the same guarantees
    const big = makeTask({ kind: 'add', digits: 4 });
    expect(big.sizes.exact).toBe(false);
    for (const p of big.heldOut('validation', 300)) expect(big.splitOf(p.key)).toBe('validation');
    for (const p of big.sampleTrain(makeRng(1), 300)) expect(big.splitOf(p.key)).toBe('train');
  });

  it('the test split is the older two-way eval split: same problems, same order', () => {
    // The older rule: eval iff hash < evalFraction; its order was shuffled with the same seed and label.
    const task = makeTask({ kind: 'add', digits: 2 });
    expect(task.evalSet(5).map((p) => p.key)).toEqual(task.heldOut('test', 5).map((p) => p.key));
    for (const p of task.evalSet(500)) expect(splitOfKey(p.key, 0.2)).toBe('test');
    expect(task.evalSet(3).map((p) => p.key)).toEqual(EVAL_ORDER_HEAD);
  });
});
