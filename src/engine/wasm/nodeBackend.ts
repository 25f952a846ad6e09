// The engine of the Node commands (experiment, pretrain, overlap, bench): the wasm SIMD backend by
// default, the JavaScript CPU reference with `--backend cpu`. A bad name or a Node without wasm SIMD
// fails with a message saying what to pass instead.
import type { Backend } from '../backend';
import { CpuBackend } from '../cpu/cpuBackend';
import { WasmBackend } from './wasmBackend';

/** Engines a Node command runs on itself, default first. */
export const NODE_BACKENDS = ['wasm', 'cpu'] as const;
export type NodeBackendName = (typeof NODE_BACKENDS)[number];

/** The name of `--backend` checked (undefined = the default, wasm). */
export function nodeBackendName(v: string | undefined, extra: readonly string[] = []): string {
  const name = v ?? NODE_BACKENDS[0];
  const valid = [...NODE_BACKENDS, ...extra];
  if (!valid.includes(name))
    throw new Error(`--backend must be ${valid.join(', ')} (default wasm), got ${JSON.stringify(v)}`);
  return name;
}

/** A fresh backend of that name. */
export async function makeNodeBackend(name: NodeBackendName = 'wasm'): Promise<Backend> {
  if (name === 'cpu') return new CpuBackend();
  try {
    return await WasmBackend.create();
  } catch (e) {
    throw new Error(
      `the wasm backend cannot start here: ${(e as Error).message}; pass --backend cpu to use the JavaScript reference`,
      { cause: e },
    );
  }
}
