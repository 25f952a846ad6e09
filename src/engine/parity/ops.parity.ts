// Parity of every op of the table that has cases (./opCases.ts) on the backend under test (WebGPU in the
// browser harness) against the CPU reference: declaring an op and its case puts it here.
import type { Backend } from '../backend';
import type { OpName } from '../ops/table';
import { OP_CASES } from './opCases';
import { runOpCase } from './opParity';
import type { ParityCase } from './parityUtil';

export const cases: ParityCase[] = Object.entries(OP_CASES).flatMap(([name, list]) =>
  list!.map((c, i) => ({
    name: `op table: ${name} #${i}`,
    run: (g: Backend, cpu: Backend) => runOpCase(name as OpName, c, g, cpu, 900 + 10 * i),
  })),
);
