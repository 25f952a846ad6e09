// The `mulw` kind (docs/tasks.md, "Tasks that need working"): a * b with a multi-digit multiplier b, a
// two-step problem. The working writes one row of column products per digit of b, then adds the rows; a
// second task kind with graded difficulty (`aGrade: 'digits'`) for the regime search (docs/regime-graded.md).
//
// Paths (src/tasks/workPaths.ts), each tagged by its first character:
// - `chain`: the rows of a's column products by each digit of b, b's units first, each column product with
//   its carry as two digits, units up; then the rows' values (aDigits + 1 digits each) added, units row
//   first, each row shifted one place more than the last: 47 * 36 -> "42,28;21,14;282+141" (282 + 1410).
// - `top`: `;`, then the same rows from b's top digit down and their values in that order:
//   ";21,14;42,28;141+282" (1410 + 282).
// - `bya`: `+`, then b multiplied by each digit of a instead, a's units first (b's column products with
//   carries), then those rows' values (bDigits + 1 digits each): "+42,25;24,14;252+144" (252 + 1440).
import type { MulWorkConfig, ResolvedTaskConfig } from './config';
import { VIEW_MARKER, type ViewName } from './views';
import { columnProducts, digitsLsdFirst, gradedDigits, num, pad } from './workKinds';
import type { Rng } from '../util/rng';

type Resolved = MulWorkConfig & { aDigits: number; bDigits: number };

/** Rows of x (width digits) by each digit of y (yWidth digits, units first or top first), then their values. */
function rows(
  x: number,
  width: number,
  y: number,
  yWidth: number,
  view: ViewName,
  topFirst: boolean,
): string {
  const ds = digitsLsdFirst(y, yWidth);
  if (topFirst) ds.reverse();
  const values = ds.map((d) => num(pad(x * d, width + 1), view));
  return `${ds.map((d) => columnProducts(x, width, d, view)).join(';')};${values.join('+')}`;
}

/** The working of a * b along `path` (`chain`, `top` or `bya`), without the marker and answer. */
export function mulWorking(
  a: number,
  b: number,
  aDigits: number,
  bDigits: number,
  view: ViewName,
  path: 'chain' | 'top' | 'bya',
): string {
  if (path === 'bya') return `+${rows(b, bDigits, a, aDigits, view, false)}`;
  const w = rows(a, aDigits, b, bDigits, view, path === 'top');
  return path === 'top' ? `;${w}` : w;
}

/** The `mulw` kind: a (aDigits) * b (bDigits). */
export const mulw = {
  radices: (c: ResolvedTaskConfig): number[] => {
    const m = c as Resolved;
    return [10 ** m.aDigits, 10 ** m.bDigits];
  },
  key: ([a, b]: readonly number[], c: ResolvedTaskConfig): string => {
    const m = c as Resolved;
    return `mulw:${m.aDigits},${m.bDigits}:${pad(a, m.aDigits)}*${pad(b, m.bDigits)}`;
  },
  answer: ([a, b]: readonly number[]): string => String(a * b),
  prompt: ([a, b]: readonly number[], c: ResolvedTaskConfig, view: ViewName): string => {
    const m = c as Resolved;
    const x = num(pad(a, m.aDigits), view);
    const y = num(pad(b, m.bDigits), view);
    if (view === 'swap') return `${y}*${x}=`;
    if (view === 'words') return `${x} times ${y}?`;
    return `${x}*${y}=`;
  },
  completion: ([a, b]: readonly number[], c: ResolvedTaskConfig, view: ViewName): string => {
    const m = c as Resolved;
    return (
      mulWorking(a, b, m.aDigits, m.bDigits, view, 'chain') + VIEW_MARKER[view] + num(String(a * b), view)
    );
  },
  draw: (c: ResolvedTaskConfig): ((rng: Rng) => number[]) | null => {
    const m = c as Resolved;
    if (m.aGrade !== 'digits') return null;
    return (rng) => [gradedDigits(rng, m.aDigits), rng.int(10 ** m.bDigits)];
  },
};
