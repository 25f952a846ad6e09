// Tests for task config validation, defaults and error messages.
import { describe, expect, it } from 'vitest';
import {
  TaskConfigError,
  defaultTaskConfig,
  resolveTaskConfig,
  validateTaskConfig,
  type TaskConfig,
} from './config';

describe('task config', () => {
  it('fills defaults', () => {
    expect(defaultTaskConfig('add')).toEqual({ kind: 'add', digits: 2, evalFraction: 0.2 });
    expect(resolveTaskConfig({ kind: 'mod', op: '*' })).toEqual({
      kind: 'mod',
      digits: 2,
      modulus: 7,
      op: '*',
      evalFraction: 0.2,
    });
    expect(resolveTaskConfig({ kind: 'muladd', bDigits: 2, evalFraction: 0.5 })).toEqual({
      kind: 'muladd',
      aDigits: 2,
      bDigits: 2,
      cDigits: 2,
      evalFraction: 0.5,
    });
  });

  it('rejects unknown kinds listing the valid ones', () => {
    expect(validateTaskConfig({ kind: 'divide' })).toEqual([
      'unknown task kind "divide"; valid kinds: add, mod, muladd, sort, count, addw, muladdw, mulw, file',
    ]);
    expect(validateTaskConfig(null)[0]).toMatch(/one of: add, mod, muladd, sort, count/);
    expect(() => resolveTaskConfig({ kind: 'nope' } as unknown as TaskConfig)).toThrow(
      /valid kinds: add, mod/,
    );
  });

  it('names the field and its allowed values', () => {
    expect(validateTaskConfig({ kind: 'add', digits: 9 })).toEqual([
      'add.digits must be an integer in [1, 7], got 9',
    ]);
    expect(validateTaskConfig({ kind: 'add', digits: 1.5 })[0]).toMatch(
      /add\.digits must be an integer in \[1, 7\]/,
    );
    expect(validateTaskConfig({ kind: 'mod', op: '-' })).toEqual([
      "mod.op must be one of '+', '*', got \"-\"",
    ]);
    expect(validateTaskConfig({ kind: 'sort', evalFraction: 1 })).toEqual([
      'sort.evalFraction must be a number in (0, 1) exclusive, got 1',
    ]);
    expect(validateTaskConfig({ kind: 'add', digts: 2 })).toEqual([
      'unknown field "digts" for task kind "add"; valid fields: kind, evalFraction, digits',
    ]);
  });

  it('throws a TaskConfigError with every message', () => {
    try {
      resolveTaskConfig({ kind: 'muladd', aDigits: 0, cDigits: 5 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TaskConfigError);
      expect((e as TaskConfigError).messages).toEqual([
        'muladd.aDigits must be an integer in [1, 4], got 0',
        'muladd.cDigits must be an integer in [1, 4], got 5',
      ]);
    }
  });
});
