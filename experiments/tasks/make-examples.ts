// `npm run make-task-examples`: write the two example task files of docs/tasks.md ("Bring your own task")
// into examples/tasks/, deterministically (a fixed seed; rerunning rewrites the same bytes):
// - expressions.jsonl: arithmetic expressions of single digits with 1 to 5 operators (+, -, *; the usual
//   precedence), graded in difficulty by the operator count, each with its working (one reduction per
//   step) and an id naming its level; answers are integers (normalize "numeric").
// - letters.csv: sort the letters of a 3- to 8-letter string (a CSV with a header), nothing like arithmetic.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUT = 'examples/tasks';

/** mulberry32: a small seeded generator (the script needs no other module). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Token = number | '+' | '-' | '*';

/** One reduction of an expression: the first '*', else the leftmost '+' or '-'. */
function reduce(ts: Token[]): Token[] {
  let i = ts.indexOf('*');
  if (i < 0) i = 1;
  const [a, op, b] = [ts[i - 1] as number, ts[i], ts[i + 1] as number];
  const v = op === '*' ? a * b : op === '+' ? a + b : a - b;
  return [...ts.slice(0, i - 1), v, ...ts.slice(i + 2)];
}

const show = (ts: Token[]): string => ts.join('');

/** The expression rows: `perLevel[k - 1]` distinct expressions with k operators (fewer if there are not as many). */
function expressions(perLevel: number[]): string[] {
  const next = rng(21);
  const out: string[] = [];
  perLevel.forEach((want, level) => {
    const ops = level + 1;
    const seen = new Set<string>();
    const space = 10 ** (ops + 1) * 3 ** ops;
    while (seen.size < Math.min(want, space)) {
      const ts: Token[] = [Math.floor(next() * 10)];
      for (let k = 0; k < ops; k++)
        ts.push((['+', '-', '*'] as const)[Math.floor(next() * 3)], Math.floor(next() * 10));
      const prompt = `${show(ts)}=`;
      if (seen.has(prompt)) continue;
      seen.add(prompt);
      const steps: string[] = [];
      let cur = ts;
      while (cur.length > 1) {
        cur = reduce(cur);
        steps.push(show(cur));
      }
      const answer = steps.pop()!;
      const row: Record<string, string> = {
        id: `L${ops}-${String(seen.size).padStart(5, '0')}`,
        prompt,
        answer,
      };
      if (steps.length) row.working = steps.join(',');
      out.push(JSON.stringify(row));
    }
  });
  return out;
}

/** The letter-sorting rows: `n` distinct strings of 3 to 8 lower-case letters. */
function letters(n: number): string[] {
  const next = rng(22);
  const seen = new Set<string>();
  const out = ['prompt,answer,id'];
  while (seen.size < n) {
    const len = 3 + Math.floor(next() * 6);
    let s = '';
    for (let i = 0; i < len; i++) s += String.fromCharCode(97 + Math.floor(next() * 26));
    const prompt = `${s}>`;
    if (seen.has(prompt)) continue;
    seen.add(prompt);
    out.push(`${prompt},${[...s].sort().join('')},w${String(seen.size).padStart(5, '0')}`);
  }
  return out;
}

mkdirSync(OUT, { recursive: true });
const ex = expressions([300, 5500, 5500, 5500, 5500]);
writeFileSync(join(OUT, 'expressions.jsonl'), `${ex.join('\n')}\n`);
const le = letters(22_000);
writeFileSync(join(OUT, 'letters.csv'), `${le.join('\n')}\n`);
process.stdout.write(
  `wrote ${OUT}/expressions.jsonl (${ex.length} rows) and ${OUT}/letters.csv (${le.length - 1} rows)\n`,
);
