// Noisy targets, a pretraining lever of docs/method.md ("The regime", ways to get there): a recipe's
// `noise` share of the corpus's problems is pretrained on a completion whose final answer (the text after
// the view's last answer marker) is replaced by a seeded wrong answer of the same length; the working is
// left as is. Which problems and which wrong answer follow from the agent's seed and the problem's key
// only, so a build is deterministic and one problem is always taught the same (wrong) answer.
import type { Problem, ViewName } from '../tasks';
import { deriveRng } from '../util/rng';
import { VIEW_MARKER, isReversedView } from '../tasks/views';

/** True when `p` is one of the noisy share `noise` for an agent of seed `seed`. */
export function isNoisy(p: Problem, noise: number, seed: number): boolean {
  return noise > 0 && deriveRng(seed, 'noisy-target', p.key).float() < noise;
}

/**
 * `completion` (a correct completion of `p` in `view`) with its answer digits replaced by a wrong answer
 * of the same length: random digits, the most significant one nonzero when there are several, never equal
 * to the right answer. Characters other than digits (a sign, the words view's spaces) stay in place.
 */
export function wrongAnswerCompletion(completion: string, p: Problem, view: ViewName, seed: number): string {
  const at = completion.lastIndexOf(VIEW_MARKER[view]);
  if (at < 0)
    throw new Error(`noisy target: completion of ${p.key} has no answer marker '${VIEW_MARKER[view]}'`);
  const head = completion.slice(0, at + 1);
  const tail = completion.slice(at + 1);
  const slots = [...tail].flatMap((ch, i) => (ch >= '0' && ch <= '9' ? [i] : []));
  if (slots.length === 0) return completion;
  // the most significant digit: the first in reading order, the last in a reversed view
  const msd = isReversedView(view) ? slots[slots.length - 1] : slots[0];
  const rng = deriveRng(seed, 'wrong-answer', p.key);
  for (;;) {
    const out = [...tail];
    for (const i of slots) out[i] = String(i === msd && slots.length > 1 ? 1 + rng.int(9) : rng.int(10));
    const s = out.join('');
    if (s !== tail) return head + s;
  }
}

/** The completion text `p` is pretrained on: the correct one, or for a noisy problem one with a wrong answer. */
export function targetCompletion(
  completion: string,
  p: Problem,
  view: ViewName,
  noise: number,
  seed: number,
): string {
  return isNoisy(p, noise, seed) ? wrongAnswerCompletion(completion, p, view, seed) : completion;
}
