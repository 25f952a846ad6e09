// `npm run soak`: a long Co-RL run on WebGPU in headless Chromium (src/soak/soak.html) that checks the
// engine does not leak (issue 7): GPU bytes held by the engine and the page's JS heap (after a forced
// garbage collection, read through the DevTools protocol) at step --at and at the last step must be within
// 5% of each other. Prints one JSON report; exit status 1 when a figure is out of bounds.
import { PRESET_NAMES } from '../cohort/presets';
import { DEFAULT_TRAIN, REWARD_METHODS } from '../rl/config';
import type { RewardMethod } from '../rl/rewards';
import type { SoakOptions, SoakPoint } from '../soak/soakPage';
import { parseArgs } from '../util/args';
import { openPage } from '../bench/browser';

const USAGE =
  'usage: npm run soak -- [--steps 1000] [--at 100] [--preset paper-demo] [--method co-rl] [--batch 16] [--samples 8] [--seed 1]' +
  "\n  (batch and samples default to the Train view's defaults)";

function intArg(o: Record<string, string>, k: string, def: number, min: number): number {
  if (o[k] === undefined) return def;
  const v = Number(o[k]);
  if (!Number.isInteger(v) || v < min)
    throw new Error(`--${k} must be an integer >= ${min}, got ${JSON.stringify(o[k])}\n${USAGE}`);
  return v;
}

async function main(): Promise<void> {
  const o = parseArgs(
    process.argv.slice(2),
    ['steps', 'at', 'preset', 'method', 'batch', 'samples', 'seed'],
    USAGE,
  );
  const steps = intArg(o, 'steps', 1000, 2);
  const at = intArg(o, 'at', Math.min(100, Math.floor(steps / 10)), 1);
  if (at >= steps) throw new Error(`--at (${at}) must be below --steps (${steps})\n${USAGE}`);
  const preset = o.preset ?? 'paper-demo';
  if (!PRESET_NAMES.includes(preset))
    throw new Error(`unknown preset ${JSON.stringify(preset)} (valid: ${PRESET_NAMES.join(', ')})`);
  const method = (o.method ?? 'co-rl') as RewardMethod;
  if (!REWARD_METHODS.includes(method))
    throw new Error(`unknown method ${JSON.stringify(method)} (valid: ${REWARD_METHODS.join(', ')})`);
  const opts: SoakOptions = {
    preset,
    method,
    batchPrompts: intArg(o, 'batch', DEFAULT_TRAIN.batchPrompts, 1),
    samples: intArg(o, 'samples', DEFAULT_TRAIN.samples, 2),
    seed: intArg(o, 'seed', 1, 0),
  };

  const session = await openPage('/src/soak/soak.html');
  try {
    const { page } = session;
    await page.waitForFunction(() => document.title === 'soak ready', null, { timeout: 120_000 });
    const cdp = await page.context().newCDPSession(page);
    const heap = async (): Promise<number> => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    /** A heap snapshot's self sizes split into compiled code (V8's JIT output) and everything else. */
    const heapSplit = async (): Promise<{ code: number; data: number }> => {
      await cdp.send('HeapProfiler.collectGarbage');
      let text = '';
      const onChunk = (e: { chunk: string }) => void (text += e.chunk);
      cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
      await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
      const snap = JSON.parse(text) as {
        snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
        nodes: number[];
      };
      const f = snap.snapshot.meta.node_fields;
      const types = snap.snapshot.meta.node_types[0];
      const [iType, iSize] = [f.indexOf('type'), f.indexOf('self_size')];
      const out = { code: 0, data: 0 };
      for (let i = 0; i < snap.nodes.length; i += f.length) {
        if (types[snap.nodes[i + iType]] === 'code') out.code += snap.nodes[i + iSize];
        else out.data += snap.nodes[i + iSize];
      }
      return out;
    };
    type W = { soakStart(o: SoakOptions): Promise<string>; soakTo(s: number): Promise<SoakPoint> };
    const adapter = await page.evaluate((x) => (window as unknown as W).soakStart(x), opts);
    process.stderr.write(
      `soak: ${adapter}; ${steps} steps of ${method}, B=${opts.batchPrompts}, K=${opts.samples}\n`,
    );
    const points: (SoakPoint & { heapBytes: number })[] = [];
    const split = new Map<number, { code: number; data: number }>();
    const marks = [
      ...new Set([
        1,
        at,
        ...Array.from({ length: 10 }, (_, i) => Math.round(((i + 1) * steps) / 10)).filter((s) => s > at),
      ]),
    ].sort((a, b) => a - b);
    for (const m of marks) {
      const p = await page.evaluate((s) => (window as unknown as W).soakTo(s), m);
      points.push({ ...p, heapBytes: await heap() });
      if (m === at || m === steps) split.set(m, await heapSplit());
      process.stderr.write(
        `soak: step ${p.step}: GPU bytes ${p.bytesHeld}, heap ${points[points.length - 1].heapBytes}, allocations ${p.allocations}, ${p.msPerStep.toFixed(0)} ms/step\n`,
      );
    }
    const a = points.find((p) => p.step === at)!;
    const z = points[points.length - 1];
    const ratio = (x: number, y: number) => (y === 0 ? (x === 0 ? 1 : Infinity) : x / y);
    const gpuRatio = ratio(z.bytesHeld, a.bytesHeld);
    const heapRatio = ratio(z.heapBytes, a.heapBytes);
    const sa = split.get(at)!;
    const sz = split.get(z.step)!;
    const dataRatio = ratio(sz.data, sa.data);
    const ok = Math.abs(gpuRatio - 1) <= 0.05 && Math.abs(heapRatio - 1) <= 0.05;
    const report = {
      date: new Date().toISOString(),
      adapter,
      browserFlags: process.env.WEBGPU_FLAGS ?? '--enable-unsafe-webgpu',
      options: opts,
      steps,
      at,
      gpuBytes: { [`step${at}`]: a.bytesHeld, [`step${z.step}`]: z.bytesHeld, ratio: gpuRatio },
      jsHeapBytes: { [`step${at}`]: a.heapBytes, [`step${z.step}`]: z.heapBytes, ratio: heapRatio },
      // from heap snapshots: V8's compiled code (grows while the JIT optimizes more functions) and the rest
      jsHeapSnapshot: {
        [`step${at}`]: sa,
        [`step${z.step}`]: sz,
        dataRatio,
        codeGrowthBytes: sz.code - sa.code,
      },
      allocationsAfterStep1: z.allocations - points[0].allocations,
      withinFivePercent: ok,
      points,
    };
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    if (!ok) process.exitCode = 1;
  } finally {
    await session.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`soak failed: ${(e as Error).message}\n`);
  process.exit(2);
});
