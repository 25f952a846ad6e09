// Fused against unfused decoding on WebGPU (e2e/lean.spec.ts prints it): the same generation of the
// paper-demo agents at B x K = 128 rows with the fused decode kernels (src/engine/decode.ts) and with
// them hidden (the per-op path), side by side: median wall ms, dispatches, and how many tokens agree.
import type { Backend } from '../engine/backend';
import { generate, releaseDecoders } from '../model/generate';
import { presetShapedAgents } from './leanFigures';

/** `be` without the optional fused decode ops, so generate takes the unfused path. */
function unfused(be: Backend): Backend {
  return new Proxy(be, {
    get: (t, k, r) => (typeof k === 'string' && k.startsWith('decode') ? undefined : Reflect.get(t, k, r)),
  });
}

async function fusedVsUnfused(
  gpu: Backend,
): Promise<{ ok: boolean; lines: string[]; figures: Record<string, number> }> {
  const lines: string[] = [];
  const figures: Record<string, number> = {};
  let ok = true;
  for (const [name, be] of [
    ['fused', gpu],
    ['unfused', unfused(gpu)],
  ] as const) {
    const { agents } = presetShapedAgents(be);
    const times: number[] = [];
    let dispatches = 0;
    for (const a of agents) {
      const Tp = 6;
      const prompts = new Uint32Array(16 * Tp).map((_, i) => 3 + (i % 10));
      const opts = { samples: 8, temperature: 1, maxNewTokens: 8, eosId: 0, seed: 9 };
      await generate(a.model, prompts, 16, Tp, opts); // warm-up (compiles)
      for (let i = 0; i < 3; i++) {
        const d0 = gpu.counters.dispatches;
        const t0 = performance.now();
        await generate(a.model, prompts, 16, Tp, opts);
        times.push(performance.now() - t0);
        dispatches = gpu.counters.dispatches - d0;
      }
      const ts = gpu as unknown as {
        hasTimestamps?: boolean;
        beginTimestamps?(n: number): void;
        endTimestamps?(): Promise<{ kernel: string; ms: number }[]>;
      };
      if (ts.hasTimestamps && ts.beginTimestamps && ts.endTimestamps) {
        ts.beginTimestamps(dispatches + 8);
        await generate(a.model, prompts, 16, Tp, opts);
        const by = new Map<string, number>();
        for (const k of await ts.endTimestamps()) by.set(k.kernel, (by.get(k.kernel) ?? 0) + k.ms);
        lines.push(
          `${name} agent ${a.spec.id} GPU ms by kernel: ${[...by]
            .sort((x, y) => y[1] - x[1])
            .map(([k, v]) => `${k} ${v.toFixed(1)}`)
            .join(', ')}`,
        );
      }
      releaseDecoders(a.model);
      a.model.free();
    }
    times.sort((x, y) => x - y);
    figures[`${name}Ms`] = times[Math.floor(times.length / 2)];
    figures[`${name}Dispatches`] = dispatches;
    lines.push(
      `${name}: 128 rows x 8 tokens, median ${figures[`${name}Ms`].toFixed(1)} ms per generation, ${dispatches} dispatches (last agent)`,
    );
  }
  ok &&= figures.fusedDispatches < figures.unfusedDispatches;
  lines.push(`fused / unfused time: ${(figures.fusedMs / figures.unfusedMs).toFixed(2)}`);
  return { ok, lines, figures };
}

export const checks = { 'decode:fused-vs-unfused': fusedVsUnfused };
