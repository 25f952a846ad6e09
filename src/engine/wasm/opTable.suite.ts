// The op table on the wasm backend, in either kernel variant: every op with cases (src/engine/parity/opCases.ts)
// against the CPU reference, whether it runs a wasm kernel or falls back to its CPU kernel (counted), and
// the table's completeness checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/cpuBackend';
import { describeCompare } from '../compare';
import { OP_NAMES, type OpName } from '../ops/table';
import { OP_CASES, OWN_PARITY } from '../parity/opCases';
import { caseArgs, callOp, runOpCase } from '../parity/opParity';
import type { KernelVariant } from './kernels';
import { WasmBackend } from './wasmBackend';

/** The op-table cases on the kernel variant `kernels` (wasmParity.test.ts, wasmParity.relaxed.test.ts). */
export function opTableSuite(kernels: KernelVariant): void {
  let wasm: WasmBackend;
  const cpu = new CpuBackend();
  beforeAll(async () => {
    wasm = await WasmBackend.create(kernels);
  });
  afterAll(() => wasm.destroy());

  describe(`op table on wasm (${kernels}) vs the CPU reference`, () => {
    it('has a parity case or its own parity file for every op', () => {
      const untested = OP_NAMES.filter((n) => !OP_CASES[n] && !OWN_PARITY.includes(n));
      expect(untested, 'add a case to src/engine/parity/opCases.ts').toEqual([]);
    });

    for (const [name, list] of Object.entries(OP_CASES) as [OpName, NonNullable<(typeof OP_CASES)[OpName]>][])
      list.forEach((c, i) =>
        it(`${name} #${i}`, async () => {
          const res = await runOpCase(name, c, wasm, cpu, 900 + 10 * i);
          expect(res.filter((r) => !r.ok).map(describeCompare)).toEqual([]);
        }),
      );

    it('counts the calls of ops with no wasm kernel, and names those ops in its info', () => {
      const fallback = wasm.info.cpuKernelOps ?? [];
      expect(fallback).toContain('ropeForward'); // no wasm kernel: the CPU kernel over wasm memory
      expect(fallback).not.toContain('matmulForward');
      const before = { ...wasm.cpuFallbacks };
      for (const name of ['ropeForward', 'matmulForward'] as const) {
        const { pairs, args } = caseArgs(name, OP_CASES[name]![0], wasm, cpu, 1);
        callOp(wasm, name, args('gpu'));
        for (const [, p] of pairs) p.free();
      }
      expect(wasm.cpuFallbacks.ropeForward).toBe((before.ropeForward ?? 0) + 1);
      expect(wasm.cpuFallbacks.matmulForward ?? 0).toBe(before.matmulForward ?? 0);
    });
  });
}
