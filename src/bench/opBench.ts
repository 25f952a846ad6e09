// The op table's rows of `npm run bench` (the wasm section `ops` in Node, `ops` of the WebGPU page): every
// op with a parity case (src/engine/parity/opCases.ts) timed on an engine and on the CPU reference at that
// case's sizes, with whether the engine ran its own kernel or the CPU kernel over its memory (wasm's
// fallback). An op is timed by being declared.
import type { Backend } from '../engine/backend';
import { OP_NAMES } from '../engine/ops/table';
import { OP_CASES } from '../engine/parity/opCases';
import { caseArgs, callOp } from '../engine/parity/opParity';
import type { BenchPlan } from './benchSuite';
import { timeMs } from './benchSuite';

export interface OpFigure {
  op: string;
  /** The case's numbers, e.g. 'N=1000'. */
  at: string;
  /** The engine's own kernel, or 'cpu kernel' (the CPU reference's code over the engine's memory). */
  kernel: 'own' | 'cpu kernel';
  /** Milliseconds per call on the engine (wall clock, a sync after each sample) and on the CPU reference. */
  ms: number;
  cpuMs: number;
  /** cpuMs / ms. */
  vsCpu: number;
}

async function time(
  be: Backend,
  ref: Backend,
  op: (typeof OP_NAMES)[number],
  i: number,
  plan: BenchPlan,
): Promise<number> {
  const c = OP_CASES[op]![i];
  const { pairs, args } = caseArgs(op, c, be, ref, 7);
  const a = args('gpu');
  const ms = await timeMs(
    () => callOp(be, op, a),
    () => be.sync(),
    20,
    plan.samples,
    plan.warmup,
  );
  for (const [, p] of pairs) p.free();
  return ms;
}

/** Every op case on `be` and on the CPU reference, alternating them so they share the machine's noise. */
export async function opFigures(
  be: Backend,
  cpu: Backend,
  plan: BenchPlan,
  log: (s: string) => void,
): Promise<OpFigure[]> {
  const rows: OpFigure[] = [];
  const fallback = new Set(be.info.cpuKernelOps ?? []);
  for (const op of OP_NAMES) {
    for (const [i, c] of (OP_CASES[op] ?? []).entries()) {
      // the engine is timed against a CPU twin holding the same inputs, and the other way round
      const ms = await time(be, cpu, op, i, plan);
      const cpuMs = await time(cpu, be, op, i, plan);
      const at = Object.entries(c.numbers)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      const f: OpFigure = {
        op,
        at,
        kernel: fallback.has(op) ? 'cpu kernel' : 'own',
        ms,
        cpuMs,
        vsCpu: cpuMs / ms,
      };
      log(
        `${be.info.name} op ${op} (${at}): ${(ms * 1000).toFixed(1)} us (${f.kernel}), ${f.vsCpu.toFixed(2)}x cpu`,
      );
      rows.push(f);
    }
  }
  return rows;
}
