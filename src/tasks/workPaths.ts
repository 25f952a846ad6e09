// Working written along more than one valid path (docs/method.md, "The regime": a lever for gate A2).
// The work kinds' own completion (src/tasks/workKinds.ts) is the path `chain`; the others are other
// correct ways to reach the same answer, each tagged by its first character so a model commits to a path
// at its first token and a vote of samples can pool paths whose errors differ. Only the answer after the
// last marker is graded; a path changes the working and never the answer. Every path uses only characters
// the kind's own completion already has in every view, so no tokenizer changes.
//
// addw (a + b, d digits):
// - `chain`: the carry chain, units up: carry in, then the two-digit column sum ("011,113,108").
// - `sums`: `,`, the column sums without carries (units up, two digits each), `,`, then the carries into
//   columns 1..d-1 (units up, one digit each): 372 + 459 -> ",11,12,07,11".
// muladdw (a * b + c, b one digit):
// - `chain`: multiply, then add: the column products with carries, the product and the addend ("42,28;282+38").
// - `addin`: c added into the running column products: a_i * b + c_i + carry per column, two digits each
//   (at most 99), units up, each after a `+`: 47 * 6 + 38 -> "+50+32" (7*6+8 = 50, 4*6+3+5 = 32, so 320).
// - `partials`: `;`, the raw digit products a_i * b from the most significant digit down (no carries), then
//   `;` the product and the addend as in `chain`: 47 * 6 + 38 -> ";24,42;282+38" (240 + 42 = 282).
// (`+` and `;` are in every muladdw completion, `,` only when a has two digits or more, as in `chain`.)
// mulw (a * b, b of one or two digits): `chain`, `top` and `bya`, written in src/tasks/mulw.ts.
import type { AddWorkConfig, MulAddWorkConfig, MulWorkConfig, TaskKind } from './config';
import { mulWorking } from './mulw';
import { renderCompletion, type Problem } from './task';
import { VIEW_MARKER, type ViewName } from './views';
import { digitsLsdFirst, num, pad } from './workKinds';

/** The working paths of each kind that has them (the first is the kind's own completion). */
const WORK_PATHS: Readonly<Partial<Record<TaskKind, readonly string[]>>> = {
  addw: ['chain', 'sums'],
  muladdw: ['chain', 'addin', 'partials'],
  mulw: ['chain', 'top', 'bya'],
};

/** Every path name of any kind, for messages. */
export const WORK_PATH_NAMES: readonly string[] = [...new Set(Object.values(WORK_PATHS).flat())];

/** addw `sums`: the column sums without carries, then the carries into columns 1..d-1. */
function columnSums(a: number, b: number, width: number, view: ViewName): string {
  const da = digitsLsdFirst(a, width);
  const db = digitsLsdFirst(b, width);
  const sums = da.map((d, i) => d + db[i]);
  const carries: number[] = [];
  let carry = 0;
  for (let i = 0; i < width - 1; i++) {
    carry = Math.floor((sums[i] + carry) / 10);
    carries.push(carry);
  }
  return `,${sums.map((s) => num(pad(s, 2), view)).join(',')},${carries.join('')}`;
}

/** muladdw `addin`: c added into the running column products, units up. */
function addInWorking(
  a: number,
  b: number,
  c: number,
  aDigits: number,
  cDigits: number,
  view: ViewName,
): string {
  const width = Math.max(aDigits, cDigits);
  const da = digitsLsdFirst(a, width);
  const dc = digitsLsdFirst(c, width);
  const groups: string[] = [];
  let carry = 0;
  for (let i = 0; i < width; i++) {
    const p = da[i] * b + dc[i] + carry;
    groups.push(num(pad(p, 2), view));
    carry = Math.floor(p / 10);
  }
  return groups.map((g) => `+${g}`).join('');
}

/** muladdw `partials`: the raw digit products from the top, then the product and the addend. */
function partialsWorking(
  a: number,
  b: number,
  c: number,
  aDigits: number,
  cDigits: number,
  view: ViewName,
): string {
  const products = digitsLsdFirst(a, aDigits)
    .reverse()
    .map((d) => num(pad(d * b, 2), view));
  return `;${products.join(',')};${num(pad(a * b, aDigits + 1), view)}+${num(pad(c, cDigits), view)}`;
}

/**
 * A feature of `p` that its prompt shows, for a path choice that depends on the problem: `muladdw`, the
 * one-digit multiplier b ("b7"); `mulw`, b's units digit ("b6"); `addw`, the leading digit of a ("a3").
 * Ten values each.
 */
export function workPathFeature(p: Problem): string {
  if (p.kind === 'muladdw') return `b${p.values[1]}`;
  if (p.kind === 'mulw') return `b${p.values[1] % 10}`;
  if (p.kind === 'addw') {
    const { digits } = p.config as Required<AddWorkConfig>;
    return `a${Math.floor(p.values[0] / 10 ** (digits - 1))}`;
  }
  throw new Error(`task kind '${p.kind}' has no work paths, so no path feature`);
}

/** The paths of a kind ([] for a kind whose working has one path only, or no working). */
export function workPathsOf(kind: TaskKind): readonly string[] {
  return WORK_PATHS[kind] ?? [];
}

/**
 * The completion of `p` in `view` with its working written along `path` (`chain`: exactly
 * renderCompletion). Throws, naming the kind's paths, for a path the kind does not have.
 */
export function pathCompletion(p: Problem, view: ViewName, path: string): string {
  const paths = workPathsOf(p.kind);
  if (!paths.includes(path))
    throw new Error(
      `work path ${JSON.stringify(path)} is not a path of task kind '${p.kind}'; its paths: ${paths.join(', ') || 'none'}`,
    );
  if (path === 'chain') return renderCompletion(p, view);
  const answer = VIEW_MARKER[view] + num(p.answer, view);
  if (p.kind === 'addw') {
    const { digits } = p.config as Required<AddWorkConfig>;
    const [a, b] = p.values;
    return columnSums(a, b, digits, view) + answer;
  }
  if (p.kind === 'mulw') {
    const { aDigits, bDigits } = p.config as Required<MulWorkConfig>;
    const [a, b] = p.values;
    return mulWorking(a, b, aDigits, bDigits, view, path as 'top' | 'bya') + answer;
  }
  const { aDigits, cDigits } = p.config as Required<MulAddWorkConfig>;
  const [a, b, c] = p.values;
  const working = path === 'addin' ? addInWorking : partialsWorking;
  return working(a, b, c, aDigits, cDigits, view) + answer;
}
