// The names of the tuned ops and their kernel variants (src/engine/webgpu/choices.ts holds the rules and
// the choice table), without the kernels themselves, so Node code (the bench CLI) can check a --kernel
// flag. parseForced refuses an unknown op or variant, naming the valid ones.

/** Every op with more than one WGSL variant, and its variants. */
export const VARIANT_NAMES = {
  matmul: ['blocked', 'tiled'],
  layernorm: ['rows', 'workgroup'],
  attention: ['rows', 'workgroup'],
  attentionCached: ['rows', 'workgroup'],
  logprob: ['rows', 'workgroup'],
  sumSquares: ['rows', 'workgroup'],
} as const;

export type TunedOp = keyof typeof VARIANT_NAMES;
/** The variant names of one op. */
export type VariantOf<O extends TunedOp> = (typeof VARIANT_NAMES)[O][number];
export const TUNED_OPS = Object.keys(VARIANT_NAMES) as TunedOp[];

/** Check one forced (op, variant); throws naming the valid ops or the op's valid variants. */
export function checkForced(op: string, v: string): void {
  if (!(op in VARIANT_NAMES))
    throw new Error(`unknown kernel op ${JSON.stringify(op)}; valid ops: ${TUNED_OPS.join(', ')}`);
  const valid: readonly string[] = VARIANT_NAMES[op as TunedOp];
  if (!valid.includes(v))
    throw new Error(`unknown ${op} variant ${JSON.stringify(v)}; valid: ${valid.join(', ')}`);
}

/** Parse `op=variant,op=variant` (the --kernel flag); throws naming the valid ops and variants. */
export function parseForced(spec: string): Partial<Record<TunedOp, string>> {
  const out: Partial<Record<TunedOp, string>> = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [op, v = ''] = part.split('=').map((s) => s.trim());
    checkForced(op, v);
    out[op as TunedOp] = v;
  }
  return out;
}
