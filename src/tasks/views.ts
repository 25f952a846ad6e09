// Prompt views (canonical + rephrasings), their answer markers, and answer extraction/normalisation.
import { TaskConfigError, type ResolvedTaskConfig, type TaskKind } from './config';
import { normalizeAnswer } from './file/format';

/** Names of all views. `plain` is the canonical view. */
export const VIEW_NAMES = ['plain', 'swap', 'words', 'reversed'] as const;
/** A view: how a problem's prompt is rendered and how its completion's answer is written and parsed. */
export type ViewName = (typeof VIEW_NAMES)[number];
/** The canonical view. */
export const CANONICAL_VIEW: ViewName = 'plain';

/** Answer marker character per view: the answer is the text after the LAST marker. */
export const VIEW_MARKER: Readonly<Record<ViewName, string>> = {
  plain: '#',
  swap: '#',
  words: '=',
  reversed: '#',
};

/** Views whose numbers (operands, working and answer) are written least-significant digit first. */
export function isReversedView(view: ViewName): boolean {
  return view === 'reversed';
}

/** True if `name` is a view name. */
export function isViewName(name: unknown): name is ViewName {
  return typeof name === 'string' && (VIEW_NAMES as readonly string[]).includes(name);
}

/** Return `name` as a view, or throw a `TaskConfigError` listing the valid view names. */
export function parseView(name: string): ViewName {
  if (!isViewName(name)) {
    throw new TaskConfigError([
      `unknown view ${JSON.stringify(name)}; valid views: ${VIEW_NAMES.join(', ')}`,
    ]);
  }
  return name;
}

/** Kinds whose answer is a digit string (leading zeros significant) rather than an integer. */
const DIGIT_STRING_KINDS: ReadonlySet<TaskKind> = new Set<TaskKind>(['sort']);

/** Reverse a string (ASCII). */
export function reverseString(s: string): string {
  return s.split('').reverse().join('');
}

/**
 * Normalise an integer answer written as text. Trims surrounding whitespace; accepts an optional
 * single leading '-' followed by decimal digits only (no '+', no inner spaces). In a reversed view the
 * digits are read least-significant first (the sign stays in front: "-24" means -42). Leading zeros are
 * dropped and "-0" becomes "0". Returns null when it does not parse.
 */
export function normalizeInteger(text: string, reversed: boolean): string | null {
  const m = /^(-?)([0-9]+)$/.exec(text.trim());
  if (!m) return null;
  let digits = reversed ? reverseString(m[2]) : m[2];
  digits = digits.replace(/^0+/, '');
  if (digits === '') return '0';
  return m[1] + digits;
}

/**
 * Normalise a digit-string answer (e.g. a sorted list). All whitespace is removed (digits may be
 * space-separated); the rest must be decimal digits only; a reversed view's string is reversed.
 * Leading zeros are kept (they are list elements). Returns null when it does not parse.
 */
export function normalizeDigitString(text: string, reversed: boolean): string | null {
  const s = text.replace(/\s+/g, '');
  if (!/^[0-9]+$/.test(s)) return null;
  return reversed ? reverseString(s) : s;
}

/**
 * Extract the canonical answer from a completion (text without EOS). Takes the text after the LAST
 * answer marker of the view (`#`, or `=` for `words`) to the end and normalises it (see
 * `normalizeInteger` / `normalizeDigitString`), so answers written in different views compare equal.
 * Returns null when there is no marker, nothing after it, or it does not parse. A file task's answer is
 * normalised as its config says (`normalizeAnswer`): pass the problem (a bare 'file' kind reads 'exact').
 */
export function extractAnswer(
  completionText: string,
  view: ViewName,
  of: TaskKind | { kind: TaskKind; config: ResolvedTaskConfig },
): string | null {
  const kind = typeof of === 'string' ? of : of.kind;
  const marker = VIEW_MARKER[view];
  if (marker === undefined) parseView(view);
  const at = completionText.lastIndexOf(marker);
  if (at < 0) return null;
  const tail = completionText.slice(at + marker.length);
  if (kind === 'file')
    return normalizeAnswer(
      tail,
      typeof of === 'string' || of.config.kind !== 'file' ? 'exact' : of.config.normalize,
    );
  const reversed = isReversedView(view);
  return DIGIT_STRING_KINDS.has(kind)
    ? normalizeDigitString(tail, reversed)
    : normalizeInteger(tail, reversed);
}
