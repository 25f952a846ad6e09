// The engine of the Node commands (experiment, pretrain, overlap, bench): the wasm SIMD backend by
// default, its relaxed-SIMD (fused multiply-add) kernel variant with `--backend wasm-relaxed`, the
// JavaScript CPU reference with `--backend cpu`. A bad name or a Node without wasm SIMD fails with a
// message saying what to pass instead. Node picks the variant by name, never by detection, so one
// process's results never depend on a V8 flag another part of it set.
import type { Backend } from '../backend';
import { CpuBackend } from '../cpu/cpuBackend';
import { WasmBackend } from './wasmBackend';

/** Engines a Node command runs on itself, default first. */
export const NODE_BACKENDS = ['wasm', 'cpu', 'wasm-relaxed'] as const;
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
    if (name === 'wasm-relaxed') {
      // Node 20's V8 has relaxed SIMD behind a flag; a command that asks for it turns the flag on for itself
      const v8 = await import('node:v8');
      v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
      return await WasmBackend.create('relaxed');
    }
    return await WasmBackend.create('simd');
  } catch (e) {
    throw new Error(
      `the wasm backend cannot start here: ${(e as Error).message}; pass --backend cpu to use the JavaScript reference`,
      { cause: e },
    );
  }
}
