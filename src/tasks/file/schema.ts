// The row shape of a task file (valibot): {prompt, answer, optional working, optional id}, all text;
// prompt and answer not blank. Messages name the field; load.ts adds the line.
import * as v from 'valibot';
import { ROW_FIELDS } from './parse';

/** One row of a task file, as written. */
export interface TaskRow {
  prompt: string;
  answer: string;
  /** The steps a completion writes before the answer marker (pretraining targets only). */
  working?: string;
  id?: string;
  /** The line the row is on. */
  line: number;
}

const describe = (x: unknown): string =>
  x === null ? 'null' : Array.isArray(x) ? 'an array' : `${typeof x} ${JSON.stringify(x)}`;

const text = (field: string, required: boolean) =>
  v.pipe(
    v.string((i) => `${field}: must be text (a JSON string), got ${describe(i.input)}`),
    v.check((s) => !required || s.trim() !== '', `${field}: is empty; every row needs a non-blank ${field}`),
  );

/** The shape of a row (unknown fields are checked apart, so every one is named). */
const ROW_SCHEMA = v.object(
  {
    prompt: text('prompt', true),
    answer: text('answer', true),
    working: v.optional(text('working', false)),
    id: v.optional(text('id', false)),
  },
  (i) => `${i.expected?.slice(1, -1)}: missing (every row needs "prompt" and "answer")`,
);

/** The messages of what is wrong with a row's shape, or its fields when it is right. */
export function checkRowShape(value: unknown): { row: Omit<TaskRow, 'line'> } | { errors: string[] } {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return {
      errors: [`a row must be an object like {"prompt": "2+3=", "answer": "5"}, got ${describe(value)}`],
    };
  const r = v.safeParse(ROW_SCHEMA, value, { abortEarly: false });
  const errors = r.issues?.map((i) => i.message) ?? [];
  for (const k of Object.keys(value))
    if (!(ROW_FIELDS as readonly string[]).includes(k))
      errors.push(`${k}: unknown field (a row has prompt, answer, optional working and id)`);
  if (errors.length || !r.success) return { errors };
  const { prompt, answer, working, id } = r.output;
  return { row: { prompt, answer, ...(working ? { working } : {}), ...(id ? { id } : {}) } };
}
