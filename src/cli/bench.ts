// `npm run bench`: one JSON report with matmul GFLOP/s at the model's shapes and the time of one
// supervised step of the tiny preset, for the CPU backend (Node) and WebGPU (headless Chromium).
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { runBench } from '../bench/runBench';
import { openPage } from './browser';

async function main(): Promise<void> {
  const onlyCpu = process.argv.includes('--cpu-only');
  const report: Record<string, unknown> = { date: new Date().toISOString(), node: process.versions.node };
  process.stderr.write('bench: CPU backend (Node)...\n');
  report.cpu = await runBench(new CpuBackend(), 3);
  if (!onlyCpu) {
    process.stderr.write('bench: WebGPU backend (headless Chromium)...\n');
    const session = await openPage('/src/bench/bench.html');
    try {
      await session.page.waitForFunction(() => document.title === 'bench ready', null, { timeout: 60_000 });
      report.webgpu = await session.page.evaluate(() =>
        (window as unknown as { runWebGpuBench: () => Promise<unknown> }).runWebGpuBench(),
      );
    } catch (e) {
      report.webgpu = { error: (e as Error).message };
    } finally {
      await session.close();
    }
  }
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
