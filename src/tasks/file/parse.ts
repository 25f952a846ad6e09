// Reading a task file's bytes into records with their line numbers: the size limit, text checks (NUL
// bytes, invalid UTF-8), JSON Lines and CSV with a header. Every problem is collected, none thrown; the
// row checks (load.ts) run on what parsed.
import { MAX_BYTES } from './format';

/** One problem of a task file: its 1-based line (null for the whole file) and what is wrong, how to fix it. */
export interface FileProblem {
  line: number | null;
  message: string;
}

/** A task file's format. */
export type TaskFileFormat = 'jsonl' | 'csv';

/** A parsed record: the line it starts on and its value (JSON Lines: any JSON; CSV: an object of text). */
export interface RawRecord {
  line: number;
  value: unknown;
}

/** The columns (CSV) and fields (JSON Lines) a row may have. */
export const ROW_FIELDS = ['prompt', 'answer', 'working', 'id'] as const;

/** The format of a file by its name (.jsonl/.ndjson/.json: JSON Lines; .csv: CSV), else by its first character. */
export function detectFormat(name: string, text: string): TaskFileFormat {
  if (/\.(jsonl|ndjson|json)$/i.test(name)) return 'jsonl';
  if (/\.csv$/i.test(name)) return 'csv';
  return text.trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

/** The lines of `bytes` (split at LF, a trailing CR dropped), each decoded as UTF-8, with the lines that are not text. */
export function textLines(bytes: Uint8Array): { lines: (string | null)[]; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  if (bytes.length > MAX_BYTES) {
    const mb = (bytes.length / 1024 / 1024).toFixed(1);
    problems.push({ line: null, message: `the file is ${mb} MB; a task file may hold at most 20 MB` });
    return { lines: [], problems };
  }
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const lines: (string | null)[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    const n = lines.length + 1;
    let end = i;
    if (end > start && bytes[end - 1] === 0x0d) end--;
    const slice = bytes.subarray(start, end);
    start = i + 1;
    if (slice.includes(0)) {
      problems.push({ line: n, message: 'not text: it holds NUL bytes (is this a binary file?)' });
      lines.push(null);
      continue;
    }
    try {
      let s = decoder.decode(slice);
      if (n === 1 && s.startsWith('\uFEFF')) s = s.slice(1);
      lines.push(s);
    } catch {
      problems.push({ line: n, message: 'not text: its bytes are not UTF-8 (save the file as UTF-8)' });
      lines.push(null);
    }
  }
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop(); // the final line break
  return { lines, problems };
}

/** Records of JSON Lines: one JSON value per non-blank line. */
export function parseJsonLines(lines: readonly (string | null)[]): {
  records: RawRecord[];
  problems: FileProblem[];
} {
  const records: RawRecord[] = [];
  const problems: FileProblem[] = [];
  lines.forEach((s, i) => {
    if (s === null || s.trim() === '') return;
    try {
      records.push({ line: i + 1, value: JSON.parse(s) });
    } catch (e) {
      problems.push({
        line: i + 1,
        message: `not JSON (${(e as Error).message}); each line must be one object like {"prompt": "2+3=", "answer": "5"}`,
      });
    }
  });
  return { records, problems };
}

/** The fields of one CSV line (RFC 4180 quoting: "a, b" and "" for a quote), or why it does not parse. */
function csvFields(s: string): string[] | string {
  const out: string[] = [];
  let i = 0;
  while (true) {
    let field = '';
    if (s[i] === '"') {
      i++;
      while (true) {
        if (i >= s.length)
          return 'a quoted field is not closed (a field cannot hold a line break; close the quote)';
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += s[i++];
      }
      if (i < s.length && s[i] !== ',')
        return `text after a closing quote at column ${i + 1} (write a quote inside a quoted field as "")`;
    } else {
      while (i < s.length && s[i] !== ',') {
        if (s[i] === '"')
          return `a quote inside an unquoted field at column ${i + 1} (quote the field and write the quote as "")`;
        field += s[i++];
      }
    }
    out.push(field);
    if (i >= s.length) return out;
    i++; // the comma
  }
}

/** Records of a CSV file: the first non-blank line is the header (prompt, answer, optional working and id). */
export function parseCsv(lines: readonly (string | null)[]): {
  records: RawRecord[];
  problems: FileProblem[];
} {
  const records: RawRecord[] = [];
  const problems: FileProblem[] = [];
  let header: string[] | null = null;
  lines.forEach((s, i) => {
    const line = i + 1;
    if (s === null || (s.trim() === '' && header !== null)) return;
    if (header === null && s.trim() === '') return;
    const fields = csvFields(s);
    if (typeof fields === 'string') {
      problems.push({ line, message: `not CSV: ${fields}` });
      if (header === null) header = [];
      return;
    }
    if (header === null) {
      header = fields.map((f) => f.trim());
      const bad = header.filter((h) => !(ROW_FIELDS as readonly string[]).includes(h));
      if (bad.length)
        problems.push({
          line,
          message: `header: unknown column${bad.length > 1 ? 's' : ''} ${bad.map((b) => JSON.stringify(b)).join(', ')} (columns: prompt, answer, optional working and id)`,
        });
      for (const need of ['prompt', 'answer'])
        if (!header.includes(need))
          problems.push({
            line,
            message: `header: no "${need}" column (the header names prompt,answer[,working][,id])`,
          });
      const dup = header.filter((h, j) => header!.indexOf(h) !== j);
      if (dup.length) problems.push({ line, message: `header: column "${dup[0]}" appears twice` });
      if (problems.some((p) => p.line === line)) header = []; // rows are not read against a bad header
      return;
    }
    if (header.length === 0) return; // the header did not parse: nothing to read rows against
    if (fields.length !== header.length) {
      problems.push({
        line,
        message: `${fields.length} field${fields.length === 1 ? '' : 's'}, the header has ${header.length} (quote a field that holds a comma)`,
      });
      return;
    }
    const value: Record<string, string> = {};
    header.forEach((h, j) => {
      // an empty optional cell is an absent field
      if (fields[j] !== '' || (h !== 'working' && h !== 'id')) value[h] = fields[j];
    });
    records.push({ line, value });
  });
  if (header === null) problems.push({ line: null, message: 'the file is empty (no header, no rows)' });
  return { records, problems };
}
