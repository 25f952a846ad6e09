// The checkpoint manifest (public/checkpoints/index.json): presets -> agents -> checkpoint files, with
// what each base agent scored when it was made and a fingerprint of its greedy answers. Also the
// environment-free loaders: the caller supplies a `ReadBytes` (fetch in the page or worker, fs in Node),
// so this file runs everywhere.
import type { Backend } from '../engine/backend';
import { applyCheckpoint, loadCheckpoint } from '../model/checkpoint';
import { GPT } from '../model/gpt';
import { makeNamedTokenizer, type ResolvedTaskConfig } from '../tasks';
import type { Agent, AgentSpec } from './agent';
import { getFamily } from './families';
import { unknownName } from './names';
import { BASE_META_FORMAT, type BaseMeta } from './baseMeta';

export const MANIFEST_FORMAT = 'co-rl-checkpoints';
export const MANIFEST_VERSION = 1;
/** Path of the manifest relative to public/ (and to the app's base URL). */
export const MANIFEST_PATH = 'checkpoints/index.json';

/** One agent of a preset in the manifest: its spec (checkpoint set) and what it scored. */
export interface ManifestAgent extends AgentSpec {
  checkpoint: string;
  /** Checkpoint size in bytes and its FNV-1a hash (hex) over the bytes. */
  bytes: number;
  hash: string;
  params: number;
  steps: number;
  /** Greedy and sampled (T = 1) accuracy on the validation slice (train split) at the stop. */
  valAccuracy: number;
  valSampledAccuracy: number;
  inBand: boolean;
}

/** Greedy completions of every agent on the first problems of the task's eval order (a fingerprint). */
export interface ManifestProbe {
  problems: number;
  /** Per agent id: decoded greedy completions, one per problem. */
  completions: Record<string, string[]>;
}

export interface ManifestPreset {
  description: string;
  task: ResolvedTaskConfig;
  seed: number;
  agents: ManifestAgent[];
  probe: ManifestProbe;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  version: number;
  presets: Record<string, ManifestPreset>;
}

/** An empty manifest. */
export function emptyManifest(): Manifest {
  return { format: MANIFEST_FORMAT, version: MANIFEST_VERSION, presets: {} };
}

/** Parse and check a manifest (any JSON value); throws naming what is wrong. */
export function parseManifest(raw: unknown): Manifest {
  const m = raw as Partial<Manifest> | null;
  if (typeof m !== 'object' || m === null) throw new Error('checkpoint manifest must be a JSON object');
  if (m.format !== MANIFEST_FORMAT)
    throw new Error(`checkpoint manifest format ${JSON.stringify(m.format)}, expected "${MANIFEST_FORMAT}"`);
  if (m.version !== MANIFEST_VERSION)
    throw new Error(
      `checkpoint manifest version ${String(m.version)}; this build reads version ${MANIFEST_VERSION}`,
    );
  if (typeof m.presets !== 'object' || m.presets === null)
    throw new Error('checkpoint manifest has no "presets" object');
  for (const [name, p] of Object.entries(m.presets)) {
    if (!Array.isArray(p.agents) || p.agents.length === 0)
      throw new Error(`manifest preset "${name}" lists no agents`);
    for (const a of p.agents) {
      if (typeof a.checkpoint !== 'string')
        throw new Error(`manifest preset "${name}" agent ${JSON.stringify(a.id)} has no checkpoint path`);
    }
  }
  return m as Manifest;
}

/** The manifest entry of a preset, or throw listing the presets the manifest holds. */
export function manifestPreset(m: Manifest, name: string): ManifestPreset {
  const p = m.presets[name];
  if (!p) throw unknownName('preset (in the checkpoint manifest)', name, Object.keys(m.presets));
  return p;
}

/** 32-bit FNV-1a hash of bytes, as 8 hex digits. */
export function hashBytes(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** Reads a file given its path relative to public/ (fetch in the browser, fs in Node). */
export type ReadBytes = (path: string) => Promise<Uint8Array>;

/** The base meta of a checkpoint's meta object; throws if it is not a base-agent checkpoint. */
export function baseMetaOf(meta: Record<string, unknown>, where = 'checkpoint'): BaseMeta {
  if (meta.format !== BASE_META_FORMAT)
    throw new Error(
      `${where} is not a base-agent checkpoint (meta format ${JSON.stringify(meta.format)}, expected "${BASE_META_FORMAT}")`,
    );
  return meta as unknown as BaseMeta;
}

/**
 * An agent from checkpoint bytes on `backend`. The spec defaults to the checkpoint's own (id "A");
 * a given spec must match the checkpoint's family, size, seed and view (else a clear error).
 */
export function agentFromCheckpoint(
  backend: Backend,
  bytes: Uint8Array,
  spec?: Partial<AgentSpec> & { id?: string },
): Agent {
  const ckpt = loadCheckpoint(bytes);
  const where = spec?.checkpoint ?? 'checkpoint';
  const meta = baseMetaOf(ckpt.meta, where);
  getFamily(meta.family);
  const mismatch: string[] = [];
  for (const k of ['family', 'size', 'seed', 'view'] as const) {
    if (spec && spec[k] !== undefined && spec[k] !== meta[k])
      mismatch.push(`${k}: spec ${JSON.stringify(spec[k])}, checkpoint ${JSON.stringify(meta[k])}`);
  }
  if (mismatch.length)
    throw new Error(`${where} does not match agent ${spec?.id ?? ''}: ${mismatch.join('; ')}`);
  const tokenizer = makeNamedTokenizer(meta.tokenizer ?? 'digit', meta.alphabet);
  if (tokenizer.vocabSize !== ckpt.config.vocabSize) {
    throw new Error(
      `${where}: alphabet gives ${tokenizer.vocabSize} tokens but the model has vocabSize ${ckpt.config.vocabSize}`,
    );
  }
  const model = new GPT(backend, ckpt.config);
  applyCheckpoint(model, ckpt);
  return {
    spec: {
      id: spec?.id ?? 'A',
      family: meta.family,
      size: meta.size,
      seed: meta.seed,
      view: meta.view,
      checkpoint: spec?.checkpoint,
    },
    model,
    tokenizer,
    base: meta,
  };
}

/** Load the manifest with `read`. */
export async function readManifest(read: ReadBytes): Promise<Manifest> {
  const bytes = await read(MANIFEST_PATH);
  return parseManifest(JSON.parse(new TextDecoder().decode(bytes)));
}

/** The agents of a shipped preset on `backend`, their checkpoints read with `read`. */
export async function loadPresetAgents(
  backend: Backend,
  read: ReadBytes,
  preset: string,
  manifest?: Manifest,
): Promise<Agent[]> {
  const m = manifest ?? (await readManifest(read));
  const p = manifestPreset(m, preset);
  const out: Agent[] = [];
  for (const a of p.agents) {
    const bytes = await read(a.checkpoint);
    if (bytes.length !== a.bytes || hashBytes(bytes) !== a.hash) {
      throw new Error(
        `${a.checkpoint}: ${bytes.length} bytes, hash ${hashBytes(bytes)}; the manifest expects ${a.bytes} bytes, hash ${a.hash} (re-run npm run pretrain -- --preset ${preset})`,
      );
    }
    out.push(agentFromCheckpoint(backend, bytes, a));
  }
  return out;
}
