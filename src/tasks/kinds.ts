// Per-kind problem definitions: problem-space fields, stable keys, canonical answers, prompt/completion rendering.
import type {
  AddConfig,
  CountConfig,
  ModConfig,
  MulAddConfig,
  ResolvedTaskConfig,
  SortConfig,
  TaskKind,
} from './config';
import { VIEW_MARKER, reverseString, type ViewName } from './views';
import type { Rng } from '../util/rng';
import { addw, muladdw } from './workKinds';
import { mulw } from './mulw';
import { fileKind } from './file/kind';

/** How one kind of task is defined. `values` is the problem's tuple of field values. */
export interface KindDef {
  /** Radix of each field: a problem is one value in [0, radix) per field; the space is their product. */
  radices(c: ResolvedTaskConfig): number[];
  /** Stable key, unique within the kind (includes the knobs that change the problem). */
  key(values: readonly number[], c: ResolvedTaskConfig): string;
  /** Canonical answer string (what extraction of a correct completion returns in every view). */
  answer(values: readonly number[], c: ResolvedTaskConfig): string;
  /** Prompt text; its length is the same for every problem of one (config, view). */
  prompt(values: readonly number[], c: ResolvedTaskConfig, view: ViewName): string;
  /** Correct completion text (optional working, then the view's marker, then the answer; no EOS). */
  completion(values: readonly number[], c: ResolvedTaskConfig, view: ViewName): string;
  /**
   * A draw of problems other than uniform over the space (graded difficulty), or null for uniform. With
   * one, every split is drawn by rejection sampling from it (src/tasks/task.ts), never enumerated.
   */
  draw?(c: ResolvedTaskConfig): ((rng: Rng) => number[]) | null;
}

/** Zero-pad a non-negative integer to `width` digits. */
export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Write a number (already padded or not) in the view's digit order. */
function num(s: string, view: ViewName): string {
  return view === 'reversed' ? reverseString(s) : s;
}

/** Marker + answer in the view's digit order. */
function answerPart(answer: string, view: ViewName): string {
  return VIEW_MARKER[view] + num(answer, view);
}

const add: KindDef = {
  radices: (c) => {
    const { digits } = c as Required<AddConfig>;
    return [10 ** digits, 10 ** digits];
  },
  key: ([a, b], c) => {
    const { digits: d } = c as Required<AddConfig>;
    return `add:${d}:${pad(a, d)}+${pad(b, d)}`;
  },
  answer: ([a, b]) => String(a + b),
  prompt: ([a, b], c, view) => {
    const { digits: d } = c as Required<AddConfig>;
    const [x, y] = [num(pad(a, d), view), num(pad(b, d), view)];
    if (view === 'swap') return `${y}+${x}=`;
    if (view === 'words') return `${x} plus ${y}?`;
    return `${x}+${y}=`;
  },
  completion: (v, c, view) => answerPart(add.answer(v, c), view),
};

function modValue(a: number, b: number, c: Required<ModConfig>): number {
  // a, b < 10^6 so a * b < 2^53: exact.
  return (c.op === '+' ? a + b : a * b) % c.modulus;
}

const mod: KindDef = {
  radices: (c) => {
    const { digits } = c as Required<ModConfig>;
    return [10 ** digits, 10 ** digits];
  },
  key: ([a, b], c) => {
    const m = c as Required<ModConfig>;
    return `mod:${m.digits}:${m.modulus}:${pad(a, m.digits)}${m.op}${pad(b, m.digits)}`;
  },
  answer: ([a, b], c) => String(modValue(a, b, c as Required<ModConfig>)),
  prompt: ([a, b], c, view) => {
    const m = c as Required<ModConfig>;
    const [x, y] = [num(pad(a, m.digits), view), num(pad(b, m.digits), view)];
    const mm = num(String(m.modulus), view);
    if (view === 'words') return `${x} ${m.op === '+' ? 'plus' : 'times'} ${y} mod ${mm}?`;
    if (view === 'swap') return `(${y}${m.op}${x})%${mm}=`;
    return `(${x}${m.op}${y})%${mm}=`;
  },
  completion: (v, c, view) => answerPart(mod.answer(v, c), view),
};

const muladd: KindDef = {
  radices: (c) => {
    const m = c as Required<MulAddConfig>;
    return [10 ** m.aDigits, 10 ** m.bDigits, 10 ** m.cDigits];
  },
  key: ([a, b, cc], c) => {
    const m = c as Required<MulAddConfig>;
    return `muladd:${m.aDigits},${m.bDigits},${m.cDigits}:${pad(a, m.aDigits)}*${pad(b, m.bDigits)}+${pad(cc, m.cDigits)}`;
  },
  answer: ([a, b, cc]) => String(a * b + cc),
  prompt: ([a, b, cc], c, view) => {
    const m = c as Required<MulAddConfig>;
    const x = num(pad(a, m.aDigits), view);
    const y = num(pad(b, m.bDigits), view);
    const z = num(pad(cc, m.cDigits), view);
    if (view === 'swap') return `${z}+${y}*${x}=`;
    if (view === 'words') return `${x} times ${y} plus ${z}?`;
    return `${x}*${y}+${z}=`;
  },
  // Working: the product, then the addend, then the marker and the answer, e.g. "36+45#81".
  completion: ([a, b, cc], _c, view) => {
    const prod = num(String(a * b), view);
    const addend = num(String(cc), view);
    const work = view === 'words' ? `${prod} plus ${addend}` : `${prod}+${addend}`;
    return work + answerPart(String(a * b + cc), view);
  },
};

/** Rotate a list by half its length (the `swap` view of list tasks: a different order, same answer). */
function swapHalves(xs: readonly number[]): number[] {
  const h = Math.floor(xs.length / 2);
  return [...xs.slice(h), ...xs.slice(0, h)];
}

/** Render a digit list in a view: `reversed` writes it back to front, `words` separates by spaces. */
function listText(xs: readonly number[], view: ViewName): string {
  const ordered = view === 'reversed' ? [...xs].reverse() : view === 'swap' ? swapHalves(xs) : xs;
  return ordered.join(view === 'words' ? ' ' : '');
}

const sort: KindDef = {
  radices: (c) => new Array<number>((c as Required<SortConfig>).length).fill(10),
  key: (v, c) => `sort:${(c as Required<SortConfig>).length}:${v.join('')}`,
  answer: (v) => [...v].sort((x, y) => x - y).join(''),
  prompt: (v, _c, view) => (view === 'words' ? `sort ${listText(v, view)}?` : `[${listText(v, view)}]=`),
  completion: (v, c, view) => {
    const ans = sort.answer(v, c);
    return VIEW_MARKER[view] + (view === 'words' ? ans.split('').join(' ') : num(ans, view));
  },
};

const count: KindDef = {
  // Field 0 is the target digit, fields 1..length the list.
  radices: (c) => new Array<number>((c as Required<CountConfig>).length + 1).fill(10),
  key: ([t, ...xs], c) => `count:${(c as Required<CountConfig>).length}:${t}@${xs.join('')}`,
  answer: ([t, ...xs]) => String(xs.filter((x) => x === t).length),
  prompt: ([t, ...xs], _c, view) => {
    if (view === 'words') return `count ${t} in ${listText(xs, 'plain')}?`;
    if (view === 'swap') return `${t}:${listText(xs, 'plain')}=`;
    return `${listText(xs, view)}:${t}=`;
  },
  completion: (v, c, view) => answerPart(count.answer(v, c), view),
};

/** Definitions of every kind. */
export const KIND_DEFS: Readonly<Record<TaskKind, KindDef>> = {
  add,
  mod,
  muladd,
  sort,
  count,
  addw,
  muladdw,
  mulw,
  file: fileKind,
};
