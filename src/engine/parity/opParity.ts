// Running a parity case of the op table (./opCases.ts) on a backend against the CPU reference: the same
// seeded inputs on both (every f32 tensor randn, u32 ones integers below the case's bound, so gradients are
// pre-filled and must accumulate), the op on each, then every tensor compared.
import type { Backend } from '../backend';
import { compareArrays, type CompareResult } from '../compare';
import { isTensorKind } from '../ops/declare';
import { opDecl, type OpName } from '../ops/table';
import type { OpCase } from './opCases';
import { type Pair, pair, randInt, randn } from './parityUtil';

/** The case's tensors on both backends (null where a nullable tensor has no size) and its numbers. */
export function caseArgs(
  name: OpName,
  c: OpCase,
  be: Backend,
  ref: Backend,
  seed: number,
): { pairs: [string, Pair][]; args: (side: 'gpu' | 'cpu') => Record<string, unknown> } {
  const pairs: [string, Pair][] = [];
  const numbers: Record<string, unknown> = {};
  const nulls: string[] = [];
  Object.entries(opDecl(name).args).forEach(([key, kind], i) => {
    if (isTensorKind(kind)) {
      const n = c.sizes[key];
      if (n === undefined) {
        if (kind === 'f32' || kind === 'u32')
          throw new Error(`parity case of ${name}: no size for tensor ${key} (src/engine/parity/opCases.ts)`);
        nulls.push(key);
      } else {
        const host = kind === 'u32' ? randInt(n, seed + i, c.below ?? 2) : randn(n, seed + i);
        pairs.push([key, pair(be, ref, [n], host, key)]);
      }
    } else if (kind !== 'int?') {
      if (c.numbers[key] === undefined)
        throw new Error(`parity case of ${name}: no value for ${key} (src/engine/parity/opCases.ts)`);
      numbers[key] = c.numbers[key];
    }
  });
  return {
    pairs,
    args: (side) => ({
      ...numbers,
      ...Object.fromEntries(nulls.map((k) => [k, null])),
      ...Object.fromEntries(pairs.map(([k, p]) => [k, p[side]])),
    }),
  };
}

/** Call op `name` on `be` with named arguments built generically. */
export function callOp(be: Backend, name: OpName, args: Record<string, unknown>): void {
  (be[name] as (a: Record<string, unknown>) => void)(args);
}

/** Run case `c` of op `name` on `be` and on the CPU reference `ref`; one result per tensor. */
export async function runOpCase(
  name: OpName,
  c: OpCase,
  be: Backend,
  ref: Backend,
  seed: number,
): Promise<CompareResult[]> {
  const { pairs, args } = caseArgs(name, c, be, ref, seed);
  callOp(be, name, args('gpu'));
  callOp(ref, name, args('cpu'));
  const tag = Object.entries(c.numbers)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const res: CompareResult[] = [];
  for (const [key, p] of pairs) {
    const [got, want] = await Promise.all([be.read(p.gpu), ref.read(p.cpu)]);
    res.push(compareArrays(`${name} ${tag}: ${key}`, got, want, c.atol ?? 1e-4, c.rtol ?? 1e-4));
    p.free();
  }
  return res;
}
