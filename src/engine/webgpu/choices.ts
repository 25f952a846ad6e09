// Kernel variants chosen by measurement (issue 13): for every op with more than one WGSL variant, the
// variant each shape runs with. A measured choice (src/engine/webgpu/tune.ts) wins over the shape rule
// the op module defines (matmulVariant, layernormVariant, ...); a forced variant wins over both (tests,
// --kernel). Choices persist per adapter and kernel version (tuneCache.ts); a cache from another adapter
// or an older KERNEL_VERSION is ignored. Unmeasured shapes seen by pick() are remembered as misses.
import { matmulVariant } from './ops/matmul';
import { layernormVariant } from './ops/layernorm';
import { ROWS_MAXT, attentionVariant } from './ops/attention';
import { logprobVariant } from './ops/logprob';
import { SUMSQ_ROWS_MAX, sumSquaresVariant } from './ops/optim';
import { VARIANT_NAMES, checkForced, parseForced, type TunedOp, type VariantOf } from './variantNames';

/** Bump when any tuned kernel's code or launch shape changes: older cached choices are then re-measured. */
export const KERNEL_VERSION = 1;

/** An op with several variants: their names, the shape rule, and why a variant cannot run a shape. */
export interface TunableOp {
  variants: readonly string[];
  /** What the dims of a shape key are. */
  dims: string;
  rule(d: readonly number[]): string;
  /** Null when `v` can run dims `d`, else the reason it cannot. */
  cannot(v: string, d: readonly number[]): string | null;
}

const none = (): null => null;

/** Every tuned op. Dims: matmul N,C,OC; layernorm N,C; attention B,T,C,NH; attentionCached B,T,keys,C,NH; logprob N,V; sumSquares N. */
export const TUNABLE = {
  matmul: {
    variants: VARIANT_NAMES.matmul,
    dims: 'N, C, OC',
    rule: ([N, C, OC]) => matmulVariant(N, C, OC),
    cannot: (v, [, C]) => (v === 'blocked' && C % 4 !== 0 ? `needs C % 4 == 0, got C=${C}` : null),
  },
  layernorm: {
    variants: VARIANT_NAMES.layernorm,
    dims: 'N, C',
    rule: ([N, C]) => layernormVariant(N, C),
    cannot: none,
  },
  attention: {
    variants: VARIANT_NAMES.attention,
    dims: 'B, T, C, NH',
    rule: ([, T]) => attentionVariant(T),
    cannot: (v, [, T]) =>
      v === 'rows' && T > ROWS_MAXT ? `takes at most ${ROWS_MAXT} keys, got ${T}` : null,
  },
  attentionCached: {
    variants: VARIANT_NAMES.attentionCached,
    dims: 'B, T, keys, C, NH',
    rule: ([, , k]) => attentionVariant(k),
    cannot: (v, [, , k]) =>
      v === 'rows' && k > ROWS_MAXT ? `takes at most ${ROWS_MAXT} keys, got ${k}` : null,
  },
  logprob: {
    variants: VARIANT_NAMES.logprob,
    dims: 'N, V',
    rule: ([, V]) => logprobVariant(V),
    cannot: none,
  },
  sumSquares: {
    variants: VARIANT_NAMES.sumSquares,
    dims: 'N',
    rule: ([N]) => sumSquaresVariant(N),
    cannot: (v, [N]) =>
      v === 'rows' && N > SUMSQ_ROWS_MAX ? `takes at most ${SUMSQ_ROWS_MAX} elements, got ${N}` : null,
  },
} satisfies Record<TunedOp, TunableOp>;

export { parseForced, type TunedOp, type VariantOf };

/** The key of one op at one shape, e.g. "matmul:320x24x72". */
export const shapeKey = (op: TunedOp, d: readonly number[]): string => `${op}:${d.join('x')}`;

/** One measured choice: the variant and each candidate's median ms (null: it cannot run the shape). */
export interface MeasuredChoice {
  op: TunedOp;
  dims: number[];
  variant: string;
  /** The shape rule's variant (what the op ran before measurement). */
  rule: string;
  ms: Record<string, number | null>;
  /** Variants not run at this shape because they lost by more than PRUNE_RATIO at a smaller shape of the op, with that loss. */
  pruned?: Record<string, string>;
}

/** What is stored per adapter: the adapter, the kernel version and the measured choices by shape key. */
export interface ChoiceCache {
  adapter: string;
  kernelVersion: number;
  choices: Record<string, MeasuredChoice>;
}

/** The choice table a WebGPU backend consults at every dispatch of a tuned op. */
export class KernelChoices {
  private readonly measured = new Map<string, MeasuredChoice>();
  private forced: Partial<Record<TunedOp, string>> = {};
  /** Shapes pick() saw without a measured choice (what tune() measures next). */
  readonly misses = new Map<string, { op: TunedOp; dims: number[] }>();

  /** Force variants (validated; see parseForced); {} clears. */
  force(f: Partial<Record<TunedOp, string>>): void {
    for (const [op, v] of Object.entries(f)) checkForced(op, v);
    this.forced = { ...f };
  }

  /** The variant `op` runs at dims `d`: forced (refused when it cannot run the shape), measured, else the rule. */
  pick<O extends TunedOp>(op: O, d: readonly number[]): VariantOf<O> {
    const s: TunableOp = TUNABLE[op];
    const f = this.forced[op];
    if (f) {
      const why = s.cannot(f, d);
      if (why) {
        const ok = s.variants.filter((v) => !s.cannot(v, d));
        throw new Error(
          `forced ${op} variant '${f}' cannot run ${op} at ${s.dims} = ${d.join(', ')} (${why}); valid here: ${ok.join(', ')}`,
        );
      }
      return f as VariantOf<O>;
    }
    const key = shapeKey(op, d);
    const m = this.measured.get(key);
    if (m) return m.variant as VariantOf<O>;
    if (!this.misses.has(key)) this.misses.set(key, { op, dims: [...d] });
    return s.rule(d) as VariantOf<O>;
  }

  /** Record a measured choice (from tune() or a cache). */
  set(c: MeasuredChoice): void {
    const key = shapeKey(c.op, c.dims);
    this.measured.set(key, c);
    this.misses.delete(key);
  }

  /** Every measured choice, in insertion order. */
  all(): MeasuredChoice[] {
    return [...this.measured.values()];
  }

  /** The cache record of these choices for `adapter`. */
  toCache(adapter: string): ChoiceCache {
    return {
      adapter,
      kernelVersion: KERNEL_VERSION,
      choices: Object.fromEntries([...this.measured].map(([k, c]) => [k, c])),
    };
  }

  /**
   * Take the choices of a cache record when it belongs to `adapter` and KERNEL_VERSION; returns how many
   * were taken, or the reason it was ignored (another adapter, another version, malformed).
   */
  load(cache: unknown, adapter: string): { taken: number; ignored: string | null } {
    const c = cache as Partial<ChoiceCache> | null;
    if (!c || typeof c !== 'object' || typeof c.choices !== 'object' || c.choices === null)
      return { taken: 0, ignored: 'malformed cache record' };
    if (c.adapter !== adapter)
      return {
        taken: 0,
        ignored: `cached for adapter ${JSON.stringify(c.adapter)}, this is ${JSON.stringify(adapter)}`,
      };
    if (c.kernelVersion !== KERNEL_VERSION)
      return {
        taken: 0,
        ignored: `cached for kernel version ${String(c.kernelVersion)}, this is ${KERNEL_VERSION}`,
      };
    let taken = 0;
    for (const m of Object.values(c.choices)) {
      const s = TUNABLE[m?.op] as TunableOp | undefined;
      if (!s || !Array.isArray(m.dims) || !s.variants.includes(m.variant) || s.cannot(m.variant, m.dims))
        continue;
      this.set(m);
      taken++;
    }
    return { taken, ignored: null };
  }
}
