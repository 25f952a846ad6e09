// Resumable trainer state as bytes: everything that decides a CohortTrainer's future steps (step count,
// per-agent AdamW step counts, the step-1 reward-std baselines, parameters and AdamW moments m and v),
// for one or more trainers (one per method of a lock-step run). Layout (integers little-endian):
//   8 bytes  magic "CORLSNAP"
//   u32      format version (SNAPSHOT_VERSION)
//   u32      header byte length
//   header   UTF-8 JSON (SnapshotHeader): step, extra, trainers with per-agent scalars and payload offsets,
//            payload length and FNV-1a checksum
//   padding  zeros up to a 4-byte boundary
//   payload  float32 little-endian: per trainer, per agent, params then m then v (layout.total each)
// Decoding checks every field and refuses foreign, truncated or corrupted bytes with a message naming
// what is wrong. Pure (no backend): the trainer reads and writes the tensors.
import type { RewardMethod } from './rewards';

export const SNAPSHOT_MAGIC = 'CORLSNAP';
export const SNAPSHOT_FORMAT = 'corl-trainer-snapshot';
export const SNAPSHOT_VERSION = 1;

/** One agent's resumable state. The three arrays have the model's layout.total elements. */
export interface AgentSnapshot {
  id: string;
  /** AdamW steps taken (bias correction). */
  optSteps: number;
  /** Reward std at the agent's first step (batch and mean group), the normalisers; null before step 1. */
  firstStd: { batch: number; group: number } | null;
  /** Fingerprint of the base parameters (the KL reference) the run started from. */
  baseHash: string;
  params: Float32Array;
  m: Float32Array;
  v: Float32Array;
}

/** A CohortTrainer's resumable state after `step` steps. */
export interface TrainerSnapshot {
  method: RewardMethod;
  seed: number;
  step: number;
  agents: AgentSnapshot[];
}

/** Several trainers (a lock-step run) with free-form JSON `extra` (e.g. the live learning rate). */
export interface SnapshotBundle {
  /** Lock steps completed. */
  step: number;
  trainers: TrainerSnapshot[];
  extra: Record<string, unknown>;
}

interface AgentHeader {
  id: string;
  optSteps: number;
  firstStd: { batch: number; group: number } | null;
  baseHash: string;
  /** Elements of each of params, m and v. */
  size: number;
  /** Element offset of params in the payload (m follows at +size, v at +2 size). */
  offset: number;
}

interface SnapshotHeader {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  step: number;
  extra: Record<string, unknown>;
  trainers: { method: RewardMethod; seed: number; step: number; agents: AgentHeader[] }[];
  /** Float32 elements in the payload. */
  payload: number;
  /** FNV-1a 32 of the payload bytes, 8 hex digits. */
  checksum: string;
}

const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** FNV-1a 32-bit hash of bytes, as 8 hex digits. */
export function fnv1a(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Fingerprint of float32 values (their exact bits), e.g. base parameters. */
export function fingerprint(f: Float32Array): string {
  return `${f.length}:${fnv1a(new Uint8Array(f.buffer, f.byteOffset, f.byteLength))}`;
}

function putF32(out: Uint8Array, dv: DataView, byteAt: number, f: Float32Array): void {
  if (LITTLE) out.set(new Uint8Array(f.buffer, f.byteOffset, f.byteLength), byteAt);
  else for (let j = 0; j < f.length; j++) dv.setFloat32(byteAt + 4 * j, f[j], true);
}

function getF32(bytes: Uint8Array, dv: DataView, byteAt: number, n: number): Float32Array {
  if (LITTLE) return new Float32Array(bytes.slice(byteAt, byteAt + 4 * n).buffer);
  const a = new Float32Array(n);
  for (let j = 0; j < n; j++) a[j] = dv.getFloat32(byteAt + 4 * j, true);
  return a;
}

/** Serialise trainers' snapshots (and `extra`, which must be JSON) into one byte array. */
export function encodeSnapshot(b: SnapshotBundle): Uint8Array {
  let offset = 0;
  const trainers = b.trainers.map((t) => ({
    method: t.method,
    seed: t.seed,
    step: t.step,
    agents: t.agents.map((a): AgentHeader => {
      const size = a.params.length;
      if (a.m.length !== size || a.v.length !== size)
        throw new Error(
          `snapshot of agent ${a.id}: params, m and v differ in length (${size}, ${a.m.length}, ${a.v.length})`,
        );
      const h = { id: a.id, optSteps: a.optSteps, firstStd: a.firstStd, baseHash: a.baseHash, size, offset };
      offset += 3 * size;
      return h;
    }),
  }));
  const payload = new Uint8Array(offset * 4);
  const pdv = new DataView(payload.buffer);
  for (const [i, t] of b.trainers.entries())
    for (const [j, a] of t.agents.entries()) {
      const at = trainers[i].agents[j].offset * 4;
      putF32(payload, pdv, at, a.params);
      putF32(payload, pdv, at + 4 * a.params.length, a.m);
      putF32(payload, pdv, at + 8 * a.params.length, a.v);
    }
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    step: b.step,
    extra: b.extra,
    trainers,
    payload: offset,
    checksum: fnv1a(payload),
  };
  const hbytes = new TextEncoder().encode(JSON.stringify(header));
  const dataStart = Math.ceil((16 + hbytes.length) / 4) * 4;
  const out = new Uint8Array(dataStart + payload.length);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) out[i] = SNAPSHOT_MAGIC.charCodeAt(i);
  dv.setUint32(8, SNAPSHOT_VERSION, true);
  dv.setUint32(12, hbytes.length, true);
  out.set(hbytes, 16);
  out.set(payload, dataStart);
  return out;
}

const isInt = (x: unknown, min = 0): x is number => typeof x === 'number' && Number.isInteger(x) && x >= min;
const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** Decode and check snapshot bytes; throws a message saying what is wrong and what is expected. */
export function decodeSnapshot(data: Uint8Array | ArrayBuffer): SnapshotBundle {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const bad = (why: string): never => {
    throw new Error(`not a usable trainer snapshot: ${why}`);
  };
  if (bytes.length < 16) bad(`${bytes.length} bytes, shorter than the 16-byte preamble`);
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== SNAPSHOT_MAGIC) bad(`it starts with ${JSON.stringify(magic)}, expected "${SNAPSHOT_MAGIC}"`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== SNAPSHOT_VERSION)
    bad(`format version ${version}; this build reads version ${SNAPSHOT_VERSION}`);
  const hlen = dv.getUint32(12, true);
  if (16 + hlen > bytes.length)
    bad(`truncated: a header of ${hlen} bytes but only ${bytes.length - 16} follow the preamble`);
  let h: unknown;
  try {
    h = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(16, 16 + hlen)));
  } catch (e) {
    bad(`corrupt header (${(e as Error).message})`);
  }
  if (!isObj(h)) return bad('the header is not a JSON object');
  if (h.format !== SNAPSHOT_FORMAT)
    bad(`header format ${JSON.stringify(h.format)}, expected "${SNAPSHOT_FORMAT}"`);
  if (h.version !== version)
    bad(`header version ${JSON.stringify(h.version)} disagrees with the preamble's ${version}`);
  if (!isInt(h.step)) bad(`step ${JSON.stringify(h.step)} is not a whole number >= 0`);
  if (!isInt(h.payload)) bad(`payload length ${JSON.stringify(h.payload)} is not a whole number >= 0`);
  if (typeof h.checksum !== 'string') bad('the header has no checksum');
  if (!Array.isArray(h.trainers) || h.trainers.length === 0) bad('the header lists no trainers');
  const dataStart = Math.ceil((16 + hlen) / 4) * 4;
  const payloadBytes = (h.payload as number) * 4;
  if (bytes.length !== dataStart + payloadBytes) {
    bad(
      bytes.length < dataStart + payloadBytes
        ? `truncated: the payload needs ${payloadBytes} bytes but ${Math.max(0, bytes.length - dataStart)} are present`
        : `${bytes.length - dataStart - payloadBytes} unexpected bytes after the payload`,
    );
  }
  const sum = fnv1a(bytes.subarray(dataStart));
  if (sum !== h.checksum)
    bad(`the payload checksum is ${sum}, the header says ${String(h.checksum)} (corrupted data)`);
  let next = 0; // payload offsets must tile the payload exactly, in order
  const trainers: TrainerSnapshot[] = (h.trainers as unknown[]).map((t, i) => {
    if (!isObj(t)) return bad(`trainer ${i} is not an object`);
    if (typeof t.method !== 'string') bad(`trainer ${i} has no method`);
    if (typeof t.seed !== 'number' || !Number.isFinite(t.seed))
      bad(`trainer ${i} (${String(t.method)}) has no numeric seed`);
    if (!isInt(t.step))
      bad(`trainer ${i} (${String(t.method)}) step ${JSON.stringify(t.step)} is not a whole number >= 0`);
    if (!Array.isArray(t.agents) || t.agents.length === 0)
      bad(`trainer ${i} (${String(t.method)}) lists no agents`);
    const agents = (t.agents as unknown[]).map((a, j): AgentSnapshot => {
      const where = `trainer ${i} (${String(t.method)}) agent ${j}`;
      if (!isObj(a)) return bad(`${where} is not an object`);
      if (typeof a.id !== 'string' || a.id === '') bad(`${where} has no id`);
      if (!isInt(a.optSteps))
        bad(`${where} (${String(a.id)}): optSteps ${JSON.stringify(a.optSteps)} is not a whole number >= 0`);
      if (typeof a.baseHash !== 'string') bad(`${where} (${String(a.id)}) has no base fingerprint`);
      const fs = a.firstStd;
      if (fs !== null && !(isObj(fs) && typeof fs.batch === 'number' && typeof fs.group === 'number')) {
        bad(`${where} (${String(a.id)}): firstStd must be null or {batch, group} numbers`);
      }
      if (!isInt(a.size, 1))
        bad(`${where} (${String(a.id)}): size ${JSON.stringify(a.size)} is not a whole number >= 1`);
      if (a.offset !== next)
        bad(`${where} (${String(a.id)}): payload offset ${JSON.stringify(a.offset)}, expected ${next}`);
      const size = a.size as number;
      next += 3 * size;
      if (next > (h.payload as number))
        bad(`${where} (${String(a.id)}) reaches past the payload (${next} > ${String(h.payload)} elements)`);
      const at = dataStart + (a.offset as number) * 4;
      return {
        id: a.id as string,
        optSteps: a.optSteps as number,
        baseHash: a.baseHash as string,
        firstStd:
          fs === null
            ? null
            : { batch: (fs as { batch: number }).batch, group: (fs as { group: number }).group },
        params: getF32(bytes, dv, at, size),
        m: getF32(bytes, dv, at + 4 * size, size),
        v: getF32(bytes, dv, at + 8 * size, size),
      };
    });
    return { method: t.method as RewardMethod, seed: t.seed as number, step: t.step as number, agents };
  });
  if (next !== h.payload) bad(`the agents cover ${next} payload elements of ${String(h.payload)}`);
  return { step: h.step as number, trainers, extra: isObj(h.extra) ? h.extra : {} };
}
