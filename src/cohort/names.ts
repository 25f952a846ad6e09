// The error every registry lookup (family, size, preset, region) throws for an unknown name: it lists
// the valid names, so a typo on the command line or in a config tells the user what to write instead.

/** Thrown for an unknown family, size, preset or region name; `valid` lists the names accepted. */
export class UnknownNameError extends Error {
  constructor(
    readonly what: string,
    readonly got: string,
    readonly valid: readonly string[],
  ) {
    super(`unknown ${what} ${JSON.stringify(got)}; valid names: ${valid.join(', ')}`);
    this.name = 'UnknownNameError';
  }
}

/** An UnknownNameError for `what` (e.g. 'preset') named `got`, listing `valid`. */
export function unknownName(what: string, got: string, valid: readonly string[]): UnknownNameError {
  return new UnknownNameError(what, got, valid);
}
