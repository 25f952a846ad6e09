// Command-line parsing shared by the Node entry points: `--name value` pairs, checked against the
// allowed names, with the usage line in every error.

/** Parse `--key value` pairs; unknown keys or a key without a value throw an error with `usage`. */
export function parseArgs(
  argv: readonly string[],
  allowed: readonly string[],
  usage: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i];
    if (!k.startsWith('--') || !allowed.includes(k.slice(2))) {
      throw new Error(
        `unknown argument ${k} (allowed: ${allowed.map((a) => `--${a}`).join(', ')})\n${usage}`,
      );
    }
    if (argv[i + 1] === undefined) throw new Error(`${k} needs a value\n${usage}`);
    out[k.slice(2)] = argv[i + 1];
  }
  return out;
}
