// `npm run bench`: one JSON report on stdout. For every agent of a cohort preset (default: the Train
// view's default preset) at its real shapes: our matmul in Node (CPU backend) against a plain triple
// loop; our WebGPU matmul against TensorFlow.js's WebGPU backend in the same headless Chromium page
// on the same adapter; and the supervised step (forward, cross-entropy, backward, Adam) of ours and of
// the same model written with TensorFlow.js. Progress goes to stderr. Method: docs/performance.md.
// Kernel variants are measured first (cached per adapter); --device adds the WebGPU scaling rows and
// writes the report to one file (src/bench/devicePlan.ts).
import { openPage } from '../bench/browser';
import { planFromArgs } from '../bench/benchPlan';
import { runCpuBench } from '../bench/runBench';
import { WASM_USAGE, runWasmBench, splitWasmArgs } from '../bench/wasmSuite';
import type { LeanStepFigures } from '../rl/leanFigures';
import { splitDeviceArgs } from '../bench/devicePlan';
import { runFirstPointBench, splitAppArgs, type FirstPointFigures } from '../bench/firstPoint';
import { type PagePretrainRow, runPagePretrainBench } from '../bench/pagePretrainBench';
import { type ScalingRow, scalingCells, scalingTable } from '../bench/scaling';
import { readKernelCache, writeKernelCache } from './kernelCacheFile';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The scaling table with the engines side by side: cpu and wasm rows from Node, webgpu rows from the page. */
function scalingSummary(report: Record<string, unknown>): Record<string, unknown>[] | null {
  const node = (report.wasm as { scaling?: { rows: ScalingRow[] } } | undefined)?.scaling?.rows;
  const gpu = (report.webgpu as { scaling?: { rows: ScalingRow[] } | null } | undefined)?.scaling?.rows;
  if (!node && !gpu) return null;
  return scalingTable(scalingCells(), [...(node ?? []), ...(gpu ?? [])]);
}

/** A row of the app section, or null when it did not run or failed (its error stays in report.app). */
function appRow<T>(report: Record<string, unknown>, name: string): T | null {
  const r = (report.app as Record<string, unknown> | undefined)?.[name];
  return r && typeof r === 'object' && !('error' in r) ? (r as T) : null;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  let parsed: ReturnType<typeof planFromArgs>;
  let wasmArgs: ReturnType<typeof splitWasmArgs>;
  let dev: ReturnType<typeof splitDeviceArgs>['args'];
  let app: ReturnType<typeof splitAppArgs>;
  try {
    app = splitAppArgs(process.argv.slice(2)); // --app-only, --no-app, --app ROWS (src/bench/firstPoint.ts)
    const split = splitDeviceArgs(app.rest); // --device, --kernel, ... (src/bench/devicePlan.ts)
    dev = split.args;
    wasmArgs = splitWasmArgs(split.rest); // --wasm SECTIONS|none, --wasm-only (src/bench/wasmSuite.ts)
    parsed = planFromArgs(wasmArgs.rest);
  } catch (e) {
    // bad input: the message says what is wrong and what is accepted
    const more = /^unknown argument/.test((e as Error).message) ? `\n${WASM_USAGE}` : '';
    process.stderr.write(`bench: ${(e as Error).message}${more}\n`);
    process.exit(2);
  }
  const { plan } = parsed;
  const [cpu, gpu] = wasmArgs.only || app.only ? [false, false] : [parsed.cpu, parsed.gpu];
  if (app.only) wasmArgs.sections = [];
  const runApp = app.only || (app.app && gpu);
  const log = (s: string): void => void process.stderr.write(`bench: ${s}\n`);
  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.versions.node,
    preset: plan.preset,
    models: plan.models,
    method: {
      matmulReps: plan.matmulReps,
      samples: plan.samples,
      warmup: plan.warmup,
      sftReps: plan.sftReps,
      figures: 'medians of `samples` timed samples after `warmup` untimed ones; see docs/performance.md',
    },
  };
  if (cpu) {
    log(`CPU backend (Node), ${plan.shapes.length} shapes, sft ${plan.sftAgents.join(',') || 'none'}...`);
    report.cpu = await runCpuBench(plan, log);
  }
  if (wasmArgs.sections.length > 0)
    report.wasm = await runWasmBench(plan, { ...wasmArgs, scalingCaps: dev.nodeScaling }, log);
  if (gpu) {
    log('WebGPU: ours and TensorFlow.js (headless Chromium)...');
    const session = await openPage('/src/bench/bench.html');
    session.page.on('console', (m) => {
      if (m.type() === 'log' && m.text().startsWith('bench: ')) process.stderr.write(`${m.text()}\n`);
    });
    try {
      await session.page.waitForFunction(() => document.title === 'bench ready', null, { timeout: 120_000 });
      const kernelOpts = { force: dev.kernel, cache: readKernelCache(dev.kernelCache) };
      report.webgpu = await session.page.evaluate(
        ([p, k, sc]) =>
          (window as unknown as { runWebGpuBench: (...a: unknown[]) => Promise<unknown> }).runWebGpuBench(
            p,
            k,
            sc,
          ),
        [plan as unknown, kernelOpts as unknown, dev.scaling as unknown] as const,
      );
      const kc = (report.webgpu as { kernelChoice?: { adapter: string; cache: unknown } }).kernelChoice;
      if (kc) writeKernelCache(dev.kernelCache, kc.adapter, kc.cache);
    } catch (e) {
      report.webgpu = { error: (e as Error).message };
      process.exitCode = 1;
    }
    try {
      log('wasm kernel variants in the page: plain SIMD vs relaxed SIMD (FMA)...');
      report.wasmPage = await session.page.evaluate(
        (p) =>
          (
            window as unknown as { runWasmKernelsBench: (p: unknown) => Promise<unknown> }
          ).runWasmKernelsBench(p),
        plan as unknown,
      );
    } catch (e) {
      report.wasmPage = { error: (e as Error).message };
      process.exitCode = 1;
    } finally {
      await session.close();
    }
  }
  if (runApp) {
    const appReport: Record<string, unknown> = {};
    report.app = appReport;
    if (app.sections.includes('firstPoint')) {
      log('app: the default link, Start to the first chart point (headless Chromium)...');
      try {
        appReport.firstPoint = await runFirstPointBench(log);
      } catch (e) {
        appReport.firstPoint = { error: (e as Error).message };
        process.exitCode = 1;
      }
    }
    for (const threads of [false, true]) {
      if (!app.sections.includes(threads ? 'pretrain-threads' : 'pretrain')) continue;
      log(
        'app: in-page pretraining of natural-addw-different-arch on 1 vs 2 model workers (headless Chromium)' +
          (threads ? ', with CPU by thread...' : '...'),
      );
      const key = threads ? 'pretrainPoolThreads' : 'pretrainPool';
      try {
        appReport[key] = await runPagePretrainBench(log, threads);
      } catch (e) {
        appReport[key] = { error: (e as Error).message };
        process.exitCode = 1;
      }
    }
  }
  const cpuR = report.cpu as { summary?: { matmulSpeedupMin: number | null } } | undefined;
  const gpuR = report.webgpu as
    | {
        summary?: { matmulRatioMin: number | null; sftRatioMin: number | null };
        coRlStep?: LeanStepFigures | null;
      }
    | undefined;
  const lean = gpuR?.coRlStep ?? null;
  report.summary = {
    scaling: scalingSummary(report),
    wasm: (report.wasm as { summary?: unknown } | undefined)?.summary ?? null,
    wasmRelaxedVsSimdPage:
      (report.wasmPage as { min?: number; max?: number } | undefined)?.min === undefined
        ? null
        : { min: (report.wasmPage as { min: number }).min, max: (report.wasmPage as { max: number }).max },
    firstPoint: appRow<FirstPointFigures>(report, 'firstPoint'),
    pagePretrainSpeedup: appRow<PagePretrainRow>(report, 'pretrainPool')?.speedup ?? null,
    cpuMatmulVsTripleLoopMin: cpuR?.summary?.matmulSpeedupMin ?? null,
    webgpuMatmulVsTfjsMin: gpuR?.summary?.matmulRatioMin ?? null,
    webgpuSftStepVsTfjsMin: gpuR?.summary?.sftRatioMin ?? null,
    webgpuCoRlStep: lean && {
      stepMs: lean.stepMs,
      readbacksPerStep: lean.readbacksPerStep,
      dispatchesPerToken: { bk16: lean.dispatchesPerToken16, bk256: lean.dispatchesPerToken256 },
      allocationsAfterFirstStep: lean.allocationsAfterFirst,
      bytesHeld: { step10: lean.bytesHeldStep10, [`step${lean.stepsN}`]: lean.bytesHeldStepN },
    },
  };
  const wallSeconds = (performance.now() - t0) / 1000;
  report.wallSeconds = wallSeconds;
  const text = JSON.stringify(report, null, 2) + '\n';
  if (dev.out) {
    mkdirSync(dirname(dev.out), { recursive: true });
    writeFileSync(dev.out, text);
    log(`wrote ${dev.out} (${wallSeconds.toFixed(0)} s)`);
  }
  process.stdout.write(text);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
