// The `file` kind's problem definition: a problem is one row (its one field value is the row's index);
// its key is its prompt, its answer the row's answer normalised, its prompt the row's left-padded to the
// file's longest, its completion the row's working, the marker and the answer. Only the plain view applies.
import { TaskConfigError, type ResolvedTaskConfig } from '../config';
import type { ViewName } from '../views';
import type { ResolvedFileTaskConfig } from './config';
import { PROMPT_PAD, fileProblemKey, normalizeAnswer, rowCompletion } from './format';
import { registeredTaskFile } from './registry';
import type { TaskFile } from './taskFile';

/** Why a view cannot be used with a file task, or null for the plain view. */
export function fileViewProblem(view: string): string | null {
  if (view === 'plain') return null;
  if (view === 'reversed')
    return `the reversed view writes numbers least-significant digit first, which free text does not have; file tasks use the plain view`;
  return `the ${view} view rewrites a built-in kind's prompt template, which a file's rows do not have (each row has one phrasing); file tasks use the plain view`;
}

/** The loaded file of a resolved file config (throws naming the hash when it is not loaded). */
export function fileOf(c: ResolvedTaskConfig): TaskFile {
  const fc = c as ResolvedFileTaskConfig;
  const f = registeredTaskFile(fc);
  if (!f)
    throw new TaskConfigError([
      `file: no task file with hash ${fc.hash.slice(0, 16)}... is loaded (normalize ${fc.normalize}, evalFraction ${fc.evalFraction})`,
    ]);
  return f;
}

function checkView(view: ViewName): void {
  const why = fileViewProblem(view);
  if (why) throw new TaskConfigError([`view ${view}: ${why}`]);
}

const row = (values: readonly number[], c: ResolvedTaskConfig) => fileOf(c).rows[values[0]];

/** The KindDef of file tasks (see kinds.ts). */
export const fileKind = {
  radices: (c: ResolvedTaskConfig): number[] => [fileOf(c).rows.length],
  key: (v: readonly number[], c: ResolvedTaskConfig): string => fileProblemKey(row(v, c).prompt),
  answer: (v: readonly number[], c: ResolvedTaskConfig): string =>
    normalizeAnswer(row(v, c).answer, (c as ResolvedFileTaskConfig).normalize)!,
  prompt: (v: readonly number[], c: ResolvedTaskConfig, view: ViewName): string => {
    checkView(view);
    return row(v, c).prompt.padStart(fileOf(c).longestPrompt, PROMPT_PAD);
  },
  completion: (v: readonly number[], c: ResolvedTaskConfig, view: ViewName): string => {
    checkView(view);
    return rowCompletion(row(v, c));
  },
};
