// `npm run learn`: train a small GPT (at most 50k parameters) on 2-digit addition on the CPU backend in
// Node, then report held-out exact-match accuracy (greedy decoding) and wall time as JSON. Held-out
// problems come from the task's eval split (src/tasks), which training never samples. The demo itself
// (src/worker/additionDemo.ts) is the same one the first page trains in the browser.
// Options: --steps N --lr X --batch N --nEmbd N --nLayer N --nHead N --pos learned|rope
//          --view plain|reversed --seed N --evalN N --out model.ckpt
import { writeFileSync } from 'node:fs';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { applyCheckpoint, loadCheckpoint, saveCheckpoint } from '../model/checkpoint';
import type { PosVariant } from '../model/config';
import { paramCount } from '../model/params';
import { parseView } from '../tasks';
import {
  DEFAULT_ADDITION_DEMO,
  evaluateAdditionDemo,
  makeAdditionDemo,
  trainAdditionDemo,
} from '../worker/additionDemo';

const MAX_PARAMS = 50_000;

function args(): Record<string, string> {
  const out: Record<string, string> = {};
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    if (!a[i].startsWith('--') || a[i + 1] === undefined)
      throw new Error(`expected --option value, got ${a.slice(i).join(' ')}`);
    out[a[i].slice(2)] = a[i + 1];
    i++;
  }
  return out;
}

async function main(): Promise<void> {
  const o = args();
  const d0 = DEFAULT_ADDITION_DEMO;
  const num = (k: string, d: number): number => {
    const v = o[k] === undefined ? d : Number(o[k]);
    if (!Number.isFinite(v)) throw new Error(`--${k} must be a number, got ${o[k]}`);
    return v;
  };
  const demo = makeAdditionDemo(new CpuBackend(), {
    steps: num('steps', d0.steps),
    batch: num('batch', d0.batch),
    lr: num('lr', d0.lr),
    nLayer: num('nLayer', d0.nLayer),
    nHead: num('nHead', d0.nHead),
    nEmbd: num('nEmbd', d0.nEmbd),
    pos: (o.pos ?? d0.pos) as PosVariant,
    view: parseView(o.view ?? d0.view),
    seed: num('seed', d0.seed),
  });
  const { task, tok, cfg, opts } = demo;
  const nParams = paramCount(cfg);
  if (nParams > MAX_PARAMS)
    throw new Error(`model has ${nParams} parameters, more than the ${MAX_PARAMS} allowed`);
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  log(
    `task ${task.name} view=${opts.view}: train ${task.sizes.train}, held out ${task.sizes.eval}; vocab ${tok.vocabSize} "${tok.alphabet}"`,
  );
  log(
    `model ${JSON.stringify(cfg)}: ${nParams} parameters; ${opts.steps} steps x batch ${opts.batch}, lr ${opts.lr}`,
  );

  const t0 = performance.now();
  const curve: { step: number; loss: number }[] = [];
  let avg = NaN;
  const losses = await trainAdditionDemo(demo, (step, loss) => {
    avg = Number.isNaN(avg) ? loss : 0.95 * avg + 0.05 * loss;
    if (step % 100 === 0 || step === opts.steps - 1) {
      curve.push({ step, loss: +avg.toFixed(4) });
      log(`step ${step} loss ${avg.toFixed(4)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
  });
  const trainSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const ev = await evaluateAdditionDemo(demo, num('evalN', task.sizes.eval));
  const evalSeconds = (performance.now() - t1) / 1000;

  if (o.out) {
    const bytes = await saveCheckpoint(demo.model, {
      family: 'learnAddition',
      task: task.name,
      view: opts.view,
      step: opts.steps,
      created: new Date().toISOString(),
    });
    applyCheckpoint(demo.model, loadCheckpoint(bytes)); // round-trip sanity check
    writeFileSync(o.out, bytes);
  }
  const report = {
    task: task.name,
    view: opts.view,
    config: cfg,
    params: nParams,
    steps: losses.length,
    batch: opts.batch,
    lr: opts.lr,
    trainSeconds: +trainSeconds.toFixed(1),
    evalSeconds: +evalSeconds.toFixed(1),
    wallSeconds: +((performance.now() - t0) / 1000).toFixed(1),
    finalLoss: curve.at(-1)?.loss,
    heldOut: ev.heldOut,
    exactMatch: +ev.exactMatch.toFixed(4),
    answerAccuracy: +ev.answerAccuracy.toFixed(4),
    wrongExamples: ev.wrongExamples,
    lossCurve: curve,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
