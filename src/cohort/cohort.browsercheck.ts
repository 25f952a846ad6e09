// Browser-side cohort checks (run by e2e/cohort.spec.ts through e2e/harness.ts): every shipped base
// checkpoint, fetched from the app like the UI does, loads on WebGPU and on the CPU backend in the page
// and both give identical greedy answers on held-out problems (and the completions Node recorded in the
// manifest); and the pretraining factory runs in the page on WebGPU (the in-browser pretraining path).
import { CpuBackend } from '../engine/cpu/cpuBackend';
import type { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { releaseDecoders } from '../model/generate';
import { makeTask } from '../tasks';
import { greedyScores } from './evaluate';
import { fetchReader } from './fetchReader';
import { agentFromCheckpoint, readManifest } from './manifest';
import { DEFAULT_TASK } from './presets';
import { pretrainAgent } from './pretrain';

interface CheckReport {
  ok: boolean;
  lines: string[];
  figures: Record<string, number>;
}

const PROBLEMS = 64;

/** Every distinct shipped checkpoint on both backends: identical greedy completions on 64 eval problems. */
async function shippedParity(gpu: WebGpuBackend): Promise<CheckReport> {
  const read = fetchReader();
  const manifest = await readManifest(read);
  const cpu = new CpuBackend();
  const lines: string[] = [];
  let ok = true;
  let compared = 0;
  let identical = 0;
  let files = 0;
  const seen = new Set<string>();
  for (const [preset, entry] of Object.entries(manifest.presets)) {
    const problems = makeTask(entry.task).evalSet(PROBLEMS);
    for (const a of entry.agents) {
      if (seen.has(a.checkpoint)) continue;
      seen.add(a.checkpoint);
      files++;
      const bytes = await read(a.checkpoint);
      const g = agentFromCheckpoint(gpu, bytes, a);
      const c = agentFromCheckpoint(cpu, bytes, a);
      const maxNew = g.base!.maxNewTokens;
      const sg = await greedyScores(g.model, g.tokenizer, a.view, problems, maxNew);
      const sc = await greedyScores(c.model, c.tokenizer, a.view, problems, maxNew);
      const same = sg.texts.filter((t, i) => t === sc.texts[i]).length;
      const probe = entry.probe.completions[a.id];
      const probeSame = probe.filter((t, i) => t === sg.texts[i]).length;
      compared += problems.length;
      identical += same;
      const good = same === problems.length && probeSame === probe.length;
      ok &&= good;
      lines.push(
        `${good ? 'ok' : 'MISMATCH'} ${preset}/${a.id} ${a.checkpoint}: webgpu vs cpu identical greedy answers on ${same}/${problems.length} eval problems ` +
          `(accuracy webgpu ${sg.accuracy.toFixed(3)}, cpu ${sc.accuracy.toFixed(3)}); matches the Node-recorded probe on ${probeSame}/${probe.length}`,
      );
      for (const x of [g, c]) {
        releaseDecoders(x.model);
        x.model.free();
      }
    }
  }
  lines.push(`${files} checkpoints, ${identical}/${compared} greedy answers identical across backends`);
  return { ok: ok && files > 0, lines, figures: { checkpoints: files, compared, identical } };
}

/** The pretraining factory on WebGPU in the page (tiny recipe): it runs, learns, and its checkpoint loads on the CPU. */
async function pretrainWebGpu(gpu: WebGpuBackend): Promise<CheckReport> {
  const t0 = performance.now();
  const validations: number[] = [];
  const r = await pretrainAgent(gpu, { id: 'A', family: 'rope-carry', size: 's', seed: 5 }, DEFAULT_TASK, {
    recipe: {
      maxSteps: 40,
      batch: 32,
      evalEvery: 20,
      valSize: 40,
      bandSamples: 2,
      band: [0.99, 1],
      sampledBand: [0.99, 1],
    },
    onProgress: (p) => void (!p.done && validations.push(p.valAccuracy!)),
  });
  const ms = performance.now() - t0;
  const cpuAgent = agentFromCheckpoint(new CpuBackend(), r.bytes, r.agent.spec);
  const problems = makeTask(DEFAULT_TASK).evalSet(32);
  const sg = await greedyScores(r.agent.model, r.agent.tokenizer, 'plain', problems, r.meta.maxNewTokens);
  const sc = await greedyScores(cpuAgent.model, cpuAgent.tokenizer, 'plain', problems, r.meta.maxNewTokens);
  const same = sg.texts.filter((t, i) => t === sc.texts[i]).length;
  const h = r.meta.history;
  const ok =
    h.length === 2 && h.every((x) => Number.isFinite(x.loss)) && h[1].loss < 2.5 && same === problems.length;
  releaseDecoders(r.agent.model);
  r.agent.model.free();
  return {
    ok,
    lines: [
      `pretrained ${r.meta.params} params on WebGPU for ${h.at(-1)!.step} steps in ${ms.toFixed(0)} ms; validation loss ${h.map((x) => x.loss.toFixed(3)).join(' -> ')}, greedy acc ${validations.map((v) => v.toFixed(3)).join(' -> ')}`,
      `checkpoint ${r.bytes.length} bytes loads on the CPU: identical greedy answers on ${same}/${problems.length}`,
    ],
    figures: { ms, loss: h.at(-1)!.loss, identical: same },
  };
}

export const checks: Record<string, (gpu: WebGpuBackend) => Promise<CheckReport>> = {
  'cohort:shipped-parity': shippedParity,
  'cohort:pretrain-webgpu': pretrainWebGpu,
};
