// Character-level tokenizer with reserved PAD/BOS/EOS ids, and the alphabet a set of tasks and views needs.
import { resolveTaskConfig, type TaskConfig } from './config';
import { KIND_DEFS } from './kinds';
import { fileOf } from './file/kind';
import { makeProblem, renderCompletion, renderPrompt } from './task';
import { VIEW_MARKER, parseView, type ViewName } from './views';

/** Reserved id: padding. */
export const PAD_ID = 0;
/** Reserved id: beginning of sequence. */
export const BOS_ID = 1;
/** Reserved id: end of sequence. */
export const EOS_ID = 2;
/** Number of reserved ids; character ids start here. */
export const NUM_SPECIAL = 3;

/** A character-level tokenizer. */
export interface Tokenizer {
  /** The characters, in id order (id = NUM_SPECIAL + index). */
  readonly alphabet: string;
  /** NUM_SPECIAL + alphabet length. */
  readonly vocabSize: number;
  readonly padId: number;
  readonly bosId: number;
  readonly eosId: number;
  /** Ids of the characters of `text` (no BOS/EOS added). Throws naming any unknown characters. */
  encode(text: string): number[];
  /** Text of `ids` up to (not including) the first EOS; PAD and BOS are skipped. Throws on out-of-range ids. */
  decode(ids: ArrayLike<number>): string;
  /** Id of one character (throws if unknown). */
  idOf(ch: string): number;
  /** True if every character of `text` is in the alphabet. */
  canEncode(text: string): boolean;
}

/**
 * Make a tokenizer over the distinct characters of `alphabet` (deduplicated, sorted by code point so
 * the same character set always gives the same ids). Characters must be single UTF-16 code units.
 */
export function makeTokenizer(alphabet: string | Iterable<string>): Tokenizer {
  const chars = [...new Set(typeof alphabet === 'string' ? alphabet.split('') : [...alphabet])].sort();
  for (const ch of chars) {
    if (ch.length !== 1)
      throw new Error(`tokenizer alphabet entries must be single characters, got ${JSON.stringify(ch)}`);
  }
  if (chars.length === 0) throw new Error('tokenizer alphabet is empty');
  const ids = new Map<string, number>(chars.map((ch, i) => [ch, NUM_SPECIAL + i]));
  const vocabSize = NUM_SPECIAL + chars.length;
  const joined = chars.join('');

  const encode = (text: string): number[] => {
    const out = new Array<number>(text.length);
    let unknown: Set<string> | null = null;
    for (let i = 0; i < text.length; i++) {
      const id = ids.get(text[i]);
      if (id === undefined) (unknown ??= new Set()).add(text[i]);
      else out[i] = id;
    }
    if (unknown) {
      const list = [...unknown].map((ch) => JSON.stringify(ch)).join(', ');
      throw new Error(`cannot encode unknown character(s) ${list}; alphabet is ${JSON.stringify(joined)}`);
    }
    return out;
  };

  const decode = (seq: ArrayLike<number>): string => decodePieces(seq, chars);

  return {
    alphabet: joined,
    vocabSize,
    padId: PAD_ID,
    bosId: BOS_ID,
    eosId: EOS_ID,
    encode,
    decode,
    idOf(ch) {
      const id = ids.get(ch);
      if (id === undefined)
        throw new Error(`unknown character ${JSON.stringify(ch)}; alphabet is ${JSON.stringify(joined)}`);
      return id;
    },
    canEncode: (text) => [...text].every((ch) => ids.has(ch)),
  };
}

/**
 * Text of token ids whose piece strings are `pieces` (id = NUM_SPECIAL + index): stops at EOS, skips PAD
 * and BOS, throws on an id outside the vocabulary. Shared by every tokenizer (tokenizers.ts).
 */
export function decodePieces(seq: ArrayLike<number>, pieces: readonly string[]): string {
  const vocabSize = NUM_SPECIAL + pieces.length;
  let s = '';
  for (let i = 0; i < seq.length; i++) {
    const id = seq[i];
    if (id === EOS_ID) break;
    if (id === PAD_ID || id === BOS_ID) continue;
    if (!Number.isInteger(id) || id < NUM_SPECIAL || id >= vocabSize)
      throw new Error(`cannot decode token id ${id}; vocabSize is ${vocabSize}`);
    s += pieces[id - NUM_SPECIAL];
  }
  return s;
}

const DIGITS = '0123456789';

/**
 * The sorted alphabet needed to write every prompt and correct completion of the given task configs in
 * the given views: the ten digits, each view's answer marker, and the template characters of each
 * (kind, view). Families using different views can thus have different vocabularies.
 */
export function taskAlphabet(
  configs: TaskConfig | readonly TaskConfig[],
  views: readonly ViewName[],
): string {
  const list = Array.isArray(configs) ? (configs as readonly TaskConfig[]) : [configs as TaskConfig];
  // a file task's alphabet is its file's characters (plus the specials); code kinds always hold the digits
  const chars = new Set(list.every((c) => c.kind === 'file') ? '' : DIGITS);
  for (const raw of list) {
    const config = resolveTaskConfig(raw);
    if (config.kind === 'file') {
      for (const v of views) parseView(v);
      for (const ch of fileOf(config).alphabet) chars.add(ch);
      continue;
    }
    // Templates are fixed apart from the digits, so one problem shows every non-digit character.
    const probe = makeProblem(
      config,
      KIND_DEFS[config.kind].radices(config).map(() => 0),
    );
    for (const v of views) {
      const view = parseView(v);
      chars.add(VIEW_MARKER[view]);
      for (const ch of renderPrompt(probe, view) + renderCompletion(probe, view)) chars.add(ch);
    }
  }
  return [...chars].sort().join('');
}
