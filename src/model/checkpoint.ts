// Versioned binary checkpoints of a GPT's parameters. Layout (all integers little-endian):
//   8 bytes  magic "CORLCKPT"
//   u32      format version (CHECKPOINT_VERSION)
//   u32      header byte length
//   header   UTF-8 JSON {format, version, config, tensors: [{name, shape, offset}], meta}
//   padding  zeros up to a 4-byte boundary
//   data     float32 little-endian parameter values; tensor i occupies elements
//            [offset, offset + prod(shape)) of the data section (packed, no alignment gaps)
import * as v from 'valibot';
import { int, isObj, show } from '../schema';
import { assertGPTConfig, type GPTConfig } from './config';
import type { GPT } from './gpt';
import { paramLayout } from './params';

export const CHECKPOINT_MAGIC = 'CORLCKPT';
export const CHECKPOINT_FORMAT = 'corl-checkpoint';
export const CHECKPOINT_VERSION = 1;

/** Free-form metadata stored with the weights (family, step, created, ...). */
export type CheckpointMeta = Record<string, unknown>;

export interface CheckpointTensor {
  name: string;
  shape: number[];
  /** Element offset in the data section. */
  offset: number;
}

/** A decoded checkpoint. */
export interface Checkpoint {
  config: GPTConfig;
  meta: CheckpointMeta;
  /** Parameter values by name (each a packed copy, shape as in the header). */
  params: Map<string, Float32Array>;
  tensors: CheckpointTensor[];
}

/** A header's rules (schema layer): a JSON object, each tensor entry named, shaped and placed. */
const HEADER = v.custom<Record<string, unknown>>(isObj);
const TENSOR_ENTRY = v.object({ name: v.string(), shape: v.array(int(1)), offset: int(0) });

const sizeOf = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** Serialise a model's parameters (reads them from the backend) with `meta`. */
export async function saveCheckpoint(model: GPT, meta: CheckpointMeta = {}): Promise<Uint8Array> {
  return encodeCheckpoint(model.cfg, await model.readParams(), meta);
}

/** Serialise flat parameters of `cfg` (its paramLayout's order, as GPT.readParams gives them) with `meta`. */
export function encodeCheckpoint(cfg: GPTConfig, flat: Float32Array, meta: CheckpointMeta = {}): Uint8Array {
  const layout = paramLayout(cfg);
  if (flat.length !== layout.total)
    throw new Error(`encodeCheckpoint: ${flat.length} parameters given, the config has ${layout.total}`);
  const tensors: CheckpointTensor[] = [];
  let n = 0;
  for (const s of layout.specs) {
    tensors.push({ name: s.name, shape: [...s.shape], offset: n });
    n += s.size;
  }
  const header = { format: CHECKPOINT_FORMAT, version: CHECKPOINT_VERSION, config: cfg, tensors, meta };
  const hbytes = new TextEncoder().encode(JSON.stringify(header));
  const dataStart = Math.ceil((16 + hbytes.length) / 4) * 4;
  const out = new Uint8Array(dataStart + n * 4);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) out[i] = CHECKPOINT_MAGIC.charCodeAt(i);
  dv.setUint32(8, CHECKPOINT_VERSION, true);
  dv.setUint32(12, hbytes.length, true);
  out.set(hbytes, 16);
  for (const [i, s] of layout.specs.entries()) {
    const base = dataStart + tensors[i].offset * 4;
    for (let j = 0; j < s.size; j++) dv.setFloat32(base + j * 4, flat[s.offset + j], true);
  }
  return out;
}

/** Decode and validate a checkpoint; throws a clear error for wrong magic/version or truncated data. */
export function loadCheckpoint(bytes: Uint8Array): Checkpoint {
  if (bytes.length < 16)
    throw new Error(`not a checkpoint: ${bytes.length} bytes, shorter than the 16-byte preamble`);
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== CHECKPOINT_MAGIC)
    throw new Error(`not a checkpoint: magic ${JSON.stringify(magic)}, expected "${CHECKPOINT_MAGIC}"`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== CHECKPOINT_VERSION) {
    throw new Error(
      `unsupported checkpoint format version ${version}; this build reads version ${CHECKPOINT_VERSION}`,
    );
  }
  const hlen = dv.getUint32(12, true);
  if (16 + hlen > bytes.length)
    throw new Error(
      `truncated checkpoint: header of ${hlen} bytes but only ${bytes.length - 16} follow the preamble`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(16, 16 + hlen)));
  } catch (e) {
    throw new Error(`corrupt checkpoint header: ${(e as Error).message}`, { cause: e });
  }
  if (!v.is(HEADER, raw))
    throw new Error(
      `corrupt checkpoint header: must be a JSON object { format, version, config, tensors, meta }, got ${show(raw).slice(0, 120)}`,
    );
  const header = raw;
  if (header.format !== CHECKPOINT_FORMAT)
    throw new Error(
      `checkpoint header format ${JSON.stringify(header.format)}, expected "${CHECKPOINT_FORMAT}"`,
    );
  if (header.version !== version)
    throw new Error(
      `checkpoint header version ${String(header.version)} disagrees with the preamble's ${version}`,
    );
  try {
    assertGPTConfig(header.config);
  } catch (e) {
    throw new Error(`checkpoint holds an invalid config: ${(e as Error).message}`, { cause: e });
  }
  const config = header.config;
  const tensors = header.tensors as CheckpointTensor[];
  if (!Array.isArray(tensors)) throw new Error('checkpoint header has no tensor list');
  const dataStart = Math.ceil((16 + hlen) / 4) * 4;
  const nData = Math.floor((bytes.length - dataStart) / 4);
  const params = new Map<string, Float32Array>();
  for (const [i, t] of tensors.entries()) {
    if (!v.is(TENSOR_ENTRY, t))
      throw new Error(
        `corrupt checkpoint header: tensor entry ${i} must be { name, shape: positive integers, offset: integer >= 0 }, got ${JSON.stringify(t)?.slice(0, 120)}`,
      );
  }
  for (const t of tensors) {
    const n = sizeOf(t.shape);
    if (t.offset + n > nData) {
      throw new Error(
        `truncated checkpoint: tensor ${t.name} needs elements [${t.offset}, ${t.offset + n}) but the data holds ${nData}`,
      );
    }
    const a = new Float32Array(n);
    for (let j = 0; j < n; j++) a[j] = dv.getFloat32(dataStart + (t.offset + j) * 4, true);
    const bad = a.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0)
      throw new Error(
        `corrupt checkpoint: tensor ${t.name} holds ${a[bad]} at element ${bad} (weights must be finite; the file is damaged or came from a diverged run)`,
      );
    params.set(t.name, a);
  }
  // Tensors must be exactly those of the config's layout (each layer has tensors of its own: a header
  // claiming more layers than it lists tensors is refused before the layout is built, whatever nLayer says)
  if (config.nLayer > tensors.length)
    throw new Error(
      `checkpoint tensors do not match its config: nLayer ${config.nLayer} needs more than the ${tensors.length} tensors the header lists`,
    );
  const expected = paramLayout(config).specs;
  const problems: string[] = [];
  for (const s of expected) {
    const t = tensors.find((x) => x.name === s.name);
    if (!t) problems.push(`missing tensor ${s.name}`);
    else if (t.shape.join(',') !== s.shape.join(','))
      problems.push(`tensor ${s.name}: shape [${t.shape}], expected [${s.shape}]`);
  }
  for (const t of tensors)
    if (!expected.some((s) => s.name === t.name)) problems.push(`unexpected tensor ${t.name}`);
  if (problems.length) throw new Error(`checkpoint tensors do not match its config: ${problems.join('; ')}`);
  const meta = (typeof header.meta === 'object' && header.meta !== null ? header.meta : {}) as CheckpointMeta;
  return { config, meta, params, tensors };
}

/**
 * Differences between a model's config and a checkpoint's, one line per field
 * ("nLayer: expected 2, got 3"). The init seed is not compared (it does not shape the weights).
 */
export function configDiff(expected: GPTConfig, got: GPTConfig): string[] {
  const keys = Object.keys(expected) as (keyof GPTConfig)[];
  return keys
    .filter((k) => k !== 'seed' && expected[k] !== got[k])
    .map((k) => `${k}: expected ${JSON.stringify(expected[k])}, got ${JSON.stringify(got[k])}`);
}

/** Load a checkpoint's weights into `model` (and reset its optimizer); refuses a config mismatch. */
export function applyCheckpoint(model: GPT, ckpt: Checkpoint): void {
  const diff = configDiff(model.cfg, ckpt.config);
  if (diff.length) throw new Error(`checkpoint config does not match the model:\n  - ${diff.join('\n  - ')}`);
  const flat = new Float32Array(model.layout.total);
  for (const s of model.layout.specs) flat.set(ckpt.params.get(s.name)!, s.offset);
  model.writeParams(flat);
  model.resetOptimizer();
  model.zeroGrad();
}
