// The op table's completeness check: a backend built without an op is refused, naming it.
import { describe, expect, it } from 'vitest';
import { installOps, OpBackend } from './run';

describe('installOps', () => {
  it('refuses a backend that lacks ops, naming them', () => {
    class Partial extends OpBackend {}
    const impls = { geluForward: () => {}, sumSquares: () => {} };
    expect(() => installOps(new Partial(), impls, 'a test backend')).toThrow(
      /a test backend implements no .*residualForward.*: every op of src\/engine\/ops\/table.ts needs one/,
    );
  });
});
