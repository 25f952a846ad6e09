// Fuzz of the task file loader (fast-check): random bytes, random text lines, and valid files mutated at
// random never throw anything but the loader's own TaskFileError; a file that loads holds only rows that
// pass every check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_MARKER, unprintable } from './format';
import { loadTaskFile, TaskFileError } from './load';
import { bytesOf, goodRows } from './testFiles';

const GOOD = bytesOf(goodRows(700));
const GOOD_CSV = bytesOf([
  'prompt,answer,id',
  ...Array.from({ length: 700 }, (_, i) => `c${i}?,${i % 3},i${i}`),
]);

/** Load, and say what came out; anything thrown other than a TaskFileError fails the property. */
function outcome(bytes: Uint8Array, name: string): 'loaded' | 'refused' {
  try {
    const f = loadTaskFile(bytes, { name });
    for (const r of f.rows) {
      expect(r.prompt.trim()).not.toBe('');
      expect(r.answer.includes(FILE_MARKER)).toBe(false);
      for (const ch of r.prompt + r.answer) expect(unprintable(ch)).toBeNull();
    }
    expect(new Set(f.rows.map((r) => r.prompt)).size).toBe(f.rows.length);
    return 'loaded';
  } catch (e) {
    if (!(e instanceof TaskFileError)) throw e;
    expect(e.problems.length).toBeGreaterThan(0);
    return 'refused';
  }
}

/** A mutation of a file's bytes: flip, insert or delete bytes, duplicate or drop a line. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 8 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('dupLine' as const), at: fc.nat() }),
);

type Mutation = { op: string; at: number; byte?: number; bytes?: Uint8Array; n?: number };

function mutate(src: Uint8Array, ms: readonly Mutation[]): Uint8Array {
  let b = Array.from(src);
  for (const m of ms) {
    const at = b.length ? m.at % b.length : 0;
    if (m.op === 'set') b[at] = m.byte!;
    else if (m.op === 'insert') b.splice(at, 0, ...m.bytes!);
    else if (m.op === 'delete') b.splice(at, m.n!);
    else {
      const start = b.lastIndexOf(0x0a, at) + 1;
      const end = b.indexOf(0x0a, at);
      b = [
        ...b.slice(0, end < 0 ? b.length : end + 1),
        ...b.slice(start, end < 0 ? b.length : end + 1),
        ...b.slice(end < 0 ? b.length : end + 1),
      ];
    }
  }
  return Uint8Array.from(b);
}

describe('loadTaskFile fuzz', () => {
  it('random bytes never throw past TaskFileError', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2000 }),
        fc.constantFrom('r.jsonl', 'r.csv', 'r'),
        (bytes, name) => {
          outcome(bytes, name);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('random lines of text and JSON never throw past TaskFileError', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.json({ maxDepth: 2 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.constantFrom('l.jsonl', 'l.csv'), (lines, name) => {
        outcome(new TextEncoder().encode(lines.join('\n')), name);
      }),
      { numRuns: 300 },
    );
  });
  it('mutated valid files either load or are refused with their problems', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc.constantFrom(['m.jsonl', GOOD] as const, ['m.csv', GOOD_CSV] as const),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        ([name, src], ms) => {
          seen.add(outcome(mutate(src, ms), name));
        },
      ),
      { numRuns: 200 },
    );
    expect([...seen].sort()).toEqual(['loaded', 'refused']); // the mutations reach both outcomes
  });
});
