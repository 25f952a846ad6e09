// Tests for answer extraction and normalisation on tricky completion strings, and view-name errors.
import { describe, expect, it } from 'vitest';
import type { TaskKind } from './config';
import { extractAnswer, normalizeInteger, parseView, type ViewName } from './views';

type Row = [text: string, view: ViewName, kind: TaskKind, expected: string | null];

const TABLE: Row[] = [
  // plain integers
  ['#42', 'plain', 'add', '42'],
  ['#0', 'plain', 'add', '0'],
  ['#000', 'plain', 'add', '0'],
  ['#0042', 'plain', 'add', '42'],
  ['  #  42 \n', 'plain', 'add', '42'],
  ['#\t7\t', 'plain', 'mod', '7'],
  ['#-42', 'plain', 'add', '-42'],
  ['#-0', 'plain', 'add', '0'],
  ['#-007', 'plain', 'add', '-7'],
  ['#+42', 'plain', 'add', null],
  ['#--4', 'plain', 'add', null],
  ['#- 4', 'plain', 'add', null],
  ['#4 2', 'plain', 'add', null],
  ['#42.', 'plain', 'add', null],
  ['#4a', 'plain', 'add', null],
  ['#', 'plain', 'add', null],
  ['#   ', 'plain', 'add', null],
  ['#-', 'plain', 'add', null],
  ['', 'plain', 'add', null],
  ['42', 'plain', 'add', null],
  ['garbage', 'plain', 'add', null],
  ['=42', 'plain', 'add', null],
  // multiple markers: the LAST one counts
  ['#12#34', 'plain', 'add', '34'],
  ['#12#', 'plain', 'add', null],
  ['36+45#81', 'plain', 'muladd', '81'],
  ['36+45#8#1', 'plain', 'muladd', '1'],
  // swap uses the same format as plain
  ['#0105', 'swap', 'add', '105'],
  // words view: marker '='
  ['=42', 'words', 'add', '42'],
  ['36 plus 45=81', 'words', 'muladd', '81'],
  ['#42', 'words', 'add', null],
  ['=1=2', 'words', 'mod', '2'],
  // reversed view: least-significant digit first
  ['#24', 'reversed', 'add', '42'],
  ['#001', 'reversed', 'add', '100'],
  ['#0', 'reversed', 'add', '0'],
  ['#240', 'reversed', 'add', '42'],
  ['#-24', 'reversed', 'add', '-42'],
  ['801+16#961', 'reversed', 'muladd', '169'],
  // sort answers are digit strings: leading zeros kept, whitespace removed
  ['#01234', 'plain', 'sort', '01234'],
  ['# 0 1 2 3 4 ', 'plain', 'sort', '01234'],
  ['=0 0 1 5 9', 'words', 'sort', '00159'],
  ['#95100', 'reversed', 'sort', '00159'],
  ['#-123', 'plain', 'sort', null],
  ['#12a', 'plain', 'sort', null],
  ['#', 'plain', 'sort', null],
  ['#0', 'plain', 'count', '0'],
  ['#01', 'reversed', 'count', '10'],
];

describe('extractAnswer', () => {
  it.each(TABLE)('%j in %s/%s -> %j', (text, view, kind, expected) => {
    expect(extractAnswer(text, view, kind)).toBe(expected);
  });

  it('answers written in different views compare equal as canonical strings', () => {
    expect(extractAnswer('#123', 'plain', 'add')).toBe(extractAnswer('#321', 'reversed', 'add'));
    expect(extractAnswer('=123', 'words', 'add')).toBe(extractAnswer('#0123', 'swap', 'add'));
  });
});

describe('views', () => {
  it('normalizeInteger handles reversed sign and zeros', () => {
    expect(normalizeInteger(' 0070 ', true)).toBe('700');
    expect(normalizeInteger('-00', false)).toBe('0');
  });

  it('unknown view names list the valid ones', () => {
    expect(() => parseView('mirror')).toThrow(
      'unknown view "mirror"; valid views: plain, swap, words, reversed',
    );
    expect(parseView('words')).toBe('words');
    expect(() => extractAnswer('#1', 'mirror' as ViewName, 'add')).toThrow(/valid views/);
  });
});
