// WebGPU wrapper for shaders/sample.wgsl (one invocation per row). CPU twin: ../../cpu/sample.ts.
import type { OpArgs } from '../../ops/table';
import type { GpuContext } from '../context';
import { U, F, defineKernel } from '../context';
import common from '../../../../shaders/common.wgsl?raw';
import rowFns from '../../../../shaders/sample_row.wgsl?raw';
import src from '../../../../shaders/sample.wgsl?raw';

const WG = 64;
const code = common + rowFns + src;
const kernel = defineKernel({ label: 'sample', code, entry: 'sample_forward' });
const withLogp = defineKernel({ label: 'sample', code, entry: 'sample_logp' });

/**
 * out[r * outStride + outOffset] (u32) = greedy (temperature <= 0) or sampled token of logits row r (rows, V);
 * with `logp`, also logp[logpOffset + r] = that token's log-prob (at T, or 1 when greedy), same dispatch.
 */
export function sampleTokens(
  ctx: GpuContext,
  {
    out,
    logits,
    rows,
    V,
    temperature,
    seed,
    counter,
    outStride,
    outOffset,
    logp = null,
    logpOffset = 0,
  }: OpArgs<'sampleTokens'>,
): void {
  if (rows === 0) return;
  const greedy = temperature <= 0;
  ctx.run(
    logp ? withLogp : kernel,
    logp ? [out, logits, logp] : [out, logits],
    [
      U(rows),
      U(V),
      U(greedy ? 1 : 0),
      F(greedy ? 1 : 1 / temperature),
      U(seed),
      U(counter),
      U(outStride),
      U(outOffset),
      U(logpOffset),
    ],
    ctx.grid(rows, WG),
  );
}
