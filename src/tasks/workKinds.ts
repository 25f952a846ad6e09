// Task kinds whose completions write their working before the answer (docs/method.md ("Natural diversity"): tasks whose working
// makes harder problems learnable): `addw` (the carry chain of column addition) and `muladdw` (the column
// products of a one-digit multiplication with their carries, then the addition). Only the answer after
// the last marker is graded; the working is the agent's own.
import type { AddWorkConfig, MulAddWorkConfig, ResolvedTaskConfig } from './config';
import { VIEW_MARKER, reverseString, type ViewName } from './views';
import type { Rng } from '../util/rng';

/** Zero-pad a non-negative integer to `width` digits. */
export const pad = (n: number, width: number): string => String(n).padStart(width, '0');
/** A number in the view's digit order. */
export const num = (s: string, view: ViewName): string => (view === 'reversed' ? reverseString(s) : s);
/** The digits of n, least significant first, `width` of them. */
export const digitsLsdFirst = (n: number, width: number): number[] =>
  [...pad(n, width)].reverse().map(Number);

/**
 * The carry chain of a + b, one group per column from the units up: the carry into the column, then
 * the column's two-digit sum (its tens digit is the carry out), e.g. 372 + 459 -> "011,113,108"
 * (2+9+0 = 11, 7+5+1 = 13, 3+4+1 = 08). In the reversed view each two-digit sum is written units first.
 */
export function carryChain(a: number, b: number, width: number, view: ViewName): string {
  const da = digitsLsdFirst(a, width);
  const db = digitsLsdFirst(b, width);
  const groups: string[] = [];
  let carry = 0;
  for (let i = 0; i < width; i++) {
    const s = da[i] + db[i] + carry;
    groups.push(`${carry}${num(pad(s, 2), view)}`);
    carry = Math.floor(s / 10);
  }
  return groups.join(',');
}

/**
 * The working of a * b + c (b one digit): the column products of a's digits by b from the units up, each
 * with the carry added and written as two digits, then the product (aDigits + 1 digits) and the addend
 * (cDigits digits), e.g. 47 * 6 + 38 ->
 * "42,28;282+38" (7*6 = 42, 4*6+4 = 28, so 282; then 282 + 38).
 */
export function mulAddWorking(
  a: number,
  b: number,
  c: number,
  aDigits: number,
  cDigits: number,
  view: ViewName,
): string {
  return `${columnProducts(a, aDigits, b, view)};${num(pad(a * b, aDigits + 1), view)}+${num(pad(c, cDigits), view)}`;
}

/** The column products of x's `width` digits by the one digit d, units up, each with its carry, two digits, joined by ','. */
export function columnProducts(x: number, width: number, d: number, view: ViewName): string {
  const groups: string[] = [];
  let carry = 0;
  for (const xi of digitsLsdFirst(x, width)) {
    const p = xi * d + carry;
    groups.push(num(pad(p, 2), view));
    carry = Math.floor(p / 10);
  }
  return groups.join(',');
}

/** Prompt of a binary problem in a view (`words` uses the word, `swap` commutes the operands). */
function binaryPrompt(x: string, y: string, op: string, word: string, view: ViewName): string {
  if (view === 'swap') return `${y}${op}${x}=`;
  if (view === 'words') return `${x} ${word} ${y}?`;
  return `${x}${op}${y}=`;
}

/** The `addw` kind (same problem space and key scheme as `add`, its own kind name in the key). */
export const addw = {
  radices: (c: ResolvedTaskConfig): number[] => {
    const { digits } = c as Required<AddWorkConfig>;
    return [10 ** digits, 10 ** digits];
  },
  key: ([a, b]: readonly number[], c: ResolvedTaskConfig): string => {
    const { digits: d } = c as Required<AddWorkConfig>;
    return `addw:${d}:${pad(a, d)}+${pad(b, d)}`;
  },
  answer: ([a, b]: readonly number[]): string => String(a + b),
  prompt: ([a, b]: readonly number[], c: ResolvedTaskConfig, view: ViewName): string => {
    const { digits: d } = c as Required<AddWorkConfig>;
    return binaryPrompt(num(pad(a, d), view), num(pad(b, d), view), '+', 'plus', view);
  },
  completion: ([a, b]: readonly number[], c: ResolvedTaskConfig, view: ViewName): string => {
    const { digits: d } = c as Required<AddWorkConfig>;
    return carryChain(a, b, d, view) + VIEW_MARKER[view] + num(String(a + b), view);
  },
  draw: (c: ResolvedTaskConfig): ((rng: Rng) => number[]) | null => {
    const w = c as AddWorkConfig & { digits: number };
    if (w.grade !== 'digits') return null;
    return (rng) => {
      const a = gradedDigits(rng, w.digits);
      const d = a < 10 ? 1 : String(a).length;
      return [a, rng.int(10 ** d)];
    };
  },
};

/** The `muladdw` kind: a (aDigits) * b (one digit) + c (cDigits). */
export const muladdw = {
  radices: (c: ResolvedTaskConfig): number[] => {
    const m = c as Required<MulAddWorkConfig>;
    return [10 ** m.aDigits, 10, 10 ** m.cDigits];
  },
  key: ([a, b, cc]: readonly number[], c: ResolvedTaskConfig): string => {
    const m = c as Required<MulAddWorkConfig>;
    return `muladdw:${m.aDigits},${m.cDigits}:${pad(a, m.aDigits)}*${b}+${pad(cc, m.cDigits)}`;
  },
  answer: ([a, b, cc]: readonly number[]): string => String(a * b + cc),
  prompt: ([a, b, cc]: readonly number[], c: ResolvedTaskConfig, view: ViewName): string => {
    const m = c as Required<MulAddWorkConfig>;
    const x = num(pad(a, m.aDigits), view);
    const z = num(pad(cc, m.cDigits), view);
    if (view === 'swap') return `${z}+${b}*${x}=`;
    if (view === 'words') return `${x} times ${b} plus ${z}?`;
    return `${x}*${b}+${z}=`;
  },
  completion: ([a, b, cc]: readonly number[], c: ResolvedTaskConfig, view: ViewName): string => {
    const m = c as Required<MulAddWorkConfig>;
    return (
      mulAddWorking(a, b, cc, m.aDigits, m.cDigits, view) + VIEW_MARKER[view] + num(String(a * b + cc), view)
    );
  },
  draw: (c: ResolvedTaskConfig): ((rng: Rng) => number[]) | null => {
    const m = c as MulAddWorkConfig & { aDigits: number; cDigits: number };
    if (m.aGrade !== 'digits') return null;
    return (rng) => [gradedDigits(rng, m.aDigits), rng.int(10), rng.int(10 ** m.cDigits)];
  },
};

/** A number of `d` significant digits, d uniform in 1..maxDigits (one digit: 0-9), the number uniform among them. */
export function gradedDigits(rng: Rng, maxDigits: number): number {
  const d = 1 + rng.int(maxDigits);
  const lo = d === 1 ? 0 : 10 ** (d - 1);
  return lo + rng.int(10 ** d - lo);
}
