// A model worker of the page (a Web Worker the training worker starts, ./pagePool.ts): its first message
// names the engine (engineId: 'cpu', 'wasm' or 'wasm-relaxed', the training worker's own), it starts
// that engine and answers the pool's requests (src/rl/pool/host.ts). Needs no SharedArrayBuffer and no
// cross-origin isolation: everything crosses by postMessage.
import { engineId, type Backend } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { WasmBackend } from '../engine/wasm/wasmBackend';
import { modelHost } from '../rl/pool/host';
import type { HostMessage, HostReply } from '../rl/pool/protocol';

const send = (r: HostReply) => (self as unknown as Worker).postMessage(r);
let handle: ((m: HostMessage) => void) | null = null;

async function start(engine: string): Promise<void> {
  let be: Backend;
  if (engine === 'cpu') be = new CpuBackend();
  else if (engine === 'wasm' || engine === 'wasm-relaxed')
    be = await WasmBackend.create(engine === 'wasm-relaxed' ? 'relaxed' : 'simd');
  else throw new Error(`no engine ${JSON.stringify(engine)} in a model worker (cpu, wasm, wasm-relaxed)`);
  handle = modelHost(be, send);
  send({ kind: 'ready', engine: engineId(be.info) });
}

self.onmessage = (ev: MessageEvent<HostMessage | { engine: string }>) => {
  const m = ev.data;
  if ('engine' in m)
    start(m.engine).catch((e: unknown) =>
      send({ kind: 'failed', message: e instanceof Error ? e.message : String(e) }),
    );
  else handle?.(m);
};
