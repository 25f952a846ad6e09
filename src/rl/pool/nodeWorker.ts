// A model worker in Node (a worker_threads thread started by ./nodePool.ts): its own engine of the name
// the pool asked for, the pool's host (./host.ts) answering the coordinator's requests.
import { parentPort, workerData } from 'node:worker_threads';
import { engineId } from '../../engine/backend';
import { makeNodeBackend, type NodeBackendName } from '../../engine/wasm/nodeBackend';
import { modelHost } from './host';
import type { HostMessage, HostReply } from './protocol';

const port = parentPort!;
const send = (r: HostReply) => port.postMessage(r);
try {
  const be = await makeNodeBackend((workerData as { engine: NodeBackendName }).engine);
  const handle = modelHost(be, send);
  port.on('message', (m: HostMessage) => handle(m));
  send({ kind: 'ready', engine: engineId(be.info) });
} catch (e) {
  send({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
}
