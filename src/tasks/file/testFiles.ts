// Task files for the tests: a valid JSON Lines file of `n` rows, as text or bytes.
const enc = new TextEncoder();

/** `n` valid rows (unique prompts "q0?".., answers the index mod 7, every third with working). */
export function goodRows(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      prompt: `q${i}?`,
      answer: String(i % 7),
      ...(i % 3 === 0 ? { working: `${i}%7` } : {}),
    }),
  );
}

/** The bytes of lines joined by line breaks (with a final one). */
export const bytesOf = (lines: readonly string[]): Uint8Array => enc.encode(`${lines.join('\n')}\n`);
