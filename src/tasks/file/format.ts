// The task file format's fixed terms (docs/tasks.md "Bring your own task"): the answer marker, the pad
// character that evens out prompt lengths, the limits, the printable range and the answer normalisations.
// A leaf: no imports, so the task config (../config.ts) and the file kind (kind.ts) can share it.

/** The answer marker of a file task's completions (the plain view's): the answer is the text after the LAST one. */
export const FILE_MARKER = '#';
/**
 * Left pad of prompts shorter than the file's longest (rollouts decode a batch of prompts in lock step, so
 * every prompt of a task has one length). A private-use character: never printable, so never in a file.
 */
export const PROMPT_PAD = '\uE000';
/** Most rows a task file may hold. */
export const MAX_ROWS = 100_000;
/** Most bytes a task file may hold (20 MB). */
export const MAX_BYTES = 20 * 1024 * 1024;
/** Default context limit (tokens: prompt + completion + EOS) when no agent names an arch.blockSize. */
export const DEFAULT_MAX_CONTEXT = 256;
/** Fewest rows the validation and the test split must each hold. */
export const MIN_HELD_OUT = 50;

/** How a file task compares an extracted answer with the row's. */
export const NORMALIZATIONS = ['exact', 'trimmed', 'casefold', 'numeric'] as const;
/** An answer normalisation. */
export type Normalization = (typeof NORMALIZATIONS)[number];

/**
 * Normalise an answer: `exact` as written; `trimmed` without surrounding whitespace; `casefold` trimmed
 * and lower-cased; `numeric` trimmed and read as a decimal number (optional sign, digits, optional
 * fraction) written canonically ("+007.50" -> "7.5", "-0" -> "0"). Null when it is empty or, for
 * `numeric`, not a number.
 */
export function normalizeAnswer(text: string, mode: Normalization): string | null {
  if (mode === 'exact') return text === '' ? null : text;
  const t = text.trim();
  if (t === '') return null;
  if (mode === 'trimmed') return t;
  if (mode === 'casefold') return t.toLowerCase();
  const m = /^([+-]?)([0-9]+)(?:\.([0-9]+))?$/.exec(t);
  if (!m) return null;
  const int = m[2].replace(/^0+(?=[0-9])/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return m[1] === '-' && body !== '0' ? `-${body}` : body;
}

/**
 * Why a character cannot be in a task file, or null when it can: printable means U+0020..U+007E or
 * U+00A0..U+FFFD, not a surrogate (characters beyond the Basic Multilingual Plane, e.g. emoji, are not
 * one UTF-16 unit, which the character tokenizer needs), not private use, not U+FEFF.
 */
export function unprintable(ch: string): string | null {
  const c = ch.charCodeAt(0);
  const code = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  if (c === 0x09) return `a tab (${code})`;
  if (c === 0x0a || c === 0x0d) return `a line break (${code})`;
  if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return `a control character (${code})`;
  if (c >= 0xd800 && c <= 0xdfff)
    return `a character beyond the Basic Multilingual Plane (${code}: e.g. an emoji)`;
  if (c >= 0xe000 && c <= 0xf8ff) return `a private-use character (${code})`;
  if (c === 0xfeff || c >= 0xfffe) return `a non-character (${code})`;
  return null;
}

/** The problem key of a row (decides its split): its prompt, exactly. */
export const fileProblemKey = (prompt: string): string => `file:${prompt}`;

/** The completion a row's pretraining target ends with: its working (if any), the marker, its answer. */
export const rowCompletion = (r: { working?: string; answer: string }): string =>
  `${r.working ?? ''}${FILE_MARKER}${r.answer}`;
