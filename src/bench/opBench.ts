// The op table's rows of `npm run bench` (wasm section `ops`): every op with a parity case
// (src/engine/parity/opCases.ts) timed on the wasm engine and on the CPU reference at that case's sizes,
// with whether wasm ran its own kernel or the CPU kernel over wasm memory. An op is timed by being declared.
import type { Backend } from '../engine/backend';
import { OP_NAMES } from '../engine/ops/table';
import { OP_CASES } from '../engine/parity/opCases';
import { caseArgs, callOp } from '../engine/parity/opParity';
import type { WasmBackend } from '../engine/wasm/wasmBackend';
import type { BenchPlan } from './benchSuite';
import { timeMs } from './benchSuite';

export interface OpFigure {
  op: string;
  /** The case's numbers, e.g. 'N=1000'. */
  at: string;
  /** 'wasm' (its own kernel) or 'cpu kernel' (the CPU reference's code over wasm memory). */
  kernel: 'wasm' | 'cpu kernel';
  wasmMs: number;
  cpuMs: number;
  /** cpuMs / wasmMs. */
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

/** Every op case on wasm and cpu, alternating them so they share the machine's noise. */
export async function opFigures(
  wasm: WasmBackend,
  cpu: Backend,
  plan: BenchPlan,
  log: (s: string) => void,
): Promise<OpFigure[]> {
  const rows: OpFigure[] = [];
  const fallback = new Set(wasm.info.cpuKernelOps ?? []);
  for (const op of OP_NAMES) {
    for (const [i, c] of (OP_CASES[op] ?? []).entries()) {
      // wasm is timed against a CPU twin holding the same inputs, and the other way round
      const wasmMs = await time(wasm, cpu, op, i, plan);
      const cpuMs = await time(cpu, wasm, op, i, plan);
      const at = Object.entries(c.numbers)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      const f: OpFigure = {
        op,
        at,
        kernel: fallback.has(op) ? 'cpu kernel' : 'wasm',
        wasmMs,
        cpuMs,
        vsCpu: cpuMs / wasmMs,
      };
      log(
        `wasm op ${op} (${at}): ${(wasmMs * 1000).toFixed(1)} us (${f.kernel}), ${f.vsCpu.toFixed(2)}x cpu`,
      );
      rows.push(f);
    }
  }
  return rows;
}
