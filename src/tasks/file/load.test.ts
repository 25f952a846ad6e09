import { describe, expect, it } from 'vitest';
import { TaskConfigError } from '../config';
import { MAX_BYTES, normalizeAnswer, PROMPT_PAD } from './format';
import { loadTaskFile, TaskFileError } from './load';
import { bytesOf, goodRows } from './testFiles';

/** The problems of a file that must be refused, as "line N: message" strings. */
function refusal(bytes: Uint8Array, opts: Parameters<typeof loadTaskFile>[1] = {}): string[] {
  try {
    loadTaskFile(bytes, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(TaskFileError);
    expect(e).toBeInstanceOf(TaskConfigError);
    return [...(e as TaskFileError).messages];
  }
  throw new Error('the file loaded but should have been refused');
}

/** A good file with `bad` lines put in place of its first lines. */
const withLines = (...bad: string[]): Uint8Array => bytesOf([...bad, ...goodRows(1000).slice(bad.length)]);

describe('loadTaskFile: a good file', () => {
  it('loads every row with counts, alphabet, lengths and a content hash', () => {
    const f = loadTaskFile(bytesOf(goodRows(1000)), { name: 't.jsonl' });
    expect(f.rows).toHaveLength(1000);
    expect(f.counts.train + f.counts.validation + f.counts.test).toBe(1000);
    expect(f.counts.test).toBeGreaterThan(150);
    expect(f.counts.validation).toBeGreaterThan(60);
    expect(f.rows[3]).toEqual({ prompt: 'q3?', answer: '3', working: '3%7', line: 4 });
    expect(f.alphabet).toContain('#');
    expect(f.alphabet).toContain(PROMPT_PAD); // "q7?" is shorter than "q999?"
    expect(f.longestPrompt).toBe(5);
    expect(f.hash).toMatch(/^[0-9a-f]{64}$/);
  });
  it('hashes the data: CRLF line ends give the same hash, a changed answer another', () => {
    const rows = goodRows(1000);
    const a = loadTaskFile(bytesOf(rows)).hash;
    const crlf = loadTaskFile(new TextEncoder().encode(`${rows.join('\r\n')}\r\n`)).hash;
    const edited = loadTaskFile(bytesOf([rows[0].replace('"0"', '"6"'), ...rows.slice(1)])).hash;
    expect(crlf).toBe(a);
    expect(edited).not.toBe(a);
  });
  it('reads CSV with a header, quoted fields and empty optional cells', () => {
    const lines = ['prompt,answer,working,id', '"a, b?","x ""y""",,r0'];
    for (let i = 1; i < 1000; i++) lines.push(`p${i},${i % 5},${i % 2 ? `w${i}` : ''},r${i}`);
    const f = loadTaskFile(bytesOf(lines), { name: 't.csv' });
    expect(f.format).toBe('csv');
    expect(f.rows[0]).toEqual({ prompt: 'a, b?', answer: 'x "y"', id: 'r0', line: 2 });
    expect(f.rows[1]).toEqual({ prompt: 'p1', answer: '1', working: 'w1', id: 'r1', line: 3 });
  });
});

describe('loadTaskFile: every refusal names its line', () => {
  it('not JSON', () => {
    expect(refusal(withLines('{"prompt": "a", "answer": '))).toEqual([
      expect.stringMatching(/^line 1: not JSON/),
    ]);
  });
  it('missing, empty and non-text fields, unknown fields, a row that is not an object', () => {
    const p = refusal(
      withLines(
        '{"answer": "1"}',
        '{"prompt": "  ", "answer": ""}',
        '{"prompt": 12, "answer": null}',
        '{"prompt": "u", "answer": "1", "hint": "h"}',
        '[1, 2]',
        '{"prompt": "w", "answer": "1", "working": 3}',
      ),
    );
    expect(p).toEqual([
      'line 1: prompt: missing (every row needs "prompt" and "answer")',
      'line 2: prompt: is empty; every row needs a non-blank prompt',
      'line 2: answer: is empty; every row needs a non-blank answer',
      'line 3: prompt: must be text (a JSON string), got number 12',
      'line 3: answer: must be text (a JSON string), got null',
      'line 4: hint: unknown field (a row has prompt, answer, optional working and id)',
      'line 5: a row must be an object like {"prompt": "2+3=", "answer": "5"}, got an array',
      'line 6: working: must be text (a JSON string), got number 3',
    ]);
  });
  it('duplicate prompts and ids, with both line numbers', () => {
    const p = refusal(
      withLines('{"prompt": "d?", "answer": "1", "id": "x"}', '{"prompt": "d?", "answer": "2", "id": "x"}'),
    );
    expect(p).toEqual([
      'line 2: prompt: duplicates the prompt of line 1 (every prompt must be unique)',
      'line 2: id: duplicates the id of line 1',
    ]);
  });
  it('an answer holding the answer marker', () => {
    expect(refusal(withLines('{"prompt": "m?", "answer": "1#2"}'))).toEqual([
      expect.stringMatching(/^line 1: answer: holds the answer marker "#"/),
    ]);
  });
  it('a row longer than the context, and a longest prompt and completion that do not fit together', () => {
    const long = refusal(withLines(JSON.stringify({ prompt: 'L'.repeat(30), answer: '1' })), {
      maxContext: 20,
    });
    expect(long).toEqual([
      expect.stringMatching(
        /^line 1: prompt \(30 characters\) and completion with EOS \(3\) need a context of 32 tokens, more than 20/,
      ),
    ]);
    const rows = goodRows(1000);
    rows[0] = JSON.stringify({ prompt: 'P'.repeat(12), answer: '1' });
    rows[1] = JSON.stringify({ prompt: 'w?', answer: '1', working: 'W'.repeat(10) });
    expect(refusal(bytesOf(rows), { maxContext: 20 })).toEqual([
      expect.stringMatching(
        /^the longest prompt \(12 characters; every prompt is padded to it\) and the longest completion with EOS \(13\) need a context of 24 tokens, more than 20/,
      ),
    ]);
  });
  it('more than 100,000 rows', () => {
    const p = refusal(bytesOf(goodRows(100_001)));
    expect(p).toEqual(['100001 rows; a task file may hold at most 100,000']);
  });
  it('more than 20 MB', () => {
    expect(refusal(new Uint8Array(MAX_BYTES + 1).fill(0x20))).toEqual([
      'the file is 20.0 MB; a task file may hold at most 20 MB',
    ]);
  });
  it('characters outside the printable range, each named', () => {
    const p = refusal(
      withLines(
        JSON.stringify({ prompt: 'a\tb', answer: '1' }),
        JSON.stringify({ prompt: 'c', answer: '\u0007' }),
        JSON.stringify({ prompt: 'e\u{1F600}', answer: '1' }),
        JSON.stringify({ prompt: 'f', answer: '1', working: `x${PROMPT_PAD}` }),
        JSON.stringify({ prompt: 'é ü ß', answer: 'ok' }), // printable beyond ASCII: fine
      ),
    );
    expect(p).toEqual([
      'line 1: prompt: holds a tab (U+0009) at character 2; only printable characters may appear',
      'line 2: answer: holds a control character (U+0007) at character 1; only printable characters may appear',
      'line 3: prompt: holds a character beyond the Basic Multilingual Plane (U+D83D: e.g. an emoji) at character 2; only printable characters may appear',
      'line 3: prompt: holds a character beyond the Basic Multilingual Plane (U+DE00: e.g. an emoji) at character 3; only printable characters may appear',
      'line 4: working: holds a private-use character (U+E000) at character 2; only printable characters may appear',
    ]);
  });
  it('a file that is not text: NUL bytes and bytes that are not UTF-8, by line', () => {
    const good = bytesOf(goodRows(1000));
    const bad = new Uint8Array(good);
    bad[3] = 0; // line 1
    const nl = good.indexOf(0x0a, good.indexOf(0x0a) + 1); // end of line 2
    bad[nl + 3] = 0xff; // line 3
    expect(refusal(bad)).toEqual([
      'line 1: not text: it holds NUL bytes (is this a binary file?)',
      'line 3: not text: its bytes are not UTF-8 (save the file as UTF-8)',
    ]);
  });
  it('an answer that is not a number under numeric normalisation', () => {
    expect(refusal(withLines('{"prompt": "n?", "answer": "seven"}'), { normalize: 'numeric' })).toEqual([
      'line 1: answer: "seven" is not a number (normalize "numeric" needs e.g. 42, -7 or 3.25)',
    ]);
  });
  it('held-out splits under 50 rows, saying why', () => {
    const p = refusal(bytesOf(goodRows(200)));
    expect(p).toEqual([
      expect.stringMatching(
        /^the validation split holds \d+ of the 200 rows \(by a hash of the prompt\); it needs at least 50 .*about 500 or more/,
      ),
      expect.stringMatching(/^the test split holds \d+ of the 200 rows .*about 250 or more/),
    ]);
  });
  it('an empty file', () => {
    expect(refusal(new Uint8Array(0), { name: 'e.jsonl' })).toEqual(['the file holds no rows']);
    expect(refusal(new Uint8Array(0), { name: 'e.csv' })).toEqual(['the file is empty (no header, no rows)']);
  });
  it('CSV: a header without a column or with an unknown one, a wrong field count, a broken quote', () => {
    expect(refusal(bytesOf(['prompt,hint', 'a,b']), { name: 'h.csv' })).toEqual([
      'line 1: header: unknown column "hint" (columns: prompt, answer, optional working and id)',
      'line 1: header: no "answer" column (the header names prompt,answer[,working][,id])',
    ]);
    const rows = [
      'prompt,answer',
      'a,1,2',
      '"b,1',
      'c"x,1',
      ...Array.from({ length: 999 }, (_, i) => `p${i},1`),
    ];
    expect(refusal(bytesOf(rows), { name: 'r.csv' })).toEqual([
      'line 2: 3 fields, the header has 2 (quote a field that holds a comma)',
      'line 3: not CSV: a quoted field is not closed (a field cannot hold a line break; close the quote)',
      'line 4: not CSV: a quote inside an unquoted field at column 2 (quote the field and write the quote as "")',
    ]);
  });
  it('lists every problem of the file at once, in line order, and loads nothing', () => {
    const rows = goodRows(1000);
    rows[9] = 'nope';
    rows[4] = rows[2];
    rows[700] = '{"prompt": "z", "answer": "#"}';
    const p = refusal(bytesOf(rows), { name: 'many.jsonl' });
    expect(p.map((m) => m.split(':')[0])).toEqual(['line 5', 'line 10', 'line 701']);
  });
});

describe('normalizeAnswer', () => {
  it('exact, trimmed, case-folded and numeric', () => {
    expect(normalizeAnswer(' Ab ', 'exact')).toBe(' Ab ');
    expect(normalizeAnswer(' Ab ', 'trimmed')).toBe('Ab');
    expect(normalizeAnswer(' Ab ', 'casefold')).toBe('ab');
    expect(normalizeAnswer(' +007.50 ', 'numeric')).toBe('7.5');
    expect(normalizeAnswer('-0', 'numeric')).toBe('0');
    expect(normalizeAnswer('-0.0', 'numeric')).toBe('0');
    expect(normalizeAnswer('-12', 'numeric')).toBe('-12');
    expect(normalizeAnswer('1e3', 'numeric')).toBeNull();
    expect(normalizeAnswer('   ', 'trimmed')).toBeNull();
    expect(normalizeAnswer('', 'exact')).toBeNull();
  });
});
