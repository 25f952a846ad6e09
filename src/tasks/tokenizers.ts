// Named tokenizers, the `tokenizer` axis of an agent (docs/method.md ("Natural diversity")): `digit` (one token per character,
// so one per digit, as Qwen does), `chunk2` / `chunk3` (runs of digits cut left to right into chunks of
// up to 2 or 3 digits, one token each, as Llama 3 does with 3), and `words` (each known word one token).
// All share the Tokenizer interface of tokenizer.ts: ids 0-2 are PAD/BOS/EOS, then the single characters
// in code-point order (the same ids as the `digit` tokenizer), then the multi-character tokens.
import { TaskConfigError } from './config';
import { NUM_SPECIAL, decodePieces, makeTokenizer, type Tokenizer } from './tokenizer';

/** Every tokenizer name. */
export const TOKENIZER_NAMES = ['digit', 'chunk2', 'chunk3', 'words'] as const;
/** A tokenizer name. */
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];
/** The words the `words` tokenizer knows (every word a prompt template writes). */
export const TOKEN_WORDS = ['count', 'in', 'mod', 'plus', 'sort', 'times'] as const;

/** True if `name` is a tokenizer name. */
export function isTokenizerName(name: unknown): name is TokenizerName {
  return typeof name === 'string' && (TOKENIZER_NAMES as readonly string[]).includes(name);
}

/** `name` as a tokenizer name, or throw listing the valid ones. */
export function parseTokenizerName(name: unknown): TokenizerName {
  if (!isTokenizerName(name))
    throw new TaskConfigError([
      `unknown tokenizer ${JSON.stringify(name)}; valid tokenizers: ${TOKENIZER_NAMES.join(', ')}`,
    ]);
  return name;
}

/** Every digit string of length 2..k (in length, then numeric, order). */
function digitStrings(k: number): string[] {
  const out: string[] = [];
  for (let len = 2; len <= k; len++)
    for (let i = 0; i < 10 ** len; i++) out.push(String(i).padStart(len, '0'));
  return out;
}

/** Cut text into pieces: digit runs into chunks of `k` from the left; known letter runs (words) whole; the rest by character. */
function pieces(text: string, k: number, words: ReadonlySet<string> | null): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    let j = i + 1;
    if (ch >= '0' && ch <= '9' && k > 1) {
      while (j < text.length && j - i < k && text[j] >= '0' && text[j] <= '9') j++;
    } else if (words && /[a-z]/.test(ch)) {
      while (j < text.length && /[a-z]/.test(text[j])) j++;
      if (!words.has(text.slice(i, j))) j = i + 1; // unknown word: letter by letter
    }
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

/**
 * A tokenizer by name over a character alphabet (the task's, `taskAlphabet`). `digit` is exactly
 * `makeTokenizer(alphabet)`; the others add multi-character tokens after the characters.
 */
export function makeNamedTokenizer(name: TokenizerName, alphabet: string): Tokenizer {
  const base = makeTokenizer(alphabet);
  if (parseTokenizerName(name) === 'digit') return base;
  const k = name === 'chunk2' ? 2 : name === 'chunk3' ? 3 : 1;
  const letters = new Set(base.alphabet);
  const words = name === 'words' ? TOKEN_WORDS.filter((w) => [...w].every((c) => letters.has(c))) : [];
  const extra = name === 'words' ? words : base.alphabet.includes('0') ? digitStrings(k) : [];
  const tokens = [...base.alphabet, ...extra];
  const ids = new Map(tokens.map((t, i) => [t, NUM_SPECIAL + i]));
  const wordSet = name === 'words' ? new Set(words) : null;
  const vocabSize = NUM_SPECIAL + tokens.length;
  const encode = (text: string): number[] =>
    pieces(text, k, wordSet).map((p) => {
      const id = ids.get(p);
      if (id === undefined)
        throw new Error(
          `cannot encode ${JSON.stringify(p)} with the ${name} tokenizer; alphabet is ${JSON.stringify(base.alphabet)}`,
        );
      return id;
    });
  const decode = (seq: ArrayLike<number>): string => decodePieces(seq, tokens);
  return { ...base, vocabSize, encode, decode };
}
